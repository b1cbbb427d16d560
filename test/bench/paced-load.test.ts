import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runPacedLoad } from '../../bench/paced-load.js';

/**
 * The open-loop generator behind the half-load latency figures: it must send at a steady pace
 * (never a second's requests as one burst), time only what comes after its settling second, and
 * charge a stalled server for every request it kept waiting. A local server records when each
 * request arrived; nothing here asserts a speed of this machine.
 */
describe('paced load', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  /** A server that answers `{}` after `delayMs` and notes each arrival (ms since the first). */
  async function recordingServer(delayMs: (n: number) => number): Promise<{ url: string; arrivals: number[] }> {
    const arrivals: number[] = [];
    let first: number | undefined;
    server = createServer((req, res) => {
      const now = performance.now();
      first ??= now;
      arrivals.push(now - first);
      const n = arrivals.length;
      req.resume();
      req.once('end', () => setTimeout(() => res.end('{}'), delayMs(n)));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals };
  }

  it('sends at a steady pace, and times only what is due after its first second', { timeout: 20_000 }, async () => {
    const { url, arrivals } = await recordingServer(() => 0);
    const result = await runPacedLoad({ url, path: '/v1/x', body: 'a=1', connections: 8, durationSec: 1, overallRate: 200 });
    // The settling second's 200 and the timed second's 200 were all sent and answered; 200 timed.
    expect(arrivals).toHaveLength(400);
    expect(result.total).toBe(400);
    expect(result.rps).toBe(200);
    expect(result.errors + result.timeouts + result.non2xx).toBe(0);
    // Steady, not bursty: 200/s is 10 per 50 ms; a burst per second would put all 200 in one window.
    // (A timer can fire a few ms late and send what fell due meanwhile: some slack, nowhere near 200.)
    const perWindow = new Map<number, number>();
    for (const at of arrivals) perWindow.set(Math.floor(at / 50), (perWindow.get(Math.floor(at / 50)) ?? 0) + 1);
    expect(Math.max(...perWindow.values())).toBeLessThan(40);
    expect(arrivals.at(-1)!).toBeGreaterThan(1800);
  });

  it('counts latency from when a request was due: a stall is charged to every request it kept waiting', { timeout: 20_000 }, async () => {
    // One connection at 100/s; the first timed request (number 101) takes 300 ms, so the ~30 due behind it wait too.
    const { url } = await recordingServer((n) => (n === 101 ? 300 : 0));
    const result = await runPacedLoad({ url, path: '/v1/x', body: 'a=1', connections: 1, durationSec: 2, overallRate: 100 });
    expect(result.total).toBe(300);
    // Measured from when each was sent, only one request would be slow and p99 would not see it.
    // (A lower bound: a timer never fires early, however busy the machine.)
    expect(result.p99).toBeGreaterThan(200);
    // Only those due during the stall are charged for it (about 30 of the 200 timed), not every
    // request: the median is a request the stall did not hold up, far from the stalled ones. A
    // ratio within the run, not a speed: a busy machine slows both halves alike (10 ms between
    // requests leaves it room to catch up after the stall).
    expect(result.p50).toBeLessThan(result.p99 / 2);
  });
});
