import { Hono } from 'hono';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../support/listen.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';

/**
 * `/readyz` is public (a load balancer asks it without credentials) and probes the v2 service: each
 * probe is a request to V2_BASE_URL, which in production is the real service. A client with
 * nothing flooding /readyz must not make v1gate flood v2. A gateway in its own process over a v2
 * that counts every request it gets and holds each 200 ms (a slow v2, so probes not shared would
 * overlap).
 */

const SLOW_V2_MS = 200;
const PROBE_EVERY_MS = 1_000;

const counted = { requests: 0, atOnce: 0, mostAtOnce: 0 };
let upstream: Listening;
let gateway: GatewayProcess;
let pool: Pool;

beforeAll(async () => {
  const v2 = new Hono();
  v2.all('*', async (c) => {
    counted.requests++;
    counted.mostAtOnce = Math.max(counted.mostAtOnce, ++counted.atOnce);
    await new Promise((resolve) => setTimeout(resolve, SLOW_V2_MS));
    counted.atOnce--;
    return c.json({ code: 124, message: 'Invalid access token.' }, 401);
  });
  upstream = await listen(v2.fetch);
  gateway = await startGatewayProcess({
    LOG_LEVEL: 'silent',
    V2_BASE_URL: `${upstream.url}/v2`,
    READY_PROBE_EVERY_MS: String(PROBE_EVERY_MS),
  });
  pool = new Pool(gateway.url, { connections: 32, pipelining: 1 });
}, 60_000);

afterAll(async () => {
  await pool?.close();
  await gateway?.kill();
  await upstream?.close();
});

/** GET /readyz `count` times, 32 at a time; each answer's status. */
async function probe(count: number): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next++ < count) {
        const answer = await pool.request({ method: 'GET', path: '/readyz' });
        await answer.body.text();
        statuses.push(answer.statusCode);
      }
    }),
  );
  return statuses;
}

describe('a flood of /readyz', () => {
  it('probes v2 one request at a time, at most once a READY_PROBE_EVERY_MS, each answer ready', async () => {
    const startedAt = Date.now();
    const statuses = await probe(2_000);
    const seconds = (Date.now() - startedAt) / 1000;
    expect(statuses).toEqual(Array.from({ length: 2_000 }, () => 200));
    expect(counted.requests).toBeGreaterThanOrEqual(1);
    expect(counted.mostAtOnce).toBe(1);
    // One probe, then one more each PROBE_EVERY_MS after the last ended (each takes SLOW_V2_MS).
    expect(counted.requests).toBeLessThanOrEqual(1 + Math.floor((seconds * 1000) / PROBE_EVERY_MS));
    console.log(`${statuses.length} /readyz in ${seconds.toFixed(1)} s: ${counted.requests} v2 requests`);
  }, 120_000);

  it('a probe after the interval asks v2 again: a v2 that went away is seen', async () => {
    await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS + 100));
    const before = counted.requests;
    await upstream.close();
    // Still ready (this pod can answer, v1's unavailable envelope), with the upstream's check failed.
    const answer = await pool.request({ method: 'GET', path: '/readyz' });
    expect(answer.statusCode).toBe(200);
    expect(((await answer.body.json()) as { checks: { upstream: unknown } }).checks.upstream).toEqual({ ok: false, detail: 'unreachable' });
    expect(counted.requests).toBe(before);
  }, 30_000);
});
