import type { RecordedCall } from '../compare/calls.js';
import { templatePattern, type V2Route } from '../v2-contract/v2-route.js';
import type { Condition, PlannedStep, Source } from './plan-schema.js';
import { routeOfCall, templatePathOf } from './recorded.js';

/**
 * A step made once per item of an earlier list step's page (a list item v2 gives shallow, read in
 * full one by one: each webinar of a webinar list, each meeting of a meeting list): told by the
 * record, where the step's path values in each call are the ids of the items v1 answered, one
 * read per item.
 */

/** Every value the step's single placeholder took in one call, in order. */
function valuesIn(call: RecordedCall, route: V2Route): string[] {
  const pattern = templatePattern(route.template, { capture: true });
  return call.v2Calls.flatMap((c) => {
    if (c.undo || routeOfCall(c)?.name !== route.name) return [];
    const match = pattern.exec(templatePathOf(c.path));
    return match ? [decodeURIComponent(match[1]!)] : [];
  });
}

/** The ids of the items of each list the call's v1 answer holds. */
function answeredIds(call: RecordedCall): string[][] {
  const answer = (call.answer as Record<string, unknown> | null) ?? {};
  return Object.values(answer)
    .filter(Array.isArray)
    .map((items) => items.flatMap((item: unknown) => (item && typeof item === 'object' && 'id' in item ? [String(item.id)] : [])));
}

/**
 * The fan-out over the items of the earlier paged step, where every answered call made the step
 * once per item its v1 answer lists, on each item's id (over a list v1 filters, once per item of
 * the whole list, the items answered among them); undefined where the record shows otherwise.
 */
export function fanOutOverItems(
  route: V2Route,
  answered: readonly RecordedCall[],
  earlier: readonly PlannedStep[],
): { when: Condition; source: Source; placeholder: string } | undefined {
  const names = [...route.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const listStep = earlier.findIndex((step) => step.pages);
  if (names.length !== 1 || listStep < 0 || answered.length === 0) return undefined;
  // A list v1 filters is read whole, item by item, before the filter: every item v1 answered was read.
  const filtered = earlier[listStep]!.pages!.keep !== undefined;
  const perItem = answered.every((call) => {
    const values = valuesIn(call, route);
    return answeredIds(call).some((ids) =>
      filtered ? ids.every((id) => values.includes(id)) : ids.length === values.length && values.every((value) => ids.includes(value)),
    );
  });
  if (!perItem || answered.every((call) => valuesIn(call, route).length === 0)) return undefined;
  return { when: { kind: 'per-list-item', step: listStep }, source: { from: 'list-item', field: 'id' }, placeholder: names[0]! };
}
