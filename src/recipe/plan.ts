import type { RecordedCall } from '../compare/calls.js';
import type { EndpointDefinition } from '../translators/kit/define.js';
import { ALL_V2_ROUTES } from '../v2-contract/v2-routes.js';
import { templatePattern, type V2Route } from '../v2-contract/v2-route.js';
import { conditionOf, isAnswered, itemsOf, stepOrder } from './plan-conditions.js';
import type { Condition, EndpointPlan, PlannedStep, Source } from './plan-schema.js';
import { paramType, planBodies } from './plan-bodies.js';
import { queryRuns, stepQuery } from './plan-query.js';
import { reverseMap } from './plan-answer.js';
import { plannedErrors } from './plan-errors.js';
import { fanOutOverItems } from './plan-fan-out.js';
import { routeOfCall, templatePathOf } from './recorded.js';

/**
 * Each endpoint's v2 steps as a program can run them: read from the declarations (the routes, their
 * undos, the input and output rows with their types and codecs) and, for what they do not carry,
 * from the recorded calls (when a step runs, where each path value comes from). What neither says
 * is listed in `cannotExpress`, with the reason.
 */

const routesByName = new Map<string, V2Route>(ALL_V2_ROUTES.map((route) => [route.name, route]));

const placeholders = (template: string) => [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

function decodeAll(segment: string): string {
  let value = segment;
  for (let i = 0; i < 2; i++) {
    try {
      const decoded = decodeURIComponent(value);
      if (decoded === value) break;
      value = decoded;
    } catch {
      break;
    }
  }
  return value;
}

/** The value of each placeholder in a recorded path of `template`. */
function pathValues(template: string, path: string): Record<string, string> | undefined {
  const names = placeholders(template);
  const match = templatePattern(template, { capture: true }).exec(templatePathOf(path));
  return match ? Object.fromEntries(names.map((name, i) => [name, decodeAll(match[i + 1]!)])) : undefined;
}

/** Each placeholder's recorded values, one per call that made the step (its first occurrence) and the call. */
function recordedValues(route: V2Route, answered: readonly RecordedCall[]): { call: RecordedCall; values: Record<string, string> }[] {
  return answered.flatMap((call) => {
    const made = call.v2Calls.find((c) => !c.undo && routeOfCall(c)?.name === route.name);
    const values = made && pathValues(route.template, made.path);
    return values ? [{ call, values }] : [];
  });
}

interface StepContext {
  endpoint: EndpointDefinition;
  answered: readonly RecordedCall[];
  /** The steps before this one, planned. */
  earlier: readonly PlannedStep[];
  when: Condition;
  /** One of the runs of a route made with different filters: its filter's values. */
  run?: Record<string, string> | undefined;
  /** A fan-out over the items of an earlier list step, where the record shows one. */
  fanOut?: ReturnType<typeof fanOutOverItems>;
}

/** Where one placeholder's value comes from: a fan-out's item, a parameter, an earlier answer's id, or a constant; or why none can say. */
function placeholderSource(
  name: string,
  seen: { call: RecordedCall; values: Record<string, string> }[],
  at: StepContext,
): Source | string | undefined {
  if (seen.length === 0) return undefined;
  const fanOut = at.when.kind === 'per-item' ? at.when.param : undefined;
  if (fanOut && seen.every(({ call, values }) => itemsOf(call.params[fanOut]).includes(values[name]!)))
    return { from: 'item', param: fanOut };
  const params = Object.keys(seen[0]!.call.params);
  const param = params.find((p) => seen.every(({ call, values }) => !Array.isArray(call.params[p]) && call.params[p] === values[name]));
  if (param) return { from: 'param', param, as: paramType(at.endpoint, param, at.answered) };
  const first = seen[0]!.values[name];
  const answering = at.earlier.findLastIndex((step) => step.method === 'GET' || step.method === 'POST');
  const constant = seen.every(({ values }) => values[name] === first);
  if (constant && (seen.length > 1 || answering < 0)) return { from: 'constant', value: first };
  if (answering < 0) return undefined;
  const earlier = at.earlier[answering]!;
  // A GET of a collection answers a list: a value from it is each item's, a fan-out over v2's answer.
  if (earlier.method === 'GET' && !earlier.path.endsWith('}'))
    return `{${name}} is each item of ${earlier.route}'s answer, a fan-out over a v2 answer the plan cannot say`;
  return { from: 'step', step: answering, field: 'id' };
}

function plannedStep(route: V2Route, at: StepContext, problems: string[]): PlannedStep {
  const seen = recordedValues(route, at.answered);
  const pathParams: Record<string, Source> = {};
  for (const name of placeholders(route.template)) {
    const source = at.fanOut?.placeholder === name ? at.fanOut.source : placeholderSource(name, seen, at);
    if (typeof source === 'string') problems.push(`${route.name}: ${source}`);
    else if (source) pathParams[name] = source;
    else if (at.when.kind !== 'unseen') problems.push(`${route.name}: where {${name}} comes from is neither a parameter nor the record's`);
  }
  const { query, pages } = stepQuery(route, at.endpoint, at.answered, problems, at.run);
  return {
    route: route.name,
    method: route.method,
    path: route.template,
    when: at.when,
    pathParams,
    query,
    body: null,
    ...(pages ? { pages } : {}),
    derived: 'route and undo: declared; condition, path values and query: read off the recorded calls that answered',
  };
}

export function planEndpoint(endpoint: EndpointDefinition, calls: readonly RecordedCall[]): EndpointPlan {
  const answered = calls.filter(isAnswered);
  const problems: string[] = [];
  if (answered.length === 0) problems.push('no recorded call answered without an error: nothing shows when each step runs');
  const params = [...new Set([...answered.flatMap((c) => Object.keys(c.params))])].sort();
  const seenOrder = stepOrder(answered).filter((name) => routesByName.has(name));
  const declared = endpoint.v2Calls.map((r) => r.name);
  const order = [...seenOrder.filter((name) => declared.includes(name)), ...declared.filter((name) => !seenOrder.includes(name))];
  const steps: PlannedStep[] = [];
  for (const name of order) {
    const route = routesByName.get(name)!;
    const fanOut = fanOutOverItems(route, answered, steps);
    const condition = fanOut?.when ?? conditionOf(name, answered, params);
    if (condition.kind === 'sometimes') problems.push(`${name}: ${condition.why}`);
    // A route made several times with different filters: one step per filter.
    const runs = condition.kind === 'always' ? queryRuns(route, answered) : undefined;
    const when: Condition = runs && condition.kind === 'always' ? { kind: 'always', times: condition.times / runs.length } : condition;
    for (const run of runs ?? [undefined])
      steps.push(plannedStep(route, { endpoint, answered, earlier: steps, when, fanOut, run }, problems));
  }
  for (const route of endpoint.v2Undo ?? [])
    steps.push(plannedStep(route, { endpoint, answered, earlier: steps, when: { kind: 'rollback' } }, []));
  planBodies(steps, endpoint, answered, problems);
  const { answer, computed } = reverseMap(endpoint, steps, answered);
  if (answer.length === 0 && answered.length > 0 && computed.length > 0 && !steps.some((s) => s.method !== 'GET'))
    problems.push(`the answer is the translator's: no row maps a v2 answer field to ${computed.join(', ')}`);
  return { steps, answer, answerComputed: computed, errors: plannedErrors(endpoint), cannotExpress: problems };
}
