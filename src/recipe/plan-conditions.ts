import type { RecordedCall } from '../compare/calls.js';
import type { Condition } from './plan-schema.js';
import { routeOfCall } from './recorded.js';

/**
 * When each step of an endpoint runs, read off the recorded calls that answered: the declarations
 * list the routes an endpoint may call, not when; the record shows in which calls each was made and
 * how often, and a step made exactly when a parameter is given (or per item of a list parameter) is
 * planned under that condition. What no parameter explains is said to be so.
 */

export const isAnswered = (call: RecordedCall): boolean => {
  const error = (call.answer as { error?: unknown } | null | undefined)?.error;
  return error === undefined && call.v2Calls.length > 0;
};

/** The routes of a call's own steps (a rollback's undos apart), in the order they were made. */
export const stepRoutes = (call: RecordedCall): string[] =>
  call.v2Calls.filter((c) => !c.undo).map((c) => routeOfCall(c)?.name ?? `${c.method} ${c.path}`);

const given = (call: RecordedCall, param: string) => {
  const value = call.params[param];
  return value !== undefined && (Array.isArray(value) ? value.length > 0 : value !== '');
};

export const itemsOf = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : value.split(',').filter((item) => item !== '');

/** The order steps are made in: the fullest recorded call's, then routes only other calls made. */
export function stepOrder(answered: readonly RecordedCall[]): string[] {
  const sequences = answered.map(stepRoutes).sort((a, b) => new Set(b).size - new Set(a).size);
  const order: string[] = [];
  for (const sequence of sequences) for (const route of sequence) if (!order.includes(route)) order.push(route);
  return order;
}

function paramCondition(counts: number[], answered: readonly RecordedCall[], params: readonly string[]): Condition | undefined {
  if (counts.every((n) => n <= 1)) {
    for (const param of params) {
      if (answered.every((call, i) => given(call, param) === (counts[i] === 1))) return { kind: 'given', param };
      if (answered.every((call, i) => given(call, param) === (counts[i] === 0))) return { kind: 'absent', param };
    }
  }
  for (const param of params) {
    if (answered.some((call) => itemsOf(call.params[param]).length > 1) || counts.some((n) => n > 1))
      if (answered.every((call, i) => itemsOf(call.params[param]).length === counts[i])) return { kind: 'per-item', param };
  }
  return undefined;
}

/** When `route` runs, from the answered calls of its endpoint. */
export function conditionOf(route: string, answered: readonly RecordedCall[], params: readonly string[]): Condition {
  const counts = answered.map((call) => stepRoutes(call).filter((r) => r === route).length);
  if (counts.every((n) => n === 0))
    return { kind: 'unseen', why: 'declared, and made by no recorded call that answered: the translator decides when it runs' };
  if (counts.every((n) => n === counts[0])) return { kind: 'always', times: counts[0]! };
  return (
    paramCondition(counts, answered, params) ?? {
      kind: 'sometimes',
      why: `made ${counts.join(', ')} times in the recorded calls, which no parameter given or left out explains`,
    }
  );
}
