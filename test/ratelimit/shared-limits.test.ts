import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BucketStore } from '../../src/ratelimit/bucket-store.js';
import { InboundLimiter } from '../../src/ratelimit/inbound-limiter.js';
import { bucketStoreHandlers } from '../../src/ratelimit/ipc-store.js';
import { MemoryBucketStore } from '../../src/ratelimit/memory-store.js';
import { RedisBucketStore } from '../../src/ratelimit/redis-store.js';
import { serveRpc } from '../../src/shared/ipc-rpc.js';
import { startRedis, type RunningRedis } from '../support/redis.js';
import { admissible, flood, readyRedis, spansOf, type FloodResult } from './helpers.js';

/**
 * Real time, real Redis: a flood admits what the limits say, per class, and several limiter
 * instances (connections, processes) sharing one Redis, or one cluster primary's buckets over IPC,
 * admit together what one would.
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
    // One bucket for both: the span is the union of the two floods.
    expectWithin(judged(ra.admitted + rb.admitted, 50, 50, spansOf([ra, rb])));
  });
});

/**
 * Real processes, each with its own way to the shared buckets: a Redis connection, or the IPC
 * channel to a primary that holds them in memory (this test process plays the cluster primary).
 * Without leases they admit together exactly what one bucket would (give or take one token, as one
 * process); with leases (lease-store.ts) tokens move earlier but are never created, so together
 * they admit what one bucket would give or take P·k (k tokens held per process). With limits ×5
 * (general: 50/s, burst 50) and 200 ms leases, k = 10.
 *
 * Over IPC a process's takes of one turn of its event loop travel to the primary as one message;
 * test/ratelimit/ipc-batches.test.ts holds each batch to a sequential run's outcomes exactly.
 *
 * Every bound is computed from the floods' own spans on one time line, so a process the machine
 * starts late or stalls widens the bound by exactly the time it took, and each process checks at
 * least 100 times (fixtures/flood-worker.ts), so none can sit the flood out.
 */
const WHERE = { Redis: () => server.url, 'a cluster primary over IPC': () => 'ipc' } as const;

describe.each(Object.keys(WHERE) as (keyof typeof WHERE)[])('real processes sharing buckets through %s', (where) => {
  it('two processes without leases admit together what one would, within a token', async () => {
    const results = await floodInProcesses(2, WHERE[where](), `exact-${Math.random()}`);
    const spans = spansOf(results);
    for (const r of results) expect(r.admitted).toBeGreaterThan(0);
    expectWithin(judged(spans.admitted, 50, 50, spans));
  });

  const LEASE_MS = 200;
  const K = 10;
  it.each([2, 3])(`%i processes with local leases admit together what one bucket would, within P·k`, async (processes) => {
    const results = await floodInProcesses(processes, WHERE[where](), `leased-${processes}-${Math.random()}`, LEASE_MS);
    const spans = spansOf(results);
    for (const r of results) expect(r.admitted).toBeGreaterThan(0);
    const { min, max } = admissible(50, 50, spans);
    expectWithin({ admitted: spans.admitted, min: min - processes * K, max: max + processes * K });
  });
});

/**
 * Flood the general class of `key` from `n` worker processes started together, each reaching the
 * buckets through `where`: a Redis URL, or `ipc` (this process answers their takes and leases from
 * one MemoryBucketStore, as a cluster primary does).
 */
async function floodInProcesses(n: number, where: string, key: string, leaseMs?: number): Promise<FloodResult[]> {
  const worker = fileURLToPath(new URL('./fixtures/flood-worker.ts', import.meta.url));
  const args = ['--import', 'tsx', worker, where, key, '1000', String(SCALE), ...(leaseMs ? [String(leaseMs)] : [])];
  const primary = where === 'ipc' ? new MemoryBucketStore() : undefined;
  const children = Array.from({ length: n }, () => {
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe', 'ipc'] }) as ChildProcessWithoutNullStreams;
    if (primary) serveRpc(child, bucketStoreHandlers(primary));
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
        if (code === 0 && line) resolve(JSON.parse(line) as FloodResult);
        else reject(new Error(`worker failed (${code}):\n${out}\n${err}`));
      });
    });
    return { child, ready, done };
  });
  await Promise.all(children.map((c) => c.ready));
  for (const c of children) c.child.stdin.write('go\n');
  return Promise.all(children.map((c) => c.done));
}
