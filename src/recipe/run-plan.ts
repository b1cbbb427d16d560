import type { RecordedCall } from '../compare/calls.js';
import { keeps, type ListKeep } from '../translators/kit/list-keep.js';
import { getPath, setPath } from '../v1/field-map.js';
import { itemsOf } from './plan-conditions.js';
import type { BodyField, EndpointPlan, ItemField, Pages, PlannedStep, Source } from './plan-schema.js';
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
function runsOf(step: PlannedStep, params: Params, pages: readonly (V1Page | undefined)[]): unknown[] {
  const when = step.when;
  switch (when.kind) {
    case 'per-list-item':
      return pages[when.step]?.items ?? [];
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

interface Inputs {
  params: Params;
  answers: readonly unknown[];
  /** The current item of a fan-out: a list parameter's (text), or an earlier list's (a v2 item). */
  item?: unknown;
  /** The token of the list's next page, in a walk past its first. */
  token?: string | undefined;
}

function valueOf(source: Source, at: Inputs): unknown {
  switch (source.from) {
    case 'param': {
      const value = at.params[source.param] ?? source.default;
      return value === undefined ? undefined : readValue(value, source.as);
    }
    case 'item':
      return at.item;
    case 'step':
      return getPath(at.answers[source.step], source.field);
    case 'paging':
      return at.token;
    case 'list-item':
      return getPath(at.item, source.field);
    default:
      return source.value;
  }
}

function pathOf(step: PlannedStep, at: Inputs): string | undefined {
  let missing = false;
  const path = step.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const source = step.pathParams[name];
    const value = source && valueOf(source, at);
    if (value === undefined || value === null) missing = true;
    return encodeURIComponent(String(value));
  });
  if (missing) return undefined;
  const query = new URLSearchParams();
  for (const [name, source] of Object.entries(step.query ?? {})) {
    const value = valueOf(source, at);
    if (value === undefined || value === null) continue;
    // A list as v2 takes one in a query (comma-separated); a number or boolean as its JSON text.
    query.append(name, Array.isArray(value) ? value.join(',') : typeof value === 'string' ? value : JSON.stringify(value));
  }
  return query.size ? `${path}?${query.toString()}` : path;
}

/**
 * The body of a write: its constants, the fields whose parameter is given (a body that sends v1
 * defaults, a create's, sends those of the rest) through their codecs, and each composite whose
 * parameters are given or defaulted, by its table of combinations.
 */
function bodyOf(step: PlannedStep, params: Params): Record<string, unknown> {
  const withDefaults = step.v1Defaults ?? step.method === 'POST';
  const valueOf = (name: string, as: BodyField['as'], fallback: unknown) =>
    given(params, name) ? readValue(params[name]!, as) : withDefaults ? fallback : undefined;
  const body: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(step.constants ?? {})) setPath(body, path, value);
  for (const field of step.body ?? []) {
    const value = valueOf(field.v1, field.as, field.default);
    if (value === undefined) continue;
    const sent = applyCodec(field.codec, value, 'toV2');
    if (sent !== undefined) setPath(body, field.v2, sent);
  }
  for (const composite of step.composites ?? []) {
    const values = Object.fromEntries(composite.fields.map((f) => [f.v1, valueOf(f.v1, f.as, f.default)]));
    if (Object.values(values).every((v) => v === undefined)) continue;
    const found = composite.combinations.find((c) => Object.entries(c.v1).every(([name, value]) => values[name] === value));
    if (found) setPath(body, composite.v2, found.v2);
  }
  return body;
}

/** v1's page of a paged step: its size and number, the list's total, and the items on it. */
interface V1Page {
  page_size?: number;
  page_number?: number;
  total_records: number;
  items: unknown[];
}

function buildAnswer(
  plan: EndpointPlan,
  params: Params,
  answers: readonly unknown[],
  pages: readonly (V1Page | undefined)[],
): Record<string, unknown> {
  const answer: Record<string, unknown> = {};
  for (const field of plan.answer) {
    const source = field.source;
    if (source.from === 'param') {
      const value = params[source.param] ?? source.default;
      if (value !== undefined) answer[field.v1] = readValue(value, source.as);
    } else if (source.from === 'paging') {
      const page = pages[source.step];
      const value = page && pagingField(page, source.field);
      if (value !== undefined) answer[field.v1] = value;
    } else if (source.from === 'items') {
      const page = pages[source.step];
      if (page) answer[field.v1] = page.items.map((item) => itemOf(item, source.fields));
    } else {
      // The last step whose answer has it: a host check's user comes before the session it checks.
      const found = answers.map((a) => getPath(a, source.v2)).findLast((v) => v !== undefined);
      if (found !== undefined) answer[field.v1] = applyCodec(source.codec, found, 'toV1');
    }
  }
  return answer;
}

function pagingField(page: V1Page, field: 'page_count' | 'page_number' | 'page_size' | 'total_records'): number | undefined {
  if (field === 'page_count') return page.page_size ? Math.ceil(page.total_records / page.page_size) : undefined;
  return page[field];
}

function itemOf(item: unknown, fields: readonly ItemField[]): Record<string, unknown> {
  const built: Record<string, unknown> = {};
  for (const field of fields) {
    const value = getPath(item, field.v2);
    if (value !== undefined) built[field.v1] = applyCodec(field.codec, value, 'toV1');
  }
  return built;
}

/** v1's page of a list it filters: the items the rule keeps, counted, and v1's page cut from them. */
function keptPage(page: V1Page, keep: ListKeep, nowMs: number): V1Page {
  const kept = page.items.filter((item) => keeps(keep, item, nowMs));
  const { page_size: size, page_number: number = 1 } = page;
  return { ...page, total_records: kept.length, items: size ? kept.slice((number - 1) * size, number * size) : kept };
}

type Send = (path: string) => Promise<V2Reply & { path: string }>;

/**
 * A paged step's walk by its token chain: to v1's page number (v2 pages of v1's size), or to the
 * list's end, v1's page then cut from every item. Answers the last page read and v1's page.
 */
async function walk(step: PlannedStep, pages: Pages, at: Inputs, send: Send): Promise<{ reply: V2Reply; page: V1Page } | V2Reply> {
  const size = pages.size && Number(valueOf(pages.size, at));
  const number = pages.number ? Number(valueOf(pages.number, at)) : 1;
  const items: unknown[] = [];
  let token: string | undefined;
  let read = 0;
  for (;;) {
    const path = pathOf(step, { ...at, token })!;
    const reply = await send(path);
    if (reply.status >= 400) return reply;
    read++;
    const body = reply.body as Record<string, unknown>;
    const onPage = (getPath(body, pages.items) as unknown[] | undefined) ?? [];
    token = typeof body.next_page_token === 'string' && body.next_page_token !== '' ? body.next_page_token : undefined;
    if (pages.until === 'v1-page') {
      if (read === number || !token) {
        const total = typeof body.total_records === 'number' ? body.total_records : items.length + onPage.length;
        return { reply, page: { page_size: size, page_number: number, total_records: total, items: read === number ? onPage : [] } };
      }
    } else {
      items.push(...onPage);
      if (!token) {
        const total = typeof body.total_records === 'number' ? body.total_records : items.length;
        // A list v1 filters keeps every item until each is read in full and kept (keptPage).
        const cut = size && !pages.keep ? items.slice((number - 1) * size, number * size) : items;
        return { reply, page: { page_size: size, page_number: pages.number ? number : undefined, total_records: total, items: cut } };
      }
    }
  }
}

export async function runPlan(plan: EndpointPlan, params: Params, v2: V2Caller): Promise<PlanRun> {
  const made: PlanRun['made'] = [];
  const answers: unknown[] = [];
  const pages: (V1Page | undefined)[] = [];
  const reads: unknown[][] = [];
  for (const step of plan.steps) {
    const body = step.body || step.constants || step.composites ? bodyOf(step, params) : undefined;
    const send: Send = async (path) => {
      const reply = await v2(step.method, path, body);
      made.push({ method: step.method, path, status: reply.status, body: reply.body });
      return { ...reply, path };
    };
    for (const item of runsOf(step, params, pages)) {
      const at: Inputs = { params, answers, item };
      if (pathOf(step, at) === undefined)
        return { made, refused: { route: step.route, status: 0, body: 'a path value the plan names is missing' }, answer: {} };
      const done = step.pages ? await walk(step, step.pages, at, send) : await send(pathOf(step, at)!);
      const reply = 'page' in done ? done.reply : done;
      if (reply.status >= 400) return { made, refused: { route: step.route, status: reply.status, body: reply.body }, answer: {} };
      if ('page' in done) pages[plan.steps.indexOf(step)] ??= done.page;
      answers[plan.steps.indexOf(step)] ??= reply.body;
      if (step.when.kind === 'per-list-item') (reads[plan.steps.indexOf(step)] ??= []).push(reply.body);
    }
  }
  // Each item of a list read in full: the item as the list gave it, with what its own read answered.
  plan.steps.forEach((step, i) => {
    const page = step.when.kind === 'per-list-item' ? pages[step.when.step] : undefined;
    if (page) page.items = page.items.map((item, n) => ({ ...(item as object), ...(reads[i]?.[n] as object) }));
  });
  plan.steps.forEach((step, i) => {
    const page = pages[i];
    if (step.pages?.keep && page) pages[i] = keptPage(page, step.pages.keep, Date.now());
  });
  return { made, answer: buildAnswer(plan, params, answers, pages) };
}
