import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BucketStore } from '../../src/ratelimit/bucket-store.js';
import { InboundLimiter } from '../../src/ratelimit/inbound-limiter.js';
import { MemoryBucketStore } from '../../src/ratelimit/memory-store.js';
import { RedisBucketStore } from '../../src/ratelimit/redis-store.js';
import { startRedis, type RunningRedis } from '../support/redis.js';
import { admissible, flood, readyRedis, type FloodResult } from './helpers.js';

/**
 * Real time, real Redis: a flood admits what the limits say, per class, and several limiter
 * instances (connections, processes) sharing one Redis admit together what one would.
 * Limits ×5 (general 50/s, list 5/s) keep it fast; the spec numbers are unit-tested.
 */

const SCALE = 5;
let server: RunningRedis;
const connections: Redis[] = [];
beforeAll(async () => {
  server = await startRedis();
});
afterAll(async () => {
  await Promise.all(connections.map((c) => c.quit()));
  await server?.close();
});

async function redisStore(): Promise<BucketStore> {
  const redis = await readyRedis(server.url);
  connections.push(redis);
  return new RedisBucketStore(redis);
}

/** `admitted` with the range a bucket allows, so a failure shows both. */
const judged = (admitted: number, burst: number, rate: number, span: FloodResult) => ({ admitted, ...admissible(burst, rate, span) });
function expectWithin(j: { admitted: number; min: number; max: number }) {
  expect(j.admitted, JSON.stringify(j)).toBeGreaterThanOrEqual(j.min);
  expect(j.admitted, JSON.stringify(j)).toBeLessThanOrEqual(j.max);
}

describe.each([
  ['in memory', async () => new MemoryBucketStore()],
  ['in Redis', redisStore],
])('a one-second flood on one key, %s', (_, makeStore) => {
  it("admits each class's limit, within one token of burst", async () => {
    const inbound = new InboundLimiter({ store: await makeStore(), scale: SCALE });
    const key = `flood-${Math.random()}`;
    const [general, list, metrics] = await Promise.all([
      flood(async () => (await inbound.check(key, '/v1/user/get')).allowed, 1_000),
      flood(async () => (await inbound.check(key, '/v1/user/list')).allowed, 1_000),
      flood(async () => (await inbound.check(key, '/v1/metrics/meetings')).allowed, 1_000),
    ]);
    expectWithin(judged(general.admitted, 50, 50, general));
    expectWithin(judged(list.admitted, 5, 5, list));
    // metrics/meetings: 5/s, but also 5/minute (all or nothing): the minute's 5 and no more.
    expect(metrics.admitted).toBe(5);
  });
});

describe('several limiter instances sharing one Redis', () => {
  it('two connections (as two processes would) admit together what one would, not twice', async () => {
    const a = new InboundLimiter({ store: await redisStore(), scale: SCALE });
    const b = new InboundLimiter({ store: await redisStore(), scale: SCALE });
    const key = `shared-${Math.random()}`;
    const [ra, rb] = await Promise.all([
      flood(async () => (await a.check(key, '/v1/user/get')).allowed, 1_000),
      flood(async () => (await b.check(key, '/v1/user/get')).allowed, 1_000),
    ]);
    expect(ra.admitted).toBeGreaterThan(10);
    expect(rb.admitted).toBeGreaterThan(10);
    // One bucket for both: the span is the union of the two floods (they started together).
    const span = { admitted: 0, innerMs: Math.min(ra.innerMs, rb.innerMs), outerMs: Math.max(ra.outerMs, rb.outerMs) };
    expectWithin(judged(ra.admitted + rb.admitted, 50, 50, span));
  });

  it('two real gateway processes admit together what one would', async () => {
    const results = await floodInProcesses(2, `processes-${Math.random()}`);
    const total = results.reduce((n, r) => n + r.admitted, 0);
    // Both flooded the same second: one bucket's worth (≈100), far from two (≈200).
    for (const r of results) expect(r.admitted).toBeGreaterThan(10);
    expectWithin(judged(total, 50, 50, unionSpan(results)));
    expect(total).toBeLessThan(150);
  });
});

/**
 * Leases (lease-store.ts) move tokens earlier, they never create any: P processes flooding one
 * key together admit what one bucket would, give or take P·k (k tokens held per process). With
 * limits ×5 (general: 50/s, burst 50) and 200 ms leases, k = 10.
 */
describe.each([2, 3])('%i real gateway processes with local leases', (processes) => {
  const LEASE_MS = 200;
  const K = 10;
  it(`admit together what one bucket would, within ${processes}·k`, async () => {
    const results = await floodInProcesses(processes, `leased-${processes}-${Math.random()}`, LEASE_MS);
    const total = results.reduce((n, r) => n + r.admitted, 0);
    for (const r of results) expect(r.admitted).toBeGreaterThan(5);
    const { min, max } = admissible(50, 50, unionSpan(results));
    const j = { admitted: total, min: min - processes * K, max: max + processes * K };
    expectWithin(j);
    // Far from one bucket per process (≈100 each).
    expect(total).toBeLessThan(150 + processes * K);
  });
});

/** One bucket for all: the span is the union of the floods; they were told "go" a moment apart, so allow for it on the outer side. */
function unionSpan(results: FloodResult[]): FloodResult {
  return {
    admitted: 0,
    innerMs: Math.min(...results.map((r) => r.innerMs)),
    outerMs: Math.max(...results.map((r) => r.outerMs)) + 100,
  };
}

/** Flood key's general class from `n` worker processes (each its own Redis connection and limiter), started together. */
async function floodInProcesses(n: number, key: string, leaseMs?: number): Promise<FloodResult[]> {
  const worker = fileURLToPath(new URL('./fixtures/flood-worker.ts', import.meta.url));
  const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
  const args = [worker, server.url, key, '1000', String(SCALE), ...(leaseMs ? [String(leaseMs)] : [])];
  const children = Array.from({ length: n }, () => {
    const child = spawn(tsx, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => out.includes('ready\n') && resolve());
      child.once('exit', (code) => reject(new Error(`worker exited (${code}) before ready:\n${err}`)));
    });
    const done = new Promise<FloodResult>((resolve, reject) => {
      child.once('exit', (code) => {
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (code === 0 && line) resolve(JSON.parse(line));
        else reject(new Error(`worker failed (${code}):\n${out}\n${err}`));
      });
    });
    return { child, ready, done };
  });
  await Promise.all(children.map((c) => c.ready));
  for (const c of children) c.child.stdin.write('go\n');
  return Promise.all(children.map((c) => c.done));
}
