import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InboundLimiter } from '../../src/ratelimit/inbound-limiter.js';
import { OutboundLimiter, type V2Budget } from '../../src/ratelimit/outbound-limiter.js';
import { RedisBucketStore } from '../../src/ratelimit/redis-store.js';
import { leavingOf } from '../../src/shared/leaving.js';
import { startRedis, type RunningRedis } from '../support/redis.js';
import { flood, readyRedis } from './helpers.js';

/** One key's flood does not slow another key's calls, with the buckets in a real Redis. */

let server: RunningRedis;
let redis: Redis;
beforeAll(async () => {
  server = await startRedis();
  redis = await readyRedis(server.url);
});
afterAll(async () => {
  await redis?.quit();
  await server?.close();
});

const task = async () => 'ok';

/** A Pro account. */
const pro = (account: string): V2Budget => ({ account, plan: 'pro' });

/** How long `n` outbound Light calls of `account` take, all at once. */
async function burstMs(outbound: OutboundLimiter, account: string, n: number): Promise<number> {
  const started = performance.now();
  await Promise.all(Array.from({ length: n }, () => outbound.schedule(pro(account), 'light', task)));
  return performance.now() - started;
}

describe('fairness between api_keys', () => {
  it("outbound: B completes promptly while A's queue is long", async () => {
    const store = new RedisBucketStore(redis, { keyPrefix: `fair-${Math.random()}:` });
    const outbound = new OutboundLimiter({ store, scale: 2, maxQueue: 1_000, maxWaitMs: 60_000 });
    const baseline = await burstMs(outbound, 'B-warmup', 10);

    const stopA = new AbortController();
    const aCalls = Array.from({ length: 400 }, () =>
      outbound.schedule(pro('A'), 'light', task, { leaving: leavingOf(stopA.signal) }).catch(() => 'stopped'),
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(outbound.waiting('A', 'light')).toBeGreaterThan(300);

    const during = await burstMs(outbound, 'B', 10);
    expect(outbound.waiting('A', 'light')).toBeGreaterThan(300);
    // B's 10 calls fit in its own burst: they take what they took with no flood, give or take a
    // scheduling hiccup; behind A's queue (Light ×2 = 60/s) they would wait over 5 s.
    expect(during).toBeLessThan(baseline + 50);
    expect(during).toBeLessThan(150);

    stopA.abort();
    const outcomes = await Promise.all(aCalls);
    expect(outcomes.filter((o) => o === 'ok').length).toBeLessThan(100);
  });

  it('inbound: A flooding to refusal leaves B its whole budget', async () => {
    const inbound = new InboundLimiter({ store: new RedisBucketStore(redis, { keyPrefix: `fair-in-${Math.random()}:` }), scale: 5 });
    const [a, b] = await Promise.all([
      flood(async () => (await inbound.check('A', '/v1/user/get')).allowed, 500),
      (async () => {
        await new Promise((r) => setTimeout(r, 100));
        let admitted = 0;
        for (let i = 0; i < 50; i++) if ((await inbound.check('B', '/v1/user/get')).allowed) admitted++;
        return admitted;
      })(),
    ]);
    expect(a.admitted).toBeLessThan(80);
    expect(b).toBe(50);
  });
});
