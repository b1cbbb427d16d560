import { recordedAnswer, type Answer } from '../compare/answers.js';
import type { RecordedCall } from '../compare/calls.js';
import { IdCarrier } from '../compare/replay.js';
import { EndpointPlan } from './plan-schema.js';
import { runPlan, type PlanRun, type V2Caller } from './run-plan.js';
import { plannedErrorOf } from './plan-errors.js';
import { firstDifference, readBackPath } from './verify-compare.js';

/**
 * `--verify`: each recorded call done twice over two sandboxes that hold the same data: by v1gate
 * on side A, and on side B from the recipe alone (its plan and the recorded parameters). After each
 * call the v1 answer the reverse map built is held to v1gate's, and what the call's writes left in
 * v2 is read back on both sides and compared. A call whose endpoint the recipe cannot express is
 * made on side B by v1gate too, so the two sides keep holding the same data for the calls after it.
 */

/** One side: a v1gate over its own sandbox, and that sandbox's v2. */
export interface VerifySide {
  v1(path: string, params: RecordedCall['params'], dataType: RecordedCall['dataType']): Promise<unknown>;
  v2: V2Caller;
}

export type Verdict = 'pass' | 'fail' | 'cannot-express';

export interface EndpointVerdict {
  integration: string;
  path: string;
  verdict: Verdict;
  calls: number;
  /** Why it failed (each call's first difference), or what it cannot express. */
  reasons: string[];
  /** The v1 answer fields the recipe leaves to the translator (not compared). */
  notBuilt: string[];
}

/** The recipe.json a verification reads: only the plans, each read through the plan's schema. */
export interface RecipeDocument {
  integrations: { integration: string; endpoints: { path: string; plan?: unknown }[] }[];
}

const planOf = (recipe: RecipeDocument, integration: string, path: string): EndpointPlan | undefined => {
  const endpoint = recipe.integrations.find((i) => i.integration === integration)?.endpoints.find((e) => e.path === path);
  return endpoint?.plan === undefined ? undefined : EndpointPlan.parse(endpoint.plan);
};

const isError = (answer: unknown) => typeof answer === 'object' && answer !== null && 'error' in answer;
const json = (value: unknown): Answer => ({ format: 'JSON', value });

class Tally {
  readonly byEndpoint = new Map<string, EndpointVerdict>();

  of(integration: string, path: string, plan: EndpointPlan | undefined): EndpointVerdict {
    const key = `${integration} ${path}`;
    let verdict = this.byEndpoint.get(key);
    if (!verdict) {
      const reasons = plan ? plan.cannotExpress : ['the recipe has no plan for it (v1gate does not serve it)'];
      verdict = {
        integration,
        path,
        verdict: reasons.length ? 'cannot-express' : 'pass',
        calls: 0,
        reasons: [...reasons],
        notBuilt: plan?.answerComputed ?? [],
      };
      this.byEndpoint.set(key, verdict);
    }
    verdict.calls++;
    return verdict;
  }
}

function fail(verdict: EndpointVerdict, why: string): void {
  if (verdict.verdict !== 'fail') verdict.reasons = [];
  verdict.verdict = 'fail';
  if (verdict.reasons.length < 3) verdict.reasons.push(why);
}

const isScalar = (value: unknown): value is string | number => typeof value === 'string' || typeof value === 'number';

function cannotExpress(verdict: EndpointVerdict, why: string): void {
  if (verdict.verdict === 'fail') return;
  verdict.verdict = 'cannot-express';
  if (!verdict.reasons.includes(why)) verdict.reasons.push(why);
}

/** B's values mapped to A's: ids each side minted for the same recorded one. */
class SideIds {
  private readonly bToA = new Map<string, string>();

  learn(a: unknown, b: unknown): void {
    if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return;
    for (const [key, value] of Object.entries(b as Record<string, unknown>)) {
      const other = (a as Record<string, unknown>)[key];
      if (!/^(id|uuid|.+_id)$/.test(key) || !isScalar(value) || !isScalar(other)) continue;
      if (String(value) !== String(other)) this.bToA.set(String(value), String(other));
    }
  }

  pathOnA(path: string): string {
    return path
      .split('/')
      .map((segment) => {
        const value = decodeURIComponent(segment);
        const mapped = this.bToA.get(value);
        return mapped === undefined ? segment : encodeURIComponent(mapped);
      })
      .join('/');
  }
}

interface Run {
  recipe: RecipeDocument;
  a: VerifySide;
  b: VerifySide;
  carryA: IdCarrier;
  carryB: IdCarrier;
  ids: SideIds;
  tally: Tally;
}

async function verifyCall(call: RecordedCall, run: Run): Promise<void> {
  const integration = call.integration ?? 'unknown';
  const plan = planOf(run.recipe, integration, call.path);
  const verdict = run.tally.of(integration, call.path, plan);
  const recorded = recordedAnswer(call);
  const answerA = await run.a.v1(call.path, run.carryA.substitute(call.params), call.dataType);
  run.carryA.learn(recorded, json(answerA));
  const paramsB = run.carryB.substitute(call.params);
  if (!plan || plan.cannotExpress.length) {
    const answerB = await run.b.v1(call.path, paramsB, call.dataType);
    run.carryB.learn(recorded, json(answerB));
    run.ids.learn(answerA, answerB);
    return;
  }
  const done = await runPlan(plan, paramsB, run.b.v2);
  const refusedStep = done.refused && plan.steps.find((s) => s.route === done.refused!.route);
  if (refusedStep?.method === 'GET' && refusedStep.query === null && done.refused!.status >= 400 && !isError(answerA)) {
    // The one thing the plan says it does not know: v2 query strings (the record keeps none).
    cannotExpress(
      verdict,
      `${refusedStep.route} was refused (${done.refused!.status}) without a query string: v1gate sends one the record does not keep`,
    );
    return;
  }
  if (isError(answerA) !== Boolean(done.refused)) {
    const why = done.refused
      ? `${done.refused.route} was refused (${done.refused.status} ${JSON.stringify(done.refused.body).slice(0, 160)}) where v1gate answered`
      : `v1gate answered error ${JSON.stringify((answerA as { error: unknown }).error)} where the recipe's steps all succeeded`;
    fail(verdict, why);
    return;
  }
  if (done.refused) return expectPlannedError(verdict, plan, done.refused, answerA);
  run.carryB.learn(recorded, json(done.answer));
  run.ids.learn(answerA, done.answer);
  compareAnswers(verdict, recorded.value, answerA, done.answer);
  await compareState(verdict, done.made, run);
}

/** v1gate's value cut to what the recipe built: a list's items to the fields the reverse map builds of each. */
function asBuilt(theirs: unknown, built: unknown): unknown {
  if (!Array.isArray(theirs) || !Array.isArray(built)) return theirs;
  return theirs.map((item: unknown, i) => {
    const keys = built[i] && typeof built[i] === 'object' ? Object.keys(built[i] as object) : undefined;
    if (!keys || !item || typeof item !== 'object') return item;
    return Object.fromEntries(keys.filter((key) => key in item).map((key) => [key, (item as Record<string, unknown>)[key]]));
  });
}

/** Both sides refused: the v1 error the plan names for v2's refusal must be the one v1gate answered. */
function expectPlannedError(
  verdict: EndpointVerdict,
  plan: EndpointPlan,
  refused: NonNullable<PlanRun['refused']>,
  answerA: unknown,
): void {
  // No v2 answer to read: the plan's own refusal (a path value the call did not give), as v1gate refused it.
  if (refused.status === 0) return;
  const v2Code = (refused.body as { code?: unknown } | null)?.code;
  const named = plannedErrorOf(plan.errors, refused.route, refused.status, typeof v2Code === 'number' ? v2Code : undefined);
  const answered = (answerA as { error: { code?: unknown } }).error.code;
  if (!named) fail(verdict, `${refused.route} answered ${refused.status} ${String(v2Code)}, which the plan's errors do not name`);
  else if (named.code !== answered)
    fail(
      verdict,
      `${refused.route} answered ${refused.status} ${String(v2Code)}: the plan names v1 error ${named.code}, v1gate answered ${String(answered)}`,
    );
}

function compareAnswers(verdict: EndpointVerdict, recorded: unknown, byV1gate: unknown, built: Record<string, unknown>): void {
  for (const [field, value] of Object.entries(built)) {
    const theirs = asBuilt((byV1gate as Record<string, unknown>)[field], value);
    // A field two runs of v1gate itself answered differently (the record's and side A's) is minted per run; a list's items are compared field by field.
    const minted = !Array.isArray(value) && firstDifference((recorded as Record<string, unknown> | null)?.[field], theirs) !== undefined;
    if (minted ? typeof value !== typeof theirs : firstDifference(theirs, value) !== undefined)
      fail(verdict, `answer field ${field}: v1gate answered ${JSON.stringify(theirs)}, the recipe built ${JSON.stringify(value)}`);
  }
}

async function compareState(verdict: EndpointVerdict, made: Awaited<ReturnType<typeof runPlan>>['made'], run: Run): Promise<void> {
  for (const write of made.filter((m) => m.method !== 'GET')) {
    const path = readBackPath(write.method, write.path, write.body);
    if (!path) continue;
    const [onA, onB] = await Promise.all([run.a.v2('GET', run.ids.pathOnA(path)), run.b.v2('GET', path)]);
    if (onA.status !== onB.status)
      fail(verdict, `v2 state: GET ${path} answers ${onA.status} after v1gate, ${onB.status} after the recipe`);
    else {
      // Gone or refused on both sides: the same status is the same state (the message names each side's own id).
      const where = onA.status >= 400 ? undefined : firstDifference(onA.body, onB.body);
      if (where) fail(verdict, `v2 state: ${path} differs at ${where} after ${write.method} ${write.path}`);
    }
  }
}

/** Every recorded call in order, on both sides; one verdict per endpoint of each integration. */
export async function verifyRecipe(
  recipe: RecipeDocument,
  calls: readonly RecordedCall[],
  a: VerifySide,
  b: VerifySide,
): Promise<EndpointVerdict[]> {
  const run: Run = { recipe, a, b, carryA: new IdCarrier(), carryB: new IdCarrier(), ids: new SideIds(), tally: new Tally() };
  for (const call of calls) await verifyCall(call, run);
  return [...run.tally.byEndpoint.values()];
}

/** The verdicts as lines: one per endpoint, its reasons after it. */
export function verdictLines(verdicts: readonly EndpointVerdict[]): string[] {
  return verdicts.flatMap((v) => {
    const head = `${v.verdict.padEnd(14)} /v1${v.path} (${v.integration}, ${v.calls} call${v.calls === 1 ? '' : 's'})`;
    const notBuilt =
      v.verdict === 'pass' && v.notBuilt.length ? [`    answer fields left to the translator: ${v.notBuilt.join(', ')}`] : [];
    return [head, ...v.reasons.map((why) => `    ${why}`), ...notBuilt];
  });
}
