import type { RecordedCall } from '../compare/calls.js';
import { getPath, setPath } from '../v1/field-map.js';
import { itemsOf } from './plan-conditions.js';
import type { BodyField, EndpointPlan, PlannedStep, Source } from './plan-schema.js';
import { applyCodec, readValue } from './plan-values.js';

/**
 * One recorded v1 call done again from its recipe alone: each step of the plan whose condition the
 * call's parameters meet, its path filled from its sources, its body from the body fields of the
 * parameters given, then the v1 answer built by the reverse map. Nothing here knows a translator:
 * only the plan (recipe.json) and the recorded parameters.
 */

export interface V2Reply {
  status: number;
  body: unknown;
}

/** A v2 API to run against: a method, a path (`/meetings/123`, values encoded) and a JSON body. */
export type V2Caller = (method: string, path: string, body?: unknown) => Promise<V2Reply>;

export interface PlanRun {
  /** The v2 calls made, in order, with their answers. */
  made: { method: string; path: string; status: number; body: unknown }[];
  /** The first step v2 refused, if one was. */
  refused?: { route: string; status: number; body: unknown };
  /** The v1 answer the reverse map builds (only the fields it builds). */
  answer: Record<string, unknown>;
}

type Params = RecordedCall['params'];

const given = (params: Params, name: string) => {
  const value = params[name];
  return value !== undefined && (Array.isArray(value) ? value.length > 0 : value !== '');
};

/** How many times a step runs for these parameters, and the fan-out's items when it is one. */
function runsOf(step: PlannedStep, params: Params): (string | undefined)[] {
  const when = step.when;
  switch (when.kind) {
    case 'always':
      return Array.from({ length: when.times }, () => undefined);
    case 'given':
      return given(params, when.param) ? [undefined] : [];
    case 'absent':
      return given(params, when.param) ? [] : [undefined];
    case 'per-item':
      return itemsOf(params[when.param]);
    default:
      return [];
  }
}

function valueOf(source: Source, params: Params, answers: readonly unknown[], item: string | undefined): unknown {
  switch (source.from) {
    case 'param':
      return params[source.param] === undefined ? undefined : readValue(params[source.param]!, source.as);
    case 'item':
      return item;
    case 'step':
      return getPath(answers[source.step], source.field);
    default:
      return source.value;
  }
}

function pathOf(step: PlannedStep, params: Params, answers: readonly unknown[], item: string | undefined): string | undefined {
  let missing = false;
  const path = step.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const source = step.pathParams[name];
    const value = source && valueOf(source, params, answers, item);
    if (value === undefined || value === null) missing = true;
    return encodeURIComponent(String(value));
  });
  return missing ? undefined : path;
}

/** The body from the fields whose parameter is given; a create (POST) sends the v1 defaults of the rest. */
function bodyOf(fields: readonly BodyField[], params: Params, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = given(params, field.v1) ? readValue(params[field.v1]!, field.as) : create ? field.default : undefined;
    if (value === undefined) continue;
    const sent = applyCodec(field.codec, value, 'toV2');
    if (sent !== undefined) setPath(body, field.v2, sent);
  }
  return body;
}

function buildAnswer(plan: EndpointPlan, params: Params, answers: readonly unknown[]): Record<string, unknown> {
  const answer: Record<string, unknown> = {};
  for (const field of plan.answer) {
    const source = field.source;
    if (source.from === 'param') {
      if (params[source.param] !== undefined) answer[field.v1] = readValue(params[source.param]!, source.as);
      continue;
    }
    // The last step whose answer has it: a host check's user comes before the session it checks.
    const found = answers.map((a) => getPath(a, source.v2)).findLast((v) => v !== undefined);
    if (found !== undefined) answer[field.v1] = applyCodec(source.codec, found, 'toV1');
  }
  return answer;
}

export async function runPlan(plan: EndpointPlan, params: Params, v2: V2Caller): Promise<PlanRun> {
  const made: PlanRun['made'] = [];
  const answers: unknown[] = [];
  for (const step of plan.steps) {
    const runs = runsOf(step, params);
    for (const item of runs) {
      const path = pathOf(step, params, answers, item);
      if (path === undefined)
        return { made, refused: { route: step.route, status: 0, body: 'a path value the plan names is missing' }, answer: {} };
      const body = step.body ? bodyOf(step.body, params, step.method === 'POST') : undefined;
      const reply = await v2(step.method, path, body);
      made.push({ method: step.method, path, status: reply.status, body: reply.body });
      if (reply.status >= 400) return { made, refused: { route: step.route, status: reply.status, body: reply.body }, answer: {} };
      answers[plan.steps.indexOf(step)] ??= reply.body;
    }
  }
  return { made, answer: buildAnswer(plan, params, answers) };
}
