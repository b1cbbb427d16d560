import { SUCCESS_CODE, quantileOfBuckets, type Buckets, type TrafficSnapshot } from './metrics.js';

/**
 * The status page's traffic tables and history points, computed from two `TrafficSnapshot`s (or
 * one, since start): per v1 endpoint its calls, errors by v1 code and p99; per v2 route its calls,
 * 4XX, failures (no answer or 5XX) and p99. Pure functions of the counters, so they can be tested
 * without a gateway.
 */

/** The v1 code of "the v2 service could not be reached or did not answer in time". */
export const UNAVAILABLE_CODE = '503';

export interface EndpointRow {
  endpoint: string;
  calls: number;
  errors: number;
  /** The errors by v1 code, most frequent first. */
  codes: { code: string; calls: number }[];
  p99Seconds: number | undefined;
}

export interface RouteRow {
  route: string;
  method: string;
  calls: number;
  /** v2 answered 4XX: the call was refused (not found, no privilege, bad field ...). */
  clientErrors: number;
  /** No answer (status 0) or a 5XX: v2 failed. */
  failures: number;
  p99Seconds: number | undefined;
}

export interface Totals {
  calls: number;
  errors: number;
  /** Calls answered "unavailable" (v1 code 503). */
  unavailable: number;
  v2Calls: number;
}

const byCallsThenName =
  <T extends { calls: number }>(name: (row: T) => string) =>
  (a: T, b: T) =>
    b.calls - a.calls || name(a).localeCompare(name(b));

export function endpointRows(now: TrafficSnapshot): EndpointRow[] {
  const rows: EndpointRow[] = [];
  for (const [endpoint, results] of now.v1) {
    let calls = 0;
    const codes: EndpointRow['codes'] = [];
    for (const [code, n] of results) {
      calls += n;
      if (code !== SUCCESS_CODE && n > 0) codes.push({ code, calls: n });
    }
    codes.sort(byCallsThenName((c) => c.code));
    const errors = codes.reduce((sum, c) => sum + c.calls, 0);
    rows.push({ endpoint, calls, errors, codes, p99Seconds: quantileOfBuckets(0.99, now.v1Buckets.get(endpoint) ?? []) });
  }
  return rows.sort(byCallsThenName((r) => r.endpoint));
}

export function routeRows(now: TrafficSnapshot): RouteRow[] {
  const rows: RouteRow[] = [];
  for (const [key, { route, method, byStatus }] of now.v2) {
    const row: RouteRow = {
      route,
      method,
      calls: 0,
      clientErrors: 0,
      failures: 0,
      p99Seconds: quantileOfBuckets(0.99, now.v2Buckets.get(key) ?? []),
    };
    for (const [status, n] of byStatus) {
      row.calls += n;
      const code = Number(status);
      if (code >= 400 && code < 500) row.clientErrors += n;
      else if (code === 0 || code >= 500) row.failures += n;
    }
    rows.push(row);
  }
  return rows.sort(byCallsThenName((r) => `${r.route} ${r.method}`));
}

export function totalsOf(snapshot: TrafficSnapshot): Totals {
  const totals: Totals = { calls: 0, errors: 0, unavailable: 0, v2Calls: 0 };
  for (const results of snapshot.v1.values()) {
    for (const [code, n] of results) {
      totals.calls += n;
      if (code !== SUCCESS_CODE) totals.errors += n;
      if (code === UNAVAILABLE_CODE) totals.unavailable += n;
    }
  }
  for (const { byStatus } of snapshot.v2.values()) for (const n of byStatus.values()) totals.v2Calls += n;
  return totals;
}

/** What happened between two snapshots: per v1 endpoint its calls and errors, and the p99 of every v1 call in between. */
export interface TrafficStep {
  totals: Totals;
  endpoints: Map<string, { calls: number; errors: number }>;
  p99Seconds: number | undefined;
}

export function stepBetween(before: TrafficSnapshot, after: TrafficSnapshot): TrafficStep {
  const endpoints = new Map<string, { calls: number; errors: number }>();
  for (const [endpoint, results] of after.v1) {
    const earlier = before.v1.get(endpoint);
    let calls = 0;
    let errors = 0;
    for (const [code, n] of results) {
      const delta = n - (earlier?.get(code) ?? 0);
      calls += delta;
      if (code !== SUCCESS_CODE) errors += delta;
    }
    if (calls > 0) endpoints.set(endpoint, { calls, errors });
  }
  const a = totalsOf(before);
  const b = totalsOf(after);
  return {
    totals: {
      calls: b.calls - a.calls,
      errors: b.errors - a.errors,
      unavailable: b.unavailable - a.unavailable,
      v2Calls: b.v2Calls - a.v2Calls,
    },
    endpoints,
    p99Seconds: quantileOfBuckets(0.99, subtract(sumBuckets(after.v1Buckets), sumBuckets(before.v1Buckets))),
  };
}

/** Every endpoint's buckets added up (they share one set of bounds). */
function sumBuckets(byEndpoint: Map<string, Buckets>): Buckets {
  const sums = new Map<number, number>();
  for (const buckets of byEndpoint.values()) for (const { le, count } of buckets) sums.set(le, (sums.get(le) ?? 0) + count);
  return [...sums].map(([le, count]) => ({ le, count }));
}

function subtract(after: Buckets, before: Buckets): Buckets {
  const earlier = new Map(before.map((b) => [b.le, b.count]));
  return after.map(({ le, count }) => ({ le, count: count - (earlier.get(le) ?? 0) }));
}
