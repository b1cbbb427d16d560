import type { RecordedCall } from '../compare/calls.js';
import { ALL_V2_ROUTES } from '../v2-contract/v2-routes.js';
import { templatePattern, type RateLimitCategory, type V2Route } from '../v2-contract/v2-route.js';

/**
 * What a record says one integration did: each v1 endpoint it called, how often, with which
 * parameters, the v2 calls each became in the order they were made, and the errors it met; and the
 * v2 calls of each rate-limit category at their busiest, to set against a plan's limits.
 */

export interface EndpointUsage {
  path: string;
  calls: number;
  /** Each parameter given, and in how many calls. */
  params: { name: string; calls: number }[];
  /** The v2 routes each call made, in order (an undo marked so), and how many calls made each sequence. */
  sequences: { steps: string[]; calls: number }[];
  /** The v1 errors answered, with the v2 statuses the calls behind them met. */
  errors: { code: number; message: string; calls: number; v2Statuses: number[] }[];
  /** The call the worked example is made from: the first answered without an error, else the first. */
  example: RecordedCall;
}

export interface CategoryUsage {
  category: RateLimitCategory;
  v2Calls: number;
  /** The most v2 calls of the category in one window of the plan's (a second; a minute for Resource-intensive). */
  peak: number;
}

export interface IntegrationUsage {
  /** The short hash of its api_key that the record carries; `unknown` for calls recorded without one. */
  integration: string;
  calls: number;
  first: string;
  last: string;
  endpoints: EndpointUsage[];
  categories: CategoryUsage[];
}

const routesByName = new Map(ALL_V2_ROUTES.map((route) => [route.name, route]));
const routeMatchers = ALL_V2_ROUTES.map((route) => ({
  route,
  pattern: templatePattern(route.template),
}));

/** A recorded v2 call's path as route templates read it: no query, no `/v2` base path before it. */
export const templatePathOf = (path: string): string => path.split('?')[0]!.replace(/^\/v2(?=\/|$)/, '');

/** The route of a recorded v2 call: by its name where the record kept it, else by its method and path. */
export function routeOfCall(call: RecordedCall['v2Calls'][number]): V2Route | undefined {
  if (call.route) return routesByName.get(call.route);
  const path = templatePathOf(call.path);
  return routeMatchers.find(({ route, pattern }) => route.method === call.method && pattern.test(path))?.route;
}

const errorOf = (answer: unknown): { code: number; message: string } | undefined => {
  const error = (answer as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return error && typeof error.code === 'number'
    ? { code: error.code, message: typeof error.message === 'string' ? error.message : '' }
    : undefined;
};

const stepName = (call: RecordedCall['v2Calls'][number]) => {
  const name = routeOfCall(call)?.name ?? `${call.method} ${call.path}`;
  return call.undo ? `undo: ${name}` : name;
};

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, { item: T; count: number }> {
  const counts = new Map<string, { item: T; count: number }>();
  for (const item of items) {
    const at = key(item);
    const entry = counts.get(at);
    if (entry) entry.count++;
    else counts.set(at, { item, count: 1 });
  }
  return counts;
}

function endpointUsage(path: string, calls: readonly RecordedCall[]): EndpointUsage {
  const params = countBy(
    calls.flatMap((call) => Object.keys(call.params)),
    (name) => name,
  );
  const sequences = countBy(calls, (call) => call.v2Calls.map(stepName).join('\n'));
  const failed = calls.flatMap((call) => {
    const error = errorOf(call.answer);
    return error ? [{ ...error, statuses: call.v2Calls.map((c) => c.status).filter((s) => s >= 400 || s === 0) }] : [];
  });
  const errors = [...countBy(failed, (e) => `${e.code} ${e.message}`).values()].map(({ item, count }) => ({
    code: item.code,
    message: item.message,
    calls: count,
    v2Statuses: [...new Set(failed.filter((e) => e.code === item.code && e.message === item.message).flatMap((e) => e.statuses))].sort(),
  }));
  return {
    path,
    calls: calls.length,
    params: [...params.values()]
      .map(({ item, count }) => ({ name: item, calls: count }))
      .sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name)),
    sequences: [...sequences.values()]
      .map(({ item, count }) => ({ steps: item.v2Calls.map(stepName), calls: count }))
      .sort((a, b) => b.calls - a.calls),
    errors: errors.sort((a, b) => b.calls - a.calls),
    example: calls.find((call) => !errorOf(call.answer)) ?? calls[0]!,
  };
}

/** The busiest window of each category: v2 calls counted at their v1 call's time, per second (per minute for Resource-intensive). */
function categoryUsage(calls: readonly RecordedCall[]): CategoryUsage[] {
  const windows = new Map<RateLimitCategory, Map<number, number>>();
  const totals = new Map<RateLimitCategory, number>();
  for (const call of calls) {
    const at = Date.parse(call.time);
    for (const v2 of call.v2Calls) {
      const category = routeOfCall(v2)?.category;
      if (!category) continue;
      totals.set(category, (totals.get(category) ?? 0) + 1);
      if (Number.isNaN(at)) continue;
      const window = Math.floor(at / (category === 'resource-intensive' ? 60_000 : 1000));
      const counts = windows.get(category) ?? new Map<number, number>();
      counts.set(window, (counts.get(window) ?? 0) + 1);
      windows.set(category, counts);
    }
  }
  return [...totals]
    .map(([category, v2Calls]) => ({ category, v2Calls, peak: Math.max(0, ...(windows.get(category)?.values() ?? [])) }))
    .sort((a, b) => b.v2Calls - a.v2Calls);
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/** The record's calls by integration, busiest first; each integration's endpoints by volume. */
export function usageByIntegration(calls: readonly RecordedCall[]): IntegrationUsage[] {
  return [...groupBy(calls, (call) => call.integration ?? 'unknown')]
    .map(([integration, own]) => {
      const byPath = groupBy(own, (call) => call.path);
      const times = own
        .map((call) => call.time)
        .filter(Boolean)
        .sort();
      return {
        integration,
        calls: own.length,
        first: times[0] ?? '',
        last: times.at(-1) ?? '',
        endpoints: [...byPath]
          .map(([path, list]) => endpointUsage(path, list))
          .sort((a, b) => b.calls - a.calls || a.path.localeCompare(b.path)),
        categories: categoryUsage(own),
      };
    })
    .sort((a, b) => b.calls - a.calls);
}
