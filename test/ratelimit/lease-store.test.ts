import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BucketRef, BucketStore } from '../../src/ratelimit/bucket-store.js';
import { FailoverBucketStore } from '../../src/ratelimit/failure-policy.js';
import { InboundLimiter } from '../../src/ratelimit/inbound-limiter.js';
import { LeasingBucketStore, type LeaseSource } from '../../src/ratelimit/lease-store.js';
import { MemoryBucketStore } from '../../src/ratelimit/memory-store.js';
import { OutboundLimiter } from '../../src/ratelimit/outbound-limiter.js';
import { RedisBucketStore } from '../../src/ratelimit/redis-store.js';
import { startRedis, type RunningRedis } from '../support/redis.js';
import { eventually, readyRedis } from './helpers.js';
import { ipcWorkerOf } from './ipc-channel.js';

/**
 * Leases over each shared store: a real Redis, and a cluster primary's MemoryBucketStore reached
 * over IPC (as a worker reaches it). A frozen clock (the shared store's test clock, shared with the
 * lease store) means no bucket refills during a test, so "tokens are moved, never created" becomes
 * an exact count: however many leasing stores take, together they admit exactly the burst.
 */

let server: RunningRedis;
const cleanups: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  server = await startRedis();
});
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});
afterAll(() => server?.close());

let run = 0;
const unique = (key: string) => `lease:${process.pid}:${Date.now()}:${++run}:${key}`;

/** The buckets several processes share, on a test clock (or the store's own when none is given). */
interface SharedBuckets {
  /** One more process's way to them: what its LeasingBucketStore leases from. */
  source(): Promise<LeaseSource>;
  /** An unleased take straight from them, to read what they hold. */
  exact(): Promise<BucketStore>;
}

const SHARED: Record<string, (clock?: { now: number }) => SharedBuckets> = {
  Redis: (clock) => {
    const store = async () => {
      const redis: Redis = await readyRedis(server.url);
      const source = new RedisBucketStore(redis, { ownsConnection: true, ...(clock ? { clock: () => clock.now } : {}) });
      cleanups.push(() => source.close());
      return source;
    };
    return { source: store, exact: store };
  },
  'a cluster primary over IPC': (clock) => {
    const primary = new MemoryBucketStore(clock ? { now: () => clock.now } : {});
    return {
      source: async () => ipcWorkerOf(primary).store,
      exact: async () => primary,
    };
  },
};

async function leasing(source: LeaseSource, clock: { now: number }, leaseMs = 100, maxAgeMs?: number): Promise<LeasingBucketStore> {
  const store = new LeasingBucketStore(source, { leaseMs, now: () => clock.now, ...(maxAgeMs ? { maxAgeMs } : {}) });
  cleanups.push(() => store.close());
  return store;
}

/** Take until refused (synchronously when the lease allows, else through the store). */
async function drain(store: LeasingBucketStore, refs: BucketRef[], most = 10_000): Promise<number> {
  let admitted = 0;
  for (let i = 0; i < most; i++) {
    const outcome = store.takeNow(refs) ?? (await store.take(refs));
    if (!outcome.allowed) break;
    admitted++;
  }
  return admitted;
}

describe('LeasingBucketStore lease size', () => {
  it('sizes a lease from the slowest bucket, capped at a quarter of the burst; slow groups are not leased', async () => {
    const store = await leasing(await SHARED['a cluster primary over IPC']!().source(), { now: 1_000 });
    const ref = (ratePerSecond: number, burst: number): BucketRef => ({ key: 'x', spec: { ratePerSecond, burst } });
    expect(store.leaseSize([ref(1000, 1000)])).toBe(100);
    expect(store.leaseSize([ref(1000, 1000), ref(50, 50)])).toBe(5);
    expect(store.leaseSize([ref(1000, 8)])).toBe(2);
    expect(store.leaseSize([ref(10, 10)])).toBe(0); // 1 token per 100 ms: exact
  });
});

describe.each(Object.keys(SHARED))('LeasingBucketStore over %s', (name) => {
  const shared = SHARED[name]!;

  it('answers most takes from memory: one lease call per half lease, none per take', async () => {
    const clock = { now: 1_000_000 };
    const source = await shared(clock).source();
    const store = await leasing(source, clock);
    const leases = vi.spyOn(source, 'lease');
    const takes = vi.spyOn(source, 'take');
    const refs: BucketRef[] = [{ key: unique('busy'), spec: { ratePerSecond: 100_000, burst: 100_000 } }];
    let sync = 0;
    for (let i = 0; i < 2_000; i++) {
      const now = store.takeNow(refs);
      if (now) sync++;
      else expect((await store.take(refs)).allowed).toBe(true);
      if (i % 50 === 0) await new Promise((r) => setImmediate(r)); // let top-ups land, as a server's event loop would
    }
    // k = min(100000 × 0.1 s, burst / 4) = 10000: the whole run fits in one lease and its top-ups.
    expect(sync).toBeGreaterThanOrEqual(1_999);
    expect(takes).not.toHaveBeenCalled();
    expect(leases.mock.calls.length).toBeLessThanOrEqual(3);
  });

  it('never admits more than the shared buckets hold: two stores together admit exactly the burst', async () => {
    const clock = { now: 2_000_000 };
    const buckets = shared(clock);
    const a = await leasing(await buckets.source(), clock);
    const b = await leasing(await buckets.source(), clock);
    // 100/s, burst 100: k = 10. The clock stands still, so no token is refilled.
    const refs: BucketRef[] = [{ key: unique('exact'), spec: { ratePerSecond: 100, burst: 100 } }];
    let admitted = 0;
    for (let round = 0; round < 40; round++) {
      for (const s of [a, b]) {
        const outcome = s.takeNow(refs) ?? (await s.take(refs));
        if (outcome.allowed) admitted++;
      }
      await new Promise((r) => setImmediate(r));
    }
    admitted += await drain(a, refs);
    admitted += await drain(b, refs);
    expect(admitted).toBe(100);
  });

  it('takes from every bucket of a group or from none (the tighter bucket decides)', async () => {
    const clock = { now: 3_000_000 };
    const buckets = shared(clock);
    const store = await leasing(await buckets.source(), clock);
    const fast: BucketRef = { key: unique('fast'), spec: { ratePerSecond: 1000, burst: 1000 } };
    const tight: BucketRef = { key: unique('tight'), spec: { ratePerSecond: 100, burst: 20 } };
    expect(await drain(store, [fast, tight])).toBe(20);
    await store.close();
    // The fast bucket gave exactly what the tight one allowed: 20 of its 1000.
    expect((await (await buckets.exact()).take([fast])).buckets[0]!.tokens).toBeCloseTo(1000 - 20 - 1);
  });

  it('gives unused tokens back on close, so they are not lost to the other processes', async () => {
    const clock = { now: 4_000_000 };
    const buckets = shared(clock);
    const store = await leasing(await buckets.source(), clock);
    const refs: BucketRef[] = [{ key: unique('back'), spec: { ratePerSecond: 1000, burst: 1000 } }];
    expect((await store.take(refs)).allowed).toBe(true);
    expect(store.heldTokens).toBe(99);
    await store.close();
    expect((await (await buckets.exact()).take(refs)).buckets[0]!.tokens).toBeCloseTo(1000 - 1 - 1);
  });

  it('gives back a lease older than maxAgeMs instead of serving it', async () => {
    const clock = { now: 5_000_000 };
    const store = await leasing(await shared(clock).source(), clock, 100, 1_000);
    const refs: BucketRef[] = [{ key: unique('old'), spec: { ratePerSecond: 1000, burst: 1000 } }];
    expect((await store.take(refs)).allowed).toBe(true);
    clock.now += 1_001;
    expect(store.takeNow(refs)).toBeUndefined();
    expect(store.heldTokens).toBe(0);
  });

  it('a pause from another process stops this one after at most its lease (k takes)', async () => {
    const clock = { now: 6_000_000 };
    const buckets = shared(clock);
    const a = await leasing(await buckets.source(), clock);
    const b = await leasing(await buckets.source(), clock);
    const refs: BucketRef[] = [{ key: unique('paused'), spec: { ratePerSecond: 1000, burst: 1000 } }];
    expect((await a.take(refs)).allowed).toBe(true); // a holds 99 of k = 100
    await b.pause(refs, 30_000);
    const after = await drain(a, refs);
    expect(after).toBeLessThanOrEqual(100);
    const refused = await a.take(refs);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(29_000);
    // The pausing process itself stops at once.
    expect((await b.take(refs)).allowed).toBe(false);
  });

  it('behind the limiters, a cold busy key costs one lease call, and no v2 call waits in a queue', async () => {
    const source = await shared().source();
    const store = new FailoverBucketStore(new LeasingBucketStore(source, { leaseMs: 100 }), { policy: 'open', timeoutMs: 1_000 });
    cleanups.push(() => store.close());
    const leases = vi.spyOn(source, 'lease');
    const takes = vi.spyOn(source, 'take');
    const inbound = new InboundLimiter({ store, scale: 1_000_000 });
    const outbound = new OutboundLimiter({ store, scale: 1_000_000 });
    const key = unique('cold');
    // 32 clients at once on a cold key, as the benchmark's connections: one v1 check and two v2 calls each.
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        for (let i = 0; i < 50; i++) {
          expect((await inbound.check(key, '/v1/meeting/get')).allowed).toBe(true);
          await outbound.schedule({ account: key, plan: 'pro' }, 'light', () => 1);
          await outbound.schedule({ account: key, plan: 'pro' }, 'light', () => 1);
        }
      }),
    );
    expect(takes).not.toHaveBeenCalled();
    expect(leases.mock.calls.length).toBeLessThanOrEqual(3); // one per bucket group (inbound, the account's outbound Light)
    expect(outbound.stats().waits).toEqual([]);
  });
});

describe('LeasingBucketStore over Redis, under the failure policy', () => {
  it('under the failure policy: Redis gone, fail-closed serves at most the lease it holds, then refuses', async () => {
    const redis = await readyRedis(server.url, 50);
    const leased = new LeasingBucketStore(new RedisBucketStore(redis, { ownsConnection: true }), { leaseMs: 100 });
    const store = new FailoverBucketStore(leased, { policy: 'closed', timeoutMs: 50, logger: { warn: () => {} } });
    cleanups.push(() => store.close());
    const inbound = new InboundLimiter({ store, scale: 1000 }); // general: 10 000/s, k = 1 000
    expect((await inbound.check('closed', '/v1/user/get')).allowed).toBe(true);
    await server.stop();
    try {
      const decisions = [];
      for (let i = 0; i < 1_500; i++) decisions.push(await inbound.check('closed', '/v1/user/get'));
      const admitted = decisions.filter((d) => d.allowed).length;
      // Only tokens Redis granted before it went: at most the k held.
      expect(admitted).toBeLessThanOrEqual(1_000);
      expect(decisions.at(-1)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    } finally {
      await server.start();
    }
  });

  it('under the failure policy: Redis gone, fail-open keeps admitting from memory, and the outage ends when Redis is back', async () => {
    const clock = { now: Date.now() };
    const redis = await readyRedis(server.url, 50);
    const source = new RedisBucketStore(redis, { ownsConnection: true });
    const leased = new LeasingBucketStore(source, { leaseMs: 100 });
    const store = new FailoverBucketStore(leased, { policy: 'open', timeoutMs: 50, logger: { warn: () => {} } });
    cleanups.push(() => store.close());
    const inbound = new InboundLimiter({ store, scale: 1000 });
    expect((await inbound.check('gone', '/v1/user/get')).allowed).toBe(true);
    await server.stop();
    try {
      let admitted = 0;
      for (let i = 0; i < 2_000; i++) if ((await inbound.check('gone', '/v1/user/get')).allowed) admitted++;
      expect(admitted).toBe(2_000);
      expect(store.stats.degraded).toBe(true);
    } finally {
      await server.start();
    }
    // A held lease must not hide the recovery: the failure policy asks Redis itself again.
    await eventually(async () => {
      await inbound.check('gone', '/v1/user/get');
      return !store.stats.degraded;
    });
    void clock;
  });
});
