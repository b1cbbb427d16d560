import { describe, expect, it } from 'vitest';
import { leaseSourceContract } from '../../test/ratelimit/bucket-store-contract.js';
import { channelPair, ipcWorkerOf } from '../../test/ratelimit/ipc-channel.js';
import { IpcRpcClient } from '../shared/ipc-rpc.js';
import type { BucketRef, BucketStore } from './bucket-store.js';
import { rateLimitConfig } from './config.js';
import { InboundLimiter } from './inbound-limiter.js';
import { createRateLimiters } from './index.js';
import { DEFAULT_MAX_BATCH, IpcBucketStore } from './ipc-store.js';
import type { LeaseSource } from './lease-store.js';
import { MemoryBucketStore } from './memory-store.js';

leaseSourceContract(
  'IpcBucketStore over a primary MemoryBucketStore',
  (clock) => ipcWorkerOf(new MemoryBucketStore({ now: () => clock.now })).store,
);

const refs: BucketRef[] = [{ key: 'in:{k:general}:second', spec: { ratePerSecond: 0.001, burst: 5 } }];

describe('IpcBucketStore', () => {
  it("two workers taking at once from the primary's store admit the burst exactly, not twice", async () => {
    const primaryStore = new MemoryBucketStore();
    const workers = [0, 1].map(() => ipcWorkerOf(primaryStore).store);
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => workers[i % 2]!.take(refs)));
    expect(outcomes.filter((o) => o.allowed)).toHaveLength(5);
    expect(outcomes.find((o) => !o.allowed)!.retryAfterMs).toBeGreaterThan(0);
  });

  it("a pause from one worker refuses the other's takes", async () => {
    const primaryStore = new MemoryBucketStore();
    await ipcWorkerOf(primaryStore).store.pause(refs, 5_000);
    expect((await ipcWorkerOf(primaryStore).store.take(refs)).allowed).toBe(false);
  });

  it('rejects when the primary does not answer in time (the failure policy then decides)', async () => {
    const [workerEnd] = channelPair();
    await expect(new IpcBucketStore(new IpcRpcClient(workerEnd), { timeoutMs: 50 }).take(refs)).rejects.toThrow(/no answer within 50 ms/);
  });
});

describe("a worker's limiters over IPC (createRateLimiters with a shared store)", () => {
  const CHECKS = 500;
  // ×100: the general class refills 1 000 tokens a second, so a 100 ms lease holds k = 100.
  async function checkBusyKey(leaseMs: number) {
    const worker = ipcWorkerOf(new MemoryBucketStore());
    const limiters = createRateLimiters(rateLimitConfig({ scale: 100, leaseMs }), { shared: worker.store });
    let admitted = 0;
    for (let i = 0; i < CHECKS; i++) if ((await limiters.inbound.check('busy', '/v1/user/get')).allowed) admitted++;
    await limiters.close();
    return { admitted, asked: worker.asked.ops };
  }

  it('leases: a busy key costs one round trip per half lease, not one per take', async () => {
    const { admitted, asked } = await checkBusyKey(100);
    expect(admitted).toBe(CHECKS);
    expect(asked.take ?? 0).toBe(0);
    // k = 100, topped up once half is spent: about one lease call per 50 checks.
    expect(asked.lease).toBeGreaterThan(0);
    expect(asked.lease).toBeLessThanOrEqual(CHECKS / 25);
  });

  it('RATE_LIMIT_LEASE_MS=0: one operation per take, as before leases', async () => {
    const { admitted, asked } = await checkBusyKey(0);
    expect(admitted).toBe(CHECKS);
    expect(asked).toEqual({ take: CHECKS });
  });
});

/**
 * Batches: what a worker asks within one turn of the event loop goes as one message, and every
 * answer is the one a run of the same operations one after the other gets. The primary's clock is
 * frozen (nothing refills during a test), and the sequential run is the same operations, in the
 * same order, awaited one at a time on a MemoryBucketStore reading the same clock.
 */
describe('IpcBucketStore batches', () => {
  const NOW = 5_000_000;
  const frozen = () => new MemoryBucketStore({ now: () => NOW });

  /** Spec limits (scale 1): bursts of 10, 1 and 1-a-minute, so a few dozen checks meet refusals of every class. */
  const CHECKS: [string, string][] = [];
  for (let i = 0; i < 14; i++)
    for (const key of ['alpha', 'beta'])
      for (const path of ['/v1/user/get', '/v1/meeting/list', '/v1/metrics/meetings', '/v1/report/getuserreport'])
        CHECKS.push([key, i % 3 === 0 ? path.toUpperCase() : path]);

  it("a tick's checks across keys and classes go as one message and get what a sequential run gets", async () => {
    const worker = ipcWorkerOf(frozen());
    const batched = new InboundLimiter({ store: worker.store });
    // Every check is asked before any is awaited: one turn of the event loop.
    const decisions = await Promise.all(CHECKS.map(([key, path]) => batched.check(key, path)));

    const alone = new InboundLimiter({ store: frozen() });
    const expected = [];
    for (const [key, path] of CHECKS) expected.push(await alone.check(key, path));

    expect(decisions).toEqual(expected);
    expect(decisions.filter((d) => d.allowed).length).toBeGreaterThan(0);
    expect(new Set(decisions.filter((d) => !d.allowed).map((d) => d.limitClass))).toEqual(
      new Set(['general', 'list-billing-plan', 'metrics-minute', 'report-user']),
    );
    expect(worker.asked.messages).toEqual([CHECKS.length]);
  });

  /** Takes, leases, give-backs and pauses of two groups, interleaved: each depends on the ones before it. */
  const a: BucketRef[] = [{ key: 'in:{a:general}:second', spec: { ratePerSecond: 2, burst: 6 } }];
  const ab: BucketRef[] = [...a, { key: 'in:{a:daily}:day', spec: { ratePerSecond: 0.0001, burst: 4 } }];
  const MIXED: ((store: LeaseSource) => Promise<unknown>)[] = [
    (s) => s.take(a),
    (s) => s.take(ab),
    (s) => s.lease(ab, 3, 1),
    (s) => s.take(ab, 2),
    (s) => s.giveBack(ab, 2),
    (s) => s.take(ab, 2),
    (s) => s.take(a, 2),
    (s) => s.pause(a, 1_500),
    (s) => s.take(a),
    (s) => s.lease(ab, 2, 1),
    (s) => s.giveBack(a, 5),
    (s) => s.take(ab),
  ];

  async function readingsOf(store: BucketStore & LeaseSource) {
    // A lease no bucket can grant spends nothing and reads each bucket's tokens and pause.
    return [await store.lease(a, 1_000, 1_000), await store.lease(ab, 1_000, 1_000)];
  }

  it('takes, leases, give-backs and pauses asked together are applied in the order they were asked', async () => {
    const primary = frozen();
    const worker = ipcWorkerOf(primary);
    const answers = await Promise.all(MIXED.map((op) => op(worker.store)));

    const reference = frozen();
    const expected = [];
    for (const op of MIXED) expected.push(await op(reference));

    expect(answers).toEqual(expected);
    expect(worker.asked.messages).toEqual([MIXED.length]);
    expect(worker.asked.ops).toEqual({ take: 7, lease: 2, giveBack: 2, pause: 1 });
    expect(await readingsOf(primary)).toEqual(await readingsOf(reference));
  });

  it('two workers asking in the same tick: their batches never interleave, and together they admit the burst', async () => {
    const primary = frozen();
    const [one, two] = [ipcWorkerOf(primary), ipcWorkerOf(primary)];
    const refs: BucketRef[] = [{ key: 'in:{shared:general}:second', spec: { ratePerSecond: 1, burst: 9 } }];
    const [first, second] = await Promise.all(
      [one, two].map(({ store }) => Promise.all(Array.from({ length: 8 }, () => store.take(refs)))),
    );
    const admitted = (outcomes: { allowed: boolean }[]) => outcomes.filter((o) => o.allowed).length;
    // The first batch to arrive is whole before the second starts: 8 then 1 (or 1 then 8), never split.
    expect([admitted(first!), admitted(second!)].sort()).toEqual([1, 8]);
    expect([...one.asked.messages, ...two.asked.messages]).toEqual([8, 8]);
  });

  it('a tick never builds a message past the bound: the rest go in further messages, with the same answers', async () => {
    const worker = ipcWorkerOf(frozen(), { maxBatch: 8 });
    const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => worker.store.take(i % 2 ? a : ab)));
    const reference = frozen();
    const expected = [];
    for (let i = 0; i < 30; i++) expected.push(await reference.take(i % 2 ? a : ab));
    expect(outcomes).toEqual(expected);
    expect(worker.asked.messages).toEqual([8, 8, 8, 6]);

    const flood = ipcWorkerOf(frozen());
    await Promise.all(Array.from({ length: 1_000 }, (_, i) => flood.store.take([{ key: `k${i % 50}`, spec: a[0]!.spec }])));
    expect(Math.max(...flood.asked.messages)).toBe(DEFAULT_MAX_BATCH);
    expect(flood.asked.messages.reduce((x, y) => x + y, 0)).toBe(1_000);
  });

  it('a batch the primary does not answer in time fails each of its operations', async () => {
    const [workerEnd] = channelPair();
    const store = new IpcBucketStore(new IpcRpcClient(workerEnd), { timeoutMs: 50 });
    const outcomes = await Promise.allSettled([store.take(refs), store.lease(refs, 2, 1), store.pause(refs, 10)]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/ratelimit\.batch: no answer within 50 ms/);
  });
});
