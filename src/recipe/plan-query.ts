import { z } from 'zod';
import type { RecordedCall } from '../compare/calls.js';
import type { V2Route } from '../v2-contract/v2-route.js';
import type { EndpointDefinition } from '../translators/kit/define.js';
import { pagingOf } from '../v1/paging.js';
import { listShapeOf } from './plan-lists.js';
import type { Pages, Source, ValueType } from './plan-schema.js';
import { readValue, valueTypeOf } from './plan-values.js';
import { routeOfCall } from './recorded.js';

/**
 * Each step's query string, read off the recorded v2 calls (the record keeps each call's query as
 * sent): every field named by where its value comes from, a v1 parameter (read as its declared type
 * reads it, with v1's default where the parameter is left out), a constant, or the token of the
 * list's next page; and for a list v2 pages by token, how far the recipe reads it. A field no such
 * source explains in every recorded call is what the recipe cannot express, and says so.
 */

/** The token of a list's next page: a query field the walk fills, never a parameter's. */
const PAGE_TOKEN = 'next_page_token';

/** v1's paging defaults (page_size 30, page_number 1): what v1gate sends where a list call leaves them out. */
const PAGING_DEFAULTS: Record<string, string> = Object.fromEntries(Object.entries(pagingOf({})).map(([name, n]) => [name, String(n)]));

interface Sent {
  call: RecordedCall;
  query: Record<string, string>;
}

/** The first page of each time `route` was called for an answered call: a next page's query is the walk's. */
function firstPages(route: V2Route, answered: readonly RecordedCall[]): Sent[] {
  return answered.flatMap((call) =>
    call.v2Calls
      .filter((v2) => !v2.undo && routeOfCall(v2)?.name === route.name && v2.query?.[PAGE_TOKEN] === undefined)
      .map((v2) => ({ call, query: v2.query ?? {} })),
  );
}

/** A query's fields as one text, to compare runs by. */
const runKey = (query: Record<string, string>, names: readonly string[]) => JSON.stringify(names.map((name) => query[name] ?? null));

/**
 * The runs of a route one call makes with different filters (a host's scheduled meetings, then its
 * live ones): the fields whose values differ between the call's runs and are the same set in every
 * call, each run's values in the order first made. Undefined where every run is alike.
 */
export function queryRuns(route: V2Route, answered: readonly RecordedCall[]): Record<string, string>[] | undefined {
  const sent = firstPages(route, answered);
  const byCall = answered.map((call) => sent.filter((s) => s.call === call)).filter((runs) => runs.length > 0);
  if (byCall.length === 0 || byCall[0]!.length < 2) return undefined;
  const names = [...new Set(sent.flatMap((s) => Object.keys(s.query)))].filter((name) =>
    byCall.every((runs) => new Set(runs.map((s) => s.query[name])).size === runs.length),
  );
  if (names.length === 0) return undefined;
  const first = byCall[0]!.map((s) => runKey(s.query, names));
  const same = byCall.every((runs) => runs.length === first.length && runs.every((s) => first.includes(runKey(s.query, names))));
  if (!same) return undefined;
  return byCall[0]!.map((s) => Object.fromEntries(names.map((name) => [name, s.query[name]!])));
}

const declaredParams = (endpoint: EndpointDefinition): Record<string, z.ZodType> => {
  const schema = endpoint.params as unknown;
  return schema instanceof z.ZodObject ? schema.shape : {};
};

/** The text a parameter's value is sent as, read as `as` reads it. */
export function queryText(value: string | string[], as: ValueType | undefined): string {
  const read = readValue(value, as);
  return Array.isArray(read) ? read.join(',') : String(read);
}

/** The parameter whose value, read as one of its types, is the field's in every call (its default where left out). */
function paramSource(name: string, sent: readonly Sent[], endpoint: EndpointDefinition): Source | undefined {
  const declared = declaredParams(endpoint);
  const params = [...new Set([...Object.keys(declared), ...sent.flatMap((s) => Object.keys(s.call.params))])];
  for (const param of params) {
    const given = sent.filter((s) => s.call.params[param] !== undefined);
    const fallback = param in declared ? PAGING_DEFAULTS[param] : undefined;
    // v1's paging left out in every call: v1's default, sent as the parameter would be.
    if (given.length === 0 && fallback !== undefined && sent.every((s) => s.query[name] === fallback))
      return { from: 'param', param, as: 'number', default: fallback };
    if (given.length === 0) continue;
    const recorded = given.map((s) => s.call.params[param]!);
    const types = [...new Set<ValueType>([valueTypeOf(declared[param], recorded), 'string', 'date', 'number', 'boolean'])];
    const as = types.find((type) => given.every((s) => s.query[name] === queryText(s.call.params[param]!, type)));
    if (!as) continue;
    const left = sent.filter((s) => s.call.params[param] === undefined).map((s) => s.query[name]);
    const otherwise = left[0] ?? fallback;
    if (left.some((value) => value !== otherwise)) continue;
    return { from: 'param', param, as, ...(otherwise === undefined ? {} : { default: otherwise }) };
  }
  return undefined;
}

/** Where one query field comes from; a string says why none can say. */
function fieldSource(name: string, sent: readonly Sent[], endpoint: EndpointDefinition): Source | string {
  if (name === PAGE_TOKEN) return { from: 'paging' };
  const param = paramSource(name, sent, endpoint);
  if (param) return param;
  const first = sent[0]!.query[name];
  if (first !== undefined && sent.every((s) => s.query[name] === first)) return { from: 'constant', value: first };
  const shown = sent.map((s) => s.query[name] ?? '(left out)').join(', ');
  return `query ${name} (${shown} in the recorded calls) is neither a parameter, a constant nor the paging`;
}

/** v1's page size and number, where the endpoint pages as v1 did (its declared paging parameters), with v1's defaults. */
function v1Paging(endpoint: EndpointDefinition): Pick<Pages, 'size' | 'number'> {
  const declared = declaredParams(endpoint);
  if (!('page_size' in declared && 'page_number' in declared)) return {};
  const of = (param: string): Source => ({ from: 'param', param, as: 'number', default: PAGING_DEFAULTS[param] });
  return { size: of('page_size'), number: of('page_number') };
}

/** How far a list is read: to v1's page N where v2 pages of v1's page size are asked for, else every page. */
function pagesOf(route: V2Route, endpoint: EndpointDefinition, query: Record<string, Source>): Pages | undefined {
  const shape = listShapeOf(route.name);
  // A list: paged by token, or a collection's whole (a resource's own arrays, a meeting's occurrences, are no list).
  if (!shape || route.method !== 'GET' || !(shape.paged || !route.template.endsWith('}'))) return undefined;
  const size = query.page_size;
  const byV1Page = size?.from === 'param' && size.param === 'page_size';
  // A list v1 filters where v2 cannot is read to its end: v1's page is cut from the items it keeps.
  if (endpoint.listKeep) return { items: shape.items, until: 'end', ...v1Paging(endpoint), keep: endpoint.listKeep };
  return { items: shape.items, until: byV1Page ? 'v1-page' : 'end', ...v1Paging(endpoint) };
}

export interface StepQuery {
  query: Record<string, Source> | null;
  pages?: Pages;
}

/** The query of `route`'s step and how its list is paged; what no source explains goes to `problems`. */
export function stepQuery(
  route: V2Route,
  endpoint: EndpointDefinition,
  answered: readonly RecordedCall[],
  problems: string[],
  run?: Record<string, string>,
): StepQuery {
  const sent = firstPages(route, answered).filter((s) => !run || Object.entries(run).every(([name, value]) => s.query[name] === value));
  if (sent.length === 0) return { query: null };
  const query: Record<string, Source> = {};
  const names = [...new Set(sent.flatMap((s) => Object.keys(s.query)))].sort();
  for (const name of names) {
    const source = fieldSource(name, sent, endpoint);
    if (typeof source === 'string') problems.push(`${route.name}: ${source}`);
    else query[name] = source;
  }
  const pages = pagesOf(route, endpoint, query);
  if (pages && listShapeOf(route.name)?.paged && !query[PAGE_TOKEN]) query[PAGE_TOKEN] = { from: 'paging' };
  return pages ? { query, pages } : { query };
}
