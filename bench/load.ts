import autocannon from 'autocannon';
import { runPacedLoad } from './paced-load.js';

/**
 * One load run, in the runner's process: as fast as possible with autocannon (closed loop,
 * `connections` requests in flight), or at a steady `overallRate` with the open-loop generator of
 * bench/paced-load.ts. Latency percentiles are computed here from every response's own time
 * (sub-millisecond), because autocannon's histogram records whole milliseconds, too coarse for
 * "under 2 ms added". Every answer's body is checked for a v1 error envelope (v1 answers errors
 * with HTTP 200, so autocannon alone would count them as successes) and its x-v2-calls header is summed.
 */

export interface LoadOptions {
  url: string;
  path: string;
  /** urlencoded form body, or a function making each request's own */
  body: string | (() => string);
  connections: number;
  durationSec: number;
  /** Requests per second, sent at a steady pace (open loop); unset: as fast as possible. */
  overallRate?: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  /** Every answer received, a paced run's untimed first second included: what CPU per call divides by. */
  total: number;
  /** Transport-level problems: connection errors, timeouts, non-2xx, resets. Should all be 0. */
  errors: number;
  timeouts: number;
  non2xx: number;
  /** Answers that were v1 error envelopes (HTTP 200 with an `error` object). */
  envelopeErrors: number;
  firstEnvelopeError?: string;
  /** Mean x-v2-calls per answer (undefined when no answer carried the header). */
  v2CallsPerCall: number | undefined;
}

/** The p-th percentile of sorted latencies. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Checks each answer (v1 error envelopes, x-v2-calls) and sums what it saw. */
export function answerCheck() {
  let v2Calls = 0;
  let withHeader = 0;
  let envelopeErrors = 0;
  let firstEnvelopeError: string | undefined;
  const check = (body: string, calls: string | string[] | undefined): void => {
    if (typeof calls === 'string') {
      withHeader++;
      v2Calls += Number(calls);
    }
    if (body.startsWith('{"error"') || body.includes('<response><error>')) {
      envelopeErrors++;
      firstEnvelopeError ??= body.slice(0, 300);
    }
  };
  const result = () => ({
    envelopeErrors,
    ...(firstEnvelopeError === undefined ? {} : { firstEnvelopeError }),
    v2CallsPerCall: withHeader === 0 ? undefined : v2Calls / withHeader,
  });
  return Object.assign(check, { result });
}

/** autocannon's per-request hook, giving each request the next body. */
function withBody(next: () => string) {
  return (request: Record<string, unknown>) => ({ ...request, body: next() });
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  if (options.overallRate) return runPacedLoad({ ...options, overallRate: options.overallRate });
  const latencies: number[] = [];
  const check = answerCheck();
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    pipelining: 1,
    duration: options.durationSec,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        path: options.path,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        ...(typeof options.body === 'string' ? { body: options.body } : { setupRequest: withBody(options.body) }),
        onResponse: (_status: number, body: string, _context: unknown, headers: Record<string, string>) =>
          check(body, headers['x-v2-calls']),
      },
    ],
  });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    latencies.push(responseTime);
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return {
    rps: result.requests.total / options.durationSec,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    mean: latencies.length === 0 ? NaN : latencies.reduce((a, b) => a + b, 0) / latencies.length,
    total: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    ...check.result(),
  };
}
