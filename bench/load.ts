import autocannon from 'autocannon';

/**
 * One load run with autocannon, in the runner's process. Latency percentiles are computed here
 * from every response's own time (autocannon's `response` event, sub-millisecond), because
 * autocannon's histogram records whole milliseconds, too coarse for "under 2 ms added".
 * Every answer's body is checked for a v1 error envelope (v1 answers errors with HTTP 200, so
 * autocannon alone would count them as successes) and its x-v2-calls header is summed.
 */

export interface LoadOptions {
  url: string;
  path: string;
  /** urlencoded form body */
  body: string;
  connections: number;
  durationSec: number;
  /** Requests per second across all connections (autocannon overallRate); unset: as fast as possible. */
  overallRate?: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  mean: number;
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

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  let v2Calls = 0;
  let withHeader = 0;
  let envelopeErrors = 0;
  let firstEnvelopeError: string | undefined;
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    pipelining: 1,
    duration: options.durationSec,
    timeout: 10,
    ...(options.overallRate ? { overallRate: Math.max(1, Math.round(options.overallRate)) } : {}),
    requests: [
      {
        method: 'POST',
        path: options.path,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: options.body,
        onResponse: (_status: number, body: string, _context: unknown, headers: Record<string, string>) => {
          const calls = headers['x-v2-calls'];
          if (calls !== undefined) {
            withHeader++;
            v2Calls += Number(calls);
          }
          if (body.startsWith('{"error"') || body.includes('<response><error>')) {
            envelopeErrors++;
            firstEnvelopeError ??= body.slice(0, 300);
          }
        },
      },
    ],
  });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    latencies.push(responseTime);
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies.length === 0 ? NaN : latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
  return {
    rps: result.requests.total / options.durationSec,
    p50: pct(50),
    p99: pct(99),
    mean: latencies.length === 0 ? NaN : latencies.reduce((a, b) => a + b, 0) / latencies.length,
    total: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    envelopeErrors,
    ...(firstEnvelopeError === undefined ? {} : { firstEnvelopeError }),
    v2CallsPerCall: withHeader === 0 ? undefined : v2Calls / withHeader,
  };
}
