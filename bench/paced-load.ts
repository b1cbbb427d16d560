import { Pool } from 'undici';
import type { LoadOptions, LoadResult } from './load.js';
import { answerCheck, percentile } from './load.js';

/** How long a run sends before its requests are timed (see runPacedLoad). */
const SETTLE_SEC = 1;

/**
 * A steady, open-loop load: request i is due at start + i / rate, sent then whether or not the
 * earlier ones have been answered, and its latency counts from the moment it was due (so a server
 * that stalls is charged for the requests it kept waiting: no coordinated omission).
 *
 * The first second's requests are sent and checked but not timed. The first paced run in a
 * process is cold (the runner uses undici nowhere before it: autocannon has its own client), and
 * so is a run's pool: against the fixed upstream alone at 2,600 requests/s, a fresh process's first
 * 5 s run had a p99 of 143 ms, 4.3 ms without its first second; the next two runs in the same
 * process 12.7 and 12.6 ms, 8.0 and 12.9 ms without it. Timed, that second is the likeliest
 * reason why, in the tables before 22:40 on 2026-11-23, the first case's floor read a p99 at half
 * load of 48–146 ms where the other cases' floors read 9–31 ms.
 *
 * Why not autocannon's `overallRate`: it paces each connection per second, so a "200 req/s" load
 * arrives as a burst of 200 at each second boundary and p99 measures how long the burst queues,
 * not what one request costs. Latency at a given rate is measured with this generator.
 */
export async function runPacedLoad(options: LoadOptions & { overallRate: number }): Promise<LoadResult> {
  const pool = new Pool(options.url, { connections: options.connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const intervalMs = 1000 / options.overallRate;
  const settling = Math.floor(SETTLE_SEC * options.overallRate);
  const due = settling + Math.floor(options.durationSec * options.overallRate);
  const latencies: number[] = [];
  const check = answerCheck();
  let errors = 0;
  let timeouts = 0;
  let non2xx = 0;
  /** Every answer, timed or not: the CPU per call divides by all of them. */
  let answered = 0;
  const inFlight = new Set<Promise<void>>();

  const send = (dueAt: number, timed: boolean): void => {
    const request = (async () => {
      try {
        const answer = await pool.request({
          method: 'POST',
          path: options.path,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: typeof options.body === 'string' ? options.body : options.body(),
          headersTimeout: 10_000,
          bodyTimeout: 10_000,
        });
        const body = await answer.body.text();
        answered++;
        if (timed) latencies.push(performance.now() - dueAt);
        if (answer.statusCode < 200 || answer.statusCode > 299) non2xx++;
        check(body, answer.headers['x-v2-calls']);
      } catch (error) {
        if ((error as { code?: string }).code?.includes('TIMEOUT')) timeouts++;
        else errors++;
      }
    })();
    inFlight.add(request);
    void request.finally(() => inFlight.delete(request));
  };

  const start = performance.now();
  let sent = 0;
  while (sent < due) {
    const now = performance.now();
    // Everything due by now goes out in this turn (a timer fires at best every ~1 ms).
    while (sent < due && start + sent * intervalMs <= now) {
      send(start + sent * intervalMs, sent >= settling);
      sent++;
    }
    const wait = start + sent * intervalMs - performance.now();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
  }
  await Promise.all(inFlight);
  await pool.close();

  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / options.durationSec,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    mean: latencies.length === 0 ? NaN : latencies.reduce((a, b) => a + b, 0) / latencies.length,
    total: answered,
    errors,
    timeouts,
    non2xx,
    ...check.result(),
  };
}
