import { describe, expect, it } from 'vitest';
import { bucketStoreContract, leaseSourceContract } from '../../test/ratelimit/bucket-store-contract.js';
import { MemoryBucketStore } from './memory-store.js';

bucketStoreContract('MemoryBucketStore', (clock) => new MemoryBucketStore({ now: () => clock.now }));
leaseSourceContract('MemoryBucketStore', (clock) => new MemoryBucketStore({ now: () => clock.now }));

describe('MemoryBucketStore memory', () => {
  it('forgets a bucket once it would be full again (the same as never used)', async () => {
    const clock = { now: 1_000 };
    const store = new MemoryBucketStore({ now: () => clock.now });
    const ref = { key: 'k', spec: { ratePerSecond: 10, burst: 10 } };
    for (let i = 0; i < 10; i++) await store.take([ref]);
    expect(store.size).toBe(1);
    clock.now += 999;
    expect(store.size).toBe(1);
    clock.now += 2;
    expect(store.size).toBe(0);
    const fresh = await store.take([ref]);
    expect(fresh.buckets[0]!.tokens).toBe(9);
  });

  it('stays flat under a flood of distinct keys', async () => {
    const store = new MemoryBucketStore({ maxBuckets: 1000 });
    const spec = { ratePerSecond: 1, burst: 1 };
    for (let i = 0; i < 20_000; i++) await store.take([{ key: `key-${i}`, spec }]);
    expect(store.size).toBeLessThanOrEqual(1000);
  });

  it('keeps a pause even on a bucket that is full', async () => {
    const clock = { now: 1_000 };
    const store = new MemoryBucketStore({ now: () => clock.now });
    const ref = { key: 'k', spec: { ratePerSecond: 10, burst: 10 } };
    await store.pause([ref], 5000);
    clock.now += 4000;
    expect((await store.take([ref])).retryAfterMs).toBe(1000);
  });
});
