import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BucketStore } from '../../src/ratelimit/bucket-store.js';
import { parseRetryAfter } from '../../src/ratelimit/headers.js';
import { MemoryBucketStore } from '../../src/ratelimit/memory-store.js';
import { OutboundLimiter, type V2Budget } from '../../src/ratelimit/outbound-limiter.js';
import type { V2Route } from '../../src/v2-contract/v2-route.js';
import { V2 } from '../../src/v2-contract/v2-routes.js';
import { RedisBucketStore } from '../../src/ratelimit/redis-store.js';
import { SPEC_LIMITS, type SandboxLimits } from '../../src/sandbox/rate-limit.js';
import { startRedis, type RunningRedis } from '../support/redis.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { readyRedis } from './helpers.js';

/**
 * Fan-out through the OutboundLimiter against the real sandbox over HTTP, whose limiter enforces
 * today's v2 limits (per account, per category, by plan) by arrival time with the same token
 * bucket: with the default safety margin, v1gate never draws a 429 by itself. (A 404 from a route not written yet is fine: only 429 counts.)
 */

let redisServer: RunningRedis;
let redis: Redis;
beforeAll(async () => {
  redisServer = await startRedis();
  redis = await readyRedis(redisServer.url);
});
afterAll(async () => {
  await redis?.quit();
  await redisServer?.close();
});

async function withSandbox<T>(limits: SandboxLimits, run: (sb: RunningSandbox) => Promise<T>): Promise<T> {
  const sb = await startSandbox({ limits });
  try {
    return await run(sb);
  } finally {
    await sb.close();
  }
}

/** The sandbox's own account, at the plan it has (Pro unless set). */
const budgetOf = (sb: RunningSandbox): V2Budget => ({ account: sb.sandbox.master.id, plan: 'pro' });

/** Make `n` calls of `route` at once through the limiter; the statuses the sandbox answered. */
function fanOut(outbound: OutboundLimiter, sb: RunningSandbox, route: V2Route, path: string, n: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: n }, () => outbound.schedule(budgetOf(sb), route.category, async () => (await sb.v2(route.method, path)).status)),
  );
}

describe("OutboundLimiter against the sandbox's per-account, per-category limits", () => {
  it('60 Light calls of a Pro account (30/s): no 429, at the margin rate (21 at once, then 29.7/s)', async () => {
    await withSandbox(SPEC_LIMITS, async (sb) => {
      const outbound = new OutboundLimiter({ store: new MemoryBucketStore(), maxWaitMs: 30_000 });
      const started = performance.now();
      const statuses = await fanOut(outbound, sb, V2.users.get, '/users/me', 60);
      const elapsed = performance.now() - started;
      expect(statuses.filter((s) => s === 429)).toHaveLength(0);
      // Each call got past the sandbox's auth to its limiter (a 401 would prove nothing).
      expect(statuses.every((s) => s === 200)).toBe(true);
      // (60 − 21) / 29.7 per second ≈ 1.3 s: paced, not sent at once.
      expect(elapsed).toBeGreaterThan(1_200);
    });
  });

  it('a mixed fan-out over Redis, every category at once (limits ×0.5 on both sides): no 429', async () => {
    const scaled: SandboxLimits = { scale: 0.5 };
    await withSandbox(scaled, async (sb) => {
      const store: BucketStore = new RedisBucketStore(redis, { keyPrefix: `mixed-${Math.random()}:` });
      const outbound = new OutboundLimiter({ store, scale: 0.5, maxWaitMs: 30_000 });
      const accountId = sb.sandbox.master.id;
      const results = await Promise.all([
        fanOut(outbound, sb, V2.users.list, '/users', 30),
        fanOut(outbound, sb, V2.accounts.billing, `/accounts/${accountId}/billing`, 20),
        fanOut(outbound, sb, V2.accounts.plans, `/accounts/${accountId}/plans`, 20),
        fanOut(outbound, sb, V2.reports.daily, '/report/daily', 12),
      ]);
      const statuses = results.flat();
      expect(statuses).toHaveLength(82);
      expect(statuses.filter((s) => s === 429)).toHaveLength(0);
      expect(statuses.every((s) => s === 200 || s === 400 || s === 404)).toBe(true);
    });
  });

  it('an upstream 429 (another app of the account spent its budget) is honoured: penalize, then the retry passes', async () => {
    await withSandbox(SPEC_LIMITS, async (sb) => {
      const outbound = new OutboundLimiter({ store: new MemoryBucketStore(), maxWaitMs: 5_000 });
      // Someone else of the account, straight to v2: the upstream's Medium bucket (20/s) is empty, ours is not.
      // (On a busy machine a token may refill before our call lands: drain again, a few times at most.)
      let first: Awaited<ReturnType<typeof sb.v2>> | undefined;
      for (let attempt = 0; attempt < 5 && first?.status !== 429; attempt++) {
        await Promise.all(Array.from({ length: 24 }, () => sb.v2('GET', '/users')));
        first = await outbound.schedule(budgetOf(sb), 'medium', () => sb.v2('GET', '/users'));
      }
      expect(first!.status).toBe(429);
      const retryAfterMs = parseRetryAfter(first!.headers.get('retry-after'));
      expect(retryAfterMs).toBeGreaterThan(0);
      await outbound.penalize(budgetOf(sb), 'medium', retryAfterMs!);

      const started = performance.now();
      const again = await outbound.schedule(budgetOf(sb), 'medium', () => sb.v2('GET', '/users'));
      expect(performance.now() - started).toBeGreaterThanOrEqual(retryAfterMs! - 20);
      expect(again.status).not.toBe(429);
    });
  });
});
