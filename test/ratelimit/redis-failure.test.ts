import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FailoverBucketStore, type StoreFailurePolicy } from '../../src/ratelimit/failure-policy.js';
import { InboundLimiter } from '../../src/ratelimit/inbound-limiter.js';
import { RedisBucketStore, connectRedis } from '../../src/ratelimit/redis-store.js';
import { startRedis, type RunningRedis } from '../support/redis.js';
import { eventually, readyRedis } from './helpers.js';

/**
 * Redis taken away mid-run (stopped, or too slow to answer within the 50 ms timeout): fail-open
 * keeps admitting (by each process's own buckets), fail-closed refuses, and both go back to the
 * shared buckets once Redis answers again.
 */

const TIMEOUT_MS = 50;
let server: RunningRedis;
let admin: Redis;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  server = await startRedis();
  admin = await readyRedis(server.url);
});
afterEach(async () => {
  await server.start(); // whatever a test stopped
  while (cleanups.length) await cleanups.pop()!();
});
afterAll(async () => {
  admin.disconnect();
  await server?.close();
});

async function gateway(policy: StoreFailurePolicy) {
  const redis = connectRedis(server.url, { commandTimeoutMs: TIMEOUT_MS });
  await new Promise((resolve) => redis.once('ready', resolve));
  const logs: string[] = [];
  const store = new FailoverBucketStore(new RedisBucketStore(redis, { keyPrefix: `${policy}:`, ownsConnection: true }), {
    policy,
    timeoutMs: TIMEOUT_MS,
    logger: { warn: (m) => logs.push(m) },
    retryIntervalMs: 200,
  });
  cleanups.push(() => store.close());
  return { store, logs, inbound: new InboundLimiter({ store, scale: 5 }) };
}

/** Time one check; it must answer quickly whatever Redis does. */
async function timedCheck(inbound: InboundLimiter, key: string, path = '/v1/user/get') {
  const started = performance.now();
  const decision = await inbound.check(key, path);
  return { decision, ms: performance.now() - started };
}

describe('Redis stopped mid-run', () => {
  it('fail-open: keeps admitting, still limited per process, and goes back to Redis when it returns', async () => {
    const { inbound, store, logs } = await gateway('open');
    expect((await inbound.check('k', '/v1/user/get')).allowed).toBe(true);

    await server.stop();
    const during = [];
    for (let i = 0; i < 60; i++) during.push(await timedCheck(inbound, 'k'));
    expect(during[0]!.decision.allowed).toBe(true);
    expect(Math.max(...during.map((d) => d.ms))).toBeLessThan(TIMEOUT_MS * 3);
    // Admitted by the local buckets (general ×5: burst 50), not waved through without limit.
    const admitted = during.filter((d) => d.decision.allowed).length;
    expect(admitted).toBeGreaterThanOrEqual(49);
    expect(admitted).toBeLessThanOrEqual(52);
    expect(store.stats.degraded).toBe(true);
    expect(logs.filter((l) => /unavailable/.test(l))).toHaveLength(1);

    await server.start();
    await eventually(async () => {
      await inbound.check('after', '/v1/user/list');
      return !store.stats.degraded;
    });
    const redis = await readyRedis(server.url);
    cleanups.push(() => redis.quit());
    await inbound.check('back', '/v1/user/get');
    expect(await redis.exists('open:in:{back:general}:second')).toBe(1);
    expect(logs.at(-1)).toMatch(/answering again/);
  });

  it('fail-closed: refuses with the rate-limit answer, and admits again when Redis returns', async () => {
    const { inbound, store } = await gateway('closed');
    expect((await inbound.check('k', '/v1/user/get')).allowed).toBe(true);

    await server.stop();
    const { decision, ms } = await timedCheck(inbound, 'k');
    expect(ms).toBeLessThan(TIMEOUT_MS * 3);
    expect(decision).toMatchObject({ allowed: false, retryAfterSeconds: 1 });

    await server.start();
    await eventually(async () => (await inbound.check('k', '/v1/user/get')).allowed);
    expect(store.stats.degraded).toBe(false);
  });
});

describe('Redis too slow to answer', () => {
  it('fail-open admits within the timeout; fail-closed refuses within it', async () => {
    const open = await gateway('open');
    const closed = await gateway('closed');
    await eventually(() => admin.status === 'ready');
    // Every client's commands wait 600 ms: a hung Redis, as far as the gateway can tell.
    await admin.call('CLIENT', 'PAUSE', '600', 'ALL');
    const [o, c] = await Promise.all([timedCheck(open.inbound, 'slow'), timedCheck(closed.inbound, 'slow')]);
    expect(o.decision.allowed).toBe(true);
    expect(c.decision.allowed).toBe(false);
    expect(o.ms).toBeLessThan(TIMEOUT_MS * 3);
    expect(c.ms).toBeLessThan(TIMEOUT_MS * 3);
    expect(open.logs[0]).toMatch(/timed out|no answer/i);
    await new Promise((r) => setTimeout(r, 700));
    await eventually(async () => (await closed.inbound.check('slow', '/v1/user/get')).allowed);
  });
});
