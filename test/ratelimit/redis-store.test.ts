import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiters, rateLimitConfig } from '../../src/ratelimit/index.js';
import { MemoryBucketStore } from '../../src/ratelimit/memory-store.js';
import { RedisBucketStore } from '../../src/ratelimit/redis-store.js';
import { startRedis, type RunningRedis } from '../support/redis.js';
import { bucketStoreContract, leaseSourceContract } from './bucket-store-contract.js';
import { readyRedis } from './helpers.js';

let server: RunningRedis;
beforeAll(async () => {
  server = await startRedis();
});
afterAll(() => server?.close());

const redisStore = async (clock: { now: number }) =>
  new RedisBucketStore(await readyRedis(server.url), { clock: () => clock.now, ownsConnection: true });
bucketStoreContract('RedisBucketStore', redisStore);
leaseSourceContract('RedisBucketStore', redisStore);

describe('RedisBucketStore on the server clock', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = await readyRedis(server.url);
  });
  afterAll(() => redis.quit());

  it('keeps buckets under its key prefix, expiring once they would be full again', async () => {
    const store = new RedisBucketStore(redis, { keyPrefix: 'gw-a:' });
    const spec = { ratePerSecond: 2, burst: 4 };
    await store.take([{ key: 'ttl', spec }]);
    await store.take([{ key: 'ttl', spec }]);
    expect(await redis.exists('gw-a:ttl')).toBe(1);
    const ttl = await redis.pttl('gw-a:ttl');
    // Two tokens short at 2/s: full in 1 s, plus the 1 s of slack.
    expect(ttl).toBeGreaterThan(1_500);
    expect(ttl).toBeLessThanOrEqual(2_000);
  });

  it("admits the burst, then refuses, on the server's own clock", async () => {
    const store = new RedisBucketStore(redis, { keyPrefix: 'gw-b:' });
    const ref = { key: 'burst', spec: { ratePerSecond: 1, burst: 3 } };
    const allowed = [];
    for (let i = 0; i < 5; i++) allowed.push((await store.take([ref])).allowed);
    expect(allowed).toEqual([true, true, true, false, false]);
  });

  it('loads its script again when the server has forgotten it (EVALSHA, then EVAL)', async () => {
    const store = new RedisBucketStore(redis, { keyPrefix: 'gw-c:' });
    const ref = { key: 'noscript', spec: { ratePerSecond: 10, burst: 10 } };
    await store.take([ref]);
    await redis.script('FLUSH');
    expect((await store.take([ref])).allowed).toBe(true);
  });

  it('keeps stores with different prefixes apart', async () => {
    const a = new RedisBucketStore(redis, { keyPrefix: 'gw-d1:' });
    const b = new RedisBucketStore(redis, { keyPrefix: 'gw-d2:' });
    const ref = { key: 'same', spec: { ratePerSecond: 1, burst: 1 } };
    expect((await a.take([ref])).allowed).toBe(true);
    expect((await a.take([ref])).allowed).toBe(false);
    expect((await b.take([ref])).allowed).toBe(true);
  });
});

describe('createRateLimiters', () => {
  it('with a Redis URL: shares buckets through Redis under the configured prefix', async () => {
    const limiters = createRateLimiters(rateLimitConfig({ redis: { url: server.url, keyPrefix: 'factory:' } }));
    expect(await limiters.ready()).toBe(true);
    expect((await limiters.inbound.check('fk', '/v1/user/list')).allowed).toBe(true);
    expect((await limiters.inbound.check('fk', '/v1/user/list')).allowed).toBe(false);
    await limiters.outbound.schedule({ account: 'fk', plan: 'pro' }, 'medium', async () => 'ok');
    const admin = await readyRedis(server.url);
    expect(await admin.exists('factory:in:{fk:list-billing-plan:/v1/user/list}:second')).toBe(1);
    expect(await admin.exists('factory:out:{fk}:medium')).toBe(1);
    await admin.quit();
    await limiters.close();
  });

  it('without one: in memory, ready at once', async () => {
    const limiters = createRateLimiters(rateLimitConfig());
    expect(await limiters.ready()).toBe(true);
    expect(limiters.store).toBeInstanceOf(MemoryBucketStore);
    await limiters.close();
  });

  it('reports a Redis that never answers as not ready', async () => {
    const warnings: string[] = [];
    const limiters = createRateLimiters(rateLimitConfig({ redis: { url: 'redis://127.0.0.1:1' } }), {
      logger: { warn: (m) => warnings.push(m) },
    });
    expect(await limiters.ready(200)).toBe(false);
    // Fail-open by default: requests are still judged, by this process's buckets.
    expect((await limiters.inbound.check('k', '/v1/user/get')).allowed).toBe(true);
    expect(warnings).toEqual([expect.stringMatching(/shared store unavailable.*fail-open/)]);
    await limiters.close();
  });
});
