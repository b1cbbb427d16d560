import { describe, expect, it } from 'vitest';
import type { BucketRef, BucketStore } from '../../src/ratelimit/bucket-store.js';
import type { LeaseSource } from '../../src/ratelimit/lease-store.js';
import { takeToken, type BucketState } from '../../src/shared/token-bucket.js';

/**
 * What every BucketStore must do, on a clock the test moves: run from the in-memory store's unit
 * tests and from the Redis store's integration tests, so both stores are held to one behaviour
 * (and to takeToken's arithmetic). `leaseSourceContract` does the same for the lease calls a
 * LeasingBucketStore makes (Redis' LEASE and GIVE_BACK scripts, the memory store's own, and the
 * memory store's reached over IPC).
 */

export interface ContractClock {
  now: number;
}

/** `make` builds a store reading the given clock; `unique` makes keys no earlier run used. */
export function bucketStoreContract(name: string, make: (clock: ContractClock) => BucketStore | Promise<BucketStore>): void {
  let run = 0;
  const unique = (key: string) => `contract:${process.pid}:${Date.now()}:${++run}:${key}`;

  describe(`${name} (BucketStore contract)`, () => {
    it("admits a fresh bucket's burst at once, then refuses with the time until the next token", async () => {
      const clock = { now: 1_000_000 };
      const store = await make(clock);
      const ref: BucketRef = { key: unique('a'), spec: { ratePerSecond: 5, burst: 3 } };
      const results = [];
      for (let i = 0; i < 4; i++) results.push(await store.take([ref]));
      expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
      expect(results[2]!.buckets[0]!.tokens).toBeCloseTo(0);
      expect(results[3]!.retryAfterMs).toBe(200);
      clock.now += 200;
      expect((await store.take([ref])).allowed).toBe(true);
      await store.close();
    });

    it('takes from every bucket or from none', async () => {
      const clock = { now: 2_000_000 };
      const store = await make(clock);
      const slow: BucketRef = { key: unique('slow'), spec: { ratePerSecond: 1, burst: 1 } };
      const fast: BucketRef = { key: unique('fast'), spec: { ratePerSecond: 10, burst: 10 } };
      expect((await store.take([slow, fast])).allowed).toBe(true);
      for (let i = 0; i < 5; i++) {
        const refused = await store.take([slow, fast]);
        expect(refused.allowed).toBe(false);
        // The fast bucket was not spent by the refused requests.
        expect(refused.buckets[1]!.tokens).toBeCloseTo(9);
        expect(refused.buckets[1]!.retryAfterMs).toBe(0);
        expect(refused.buckets[0]!.retryAfterMs).toBe(1000);
      }
      clock.now += 1000;
      const again = await store.take([slow, fast]);
      expect(again.allowed).toBe(true);
      expect(again.buckets[1]!.tokens).toBeCloseTo(9);
      await store.close();
    });

    it('does the same arithmetic as takeToken, step by step', async () => {
      const clock = { now: 3_000_000 };
      const store = await make(clock);
      const specs = [
        { ratePerSecond: 10, burst: 10 },
        { ratePerSecond: 0.9, burst: 1 },
        { ratePerSecond: 2000 / 86_400, burst: 2000 },
      ];
      let seed = 42;
      const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
      for (const spec of specs) {
        const ref: BucketRef = { key: unique('same'), spec };
        let state: BucketState | undefined;
        for (let step = 0; step < 60; step++) {
          clock.now += Math.floor(random() * 250);
          const cost = random() < 0.1 ? 2 : 1;
          const expected = takeToken(state, spec, clock.now, cost);
          const got = await store.take([ref], cost);
          expect(got.allowed).toBe(expected.allowed);
          expect(got.retryAfterMs).toBe(expected.retryAfterMs);
          expect(got.buckets[0]!.tokens).toBeCloseTo(expected.state.tokens, 6);
          if (expected.allowed) state = expected.state;
        }
      }
      await store.close();
    });

    it('holds paused buckets shut for the pause, without spending their tokens', async () => {
      const clock = { now: 4_000_000 };
      const store = await make(clock);
      const ref: BucketRef = { key: unique('paused'), spec: { ratePerSecond: 10, burst: 10 } };
      await store.pause([ref], 1500);
      const refused = await store.take([ref]);
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterMs).toBe(1500);
      clock.now += 1000;
      // A shorter pause does not shorten the longer one.
      await store.pause([ref], 100);
      expect((await store.take([ref])).retryAfterMs).toBe(500);
      clock.now += 500;
      const admitted = await store.take([ref]);
      expect(admitted.allowed).toBe(true);
      expect(admitted.buckets[0]!.tokens).toBeCloseTo(9);
      await store.close();
    });

    it('keeps the buckets of different keys apart', async () => {
      const clock = { now: 5_000_000 };
      const store = await make(clock);
      const spec = { ratePerSecond: 1, burst: 1 };
      const a: BucketRef = { key: unique('key-a'), spec };
      const b: BucketRef = { key: unique('key-b'), spec };
      expect((await store.take([a])).allowed).toBe(true);
      expect((await store.take([a])).allowed).toBe(false);
      expect((await store.take([b])).allowed).toBe(true);
      await store.close();
    });
  });
}

/** What every LeaseSource must do (lease-store.ts): the semantics of LEASE_SCRIPT and GIVE_BACK_SCRIPT. */
export function leaseSourceContract(name: string, make: (clock: ContractClock) => LeaseSource | Promise<LeaseSource>): void {
  let run = 0;
  const unique = (key: string) => `lease-contract:${process.pid}:${Date.now()}:${++run}:${key}`;

  describe(`${name} (LeaseSource contract)`, () => {
    it("grants up to `want` from every bucket of a group, as many as its emptiest bucket's whole tokens", async () => {
      const clock = { now: 1_000_000 };
      const store = await make(clock);
      const wide: BucketRef = { key: unique('wide'), spec: { ratePerSecond: 10, burst: 10 } };
      const narrow: BucketRef = { key: unique('narrow'), spec: { ratePerSecond: 10, burst: 4 } };
      const lease = await store.lease([wide, narrow], 6, 1);
      expect(lease.granted).toBe(4);
      expect(lease.outcome.allowed).toBe(true);
      expect(lease.outcome.buckets.map((b) => b.tokens)).toEqual([6, 0]);
      // Nothing left in the narrow bucket: none granted, and the wide one is not spent.
      const refused = await store.lease([wide, narrow], 5, 1);
      expect(refused.granted).toBe(0);
      expect(refused.outcome.allowed).toBe(false);
      expect(refused.outcome.buckets[0]).toEqual({ tokens: 6, retryAfterMs: 0 });
      expect(refused.outcome.buckets[1]).toEqual({ tokens: 0, retryAfterMs: 100 });
      expect((await store.take([wide])).buckets[0]!.tokens).toBeCloseTo(5);
      // Fractional tokens are not granted: 250 ms refill 2.5 tokens, a lease gets 2 of them.
      clock.now += 250;
      const partial = await store.lease([narrow], 10, 1);
      expect(partial.granted).toBe(2);
      expect(partial.outcome.buckets[0]!.tokens).toBeCloseTo(0.5);
      await store.close();
    });

    it('grants none when fewer than `least` are there, spending nothing, and says how long until there are', async () => {
      const clock = { now: 2_000_000 };
      const store = await make(clock);
      const ref: BucketRef = { key: unique('least'), spec: { ratePerSecond: 10, burst: 5 } };
      expect((await store.lease([ref], 3, 1)).granted).toBe(3);
      const short = await store.lease([ref], 5, 3);
      expect(short.granted).toBe(0);
      expect(short.outcome.retryAfterMs).toBe(100);
      expect(short.outcome.buckets[0]!.tokens).toBeCloseTo(2);
      expect((await store.lease([ref], 5, 2)).granted).toBe(2);
      await store.close();
    });

    it('grants none while any bucket of the group is paused', async () => {
      const clock = { now: 3_000_000 };
      const store = await make(clock);
      const open: BucketRef = { key: unique('open'), spec: { ratePerSecond: 10, burst: 10 } };
      const paused: BucketRef = { key: unique('paused'), spec: { ratePerSecond: 10, burst: 10 } };
      await store.pause([paused], 1_000);
      const lease = await store.lease([open, paused], 5, 1);
      expect(lease.granted).toBe(0);
      expect(lease.outcome.retryAfterMs).toBe(1_000);
      expect(lease.outcome.buckets[0]).toEqual({ tokens: 10, retryAfterMs: 0 });
      clock.now += 1_000;
      expect((await store.lease([open, paused], 5, 1)).granted).toBe(5);
      await store.close();
    });

    it('takes tokens given back on top of the refill, never past the burst', async () => {
      const clock = { now: 4_000_000 };
      const store = await make(clock);
      const ref: BucketRef = { key: unique('back'), spec: { ratePerSecond: 10, burst: 10 } };
      expect((await store.lease([ref], 5, 1)).granted).toBe(5);
      clock.now += 200; // 5 + 2 refilled
      await store.giveBack([ref], 2);
      expect((await store.take([ref])).buckets[0]!.tokens).toBeCloseTo(8);
      await store.giveBack([ref], 50);
      expect((await store.take([ref])).buckets[0]!.tokens).toBeCloseTo(9);
      // A bucket never used is full already: giving to it changes nothing.
      const fresh: BucketRef = { key: unique('fresh'), spec: { ratePerSecond: 10, burst: 10 } };
      await store.giveBack([fresh], 5);
      expect((await store.take([fresh])).buckets[0]!.tokens).toBeCloseTo(9);
      await store.close();
    });
  });
}
