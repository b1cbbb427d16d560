import type { Redis } from 'ioredis';
import type { BucketStore } from './bucket-store.js';
import type { RateLimitConfig } from './config.js';
import { FailoverBucketStore, type RateLimitLogger } from './failure-policy.js';
import { InboundLimiter } from './inbound-limiter.js';
import { LeasingBucketStore, type LeaseSource } from './lease-store.js';
import { MemoryBucketStore } from './memory-store.js';
import { OutboundLimiter } from './outbound-limiter.js';
import { RedisBucketStore, connectRedis } from './redis-store.js';

/**
 * The rate-limit library of v1gate: v1 inbound token buckets per api_key and class, v2 outbound
 * ones per v2 account and category, in memory or shared through Redis. `createRateLimiters` builds both from a
 * RateLimitConfig (RATE_LIMIT_SETTINGS is its section of the environment, read by src/config.ts).
 */

export { classifyV1Path, normalizePath } from './classify.js';
export { RATE_LIMIT_SETTINGS, RateLimitConfigSchema, rateLimitConfig } from './config.js';
export type { RateLimitConfig, RateLimitConfigInput } from './config.js';
export { RateLimitExceeded, type ExceededReason } from './errors.js';
export { FailoverBucketStore, type FailoverStats, type RateLimitLogger, type StoreFailurePolicy } from './failure-policy.js';
export { parseRetryAfter, rateLimitHeaders } from './headers.js';
export { InboundLimiter, type RateLimitDecision } from './inbound-limiter.js';
export { MemoryBucketStore } from './memory-store.js';
export { DEFAULT_MIN_JITTER_MS, DEFAULT_SAFETY_MARGIN, bucketSpecOf, withSafetyMargin, type SafetyMargin } from './bucket-specs.js';
export { OutboundLimiter, type ScheduleOptions, type V2Budget } from './outbound-limiter.js';
export { RedisBucketStore, connectRedis } from './redis-store.js';
export { IpcBucketStore, bucketStoreHandlers } from './ipc-store.js';
export { LeasingBucketStore, type LeaseSource, type LeasingOptions } from './lease-store.js';
export type { BucketRef, BucketStore, TakeOutcome } from './bucket-store.js';

export interface RateLimiters {
  inbound: InboundLimiter;
  outbound: OutboundLimiter;
  /** The store both use (a FailoverBucketStore over Redis when REDIS_URL is set). */
  store: BucketStore;
  /**
   * Resolves true once Redis answers (at once without REDIS_URL), false after `timeoutMs`. Await it
   * before serving: until then every take meets the failure policy (fail-closed would refuse).
   */
  ready(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface RateLimiterDeps {
  logger?: RateLimitLogger;
  /**
   * Buckets shared with other processes without Redis (a cluster worker's IpcBucketStore). Leased
   * and behind the same failure policy as Redis: a primary that does not answer in time means this
   * process's own buckets (open) or a refusal (closed). Ignored when REDIS_URL is set.
   */
  shared?: LeaseSource;
  /** How long a take from `shared` may take before the failure policy applies (ms). */
  sharedTimeoutMs?: number;
}

export function createRateLimiters(config: RateLimitConfig, deps: RateLimiterDeps = {}): RateLimiters {
  const memory = new MemoryBucketStore({ maxBuckets: config.memory.maxBuckets });
  let store: BucketStore = memory;
  let ready = async (_timeoutMs?: number) => true;
  // Leases sit under the failure policy: a lease call that fails or times out meets it like a take.
  const leased = (source: LeaseSource): BucketStore =>
    config.leaseMs > 0 ? new LeasingBucketStore(source, { leaseMs: config.leaseMs }) : source;
  if (!config.redis.url && deps.shared) {
    store = new FailoverBucketStore(leased(deps.shared), {
      policy: config.sharedStoreFailure,
      timeoutMs: deps.sharedTimeoutMs ?? 1_000,
      fallback: memory,
      ...(deps.logger ? { logger: deps.logger } : {}),
    });
  }
  if (config.redis.url) {
    const redis = connectRedis(config.redis.url, { commandTimeoutMs: config.redis.timeoutMs });
    const shared = new RedisBucketStore(redis, { keyPrefix: config.redis.keyPrefix, ownsConnection: true });
    ready = async (timeoutMs = 5_000) =>
      (await redisReady(redis, timeoutMs)) &&
      (await shared.preload().then(
        () => true,
        () => false,
      ));
    store = new FailoverBucketStore(leased(shared), {
      policy: config.sharedStoreFailure,
      timeoutMs: config.redis.timeoutMs,
      fallback: memory,
      ...(deps.logger ? { logger: deps.logger } : {}),
    });
  }
  const inbound = new InboundLimiter({ store, enabled: config.v1.enabled, scale: config.scale });
  const outbound = new OutboundLimiter({
    store,
    enabled: config.v2.enabled,
    scale: config.scale,
    margin: { rateFactor: config.v2.rateFactor, jitterMs: config.v2.jitterMs },
    minJitterMs: config.v2.minJitterMs,
    maxQueue: config.v2.maxQueue,
    maxWaitMs: config.v2.maxWaitMs,
    maxBacklogMs: config.v2.maxBacklogMs,
  });
  return { inbound, outbound, store, ready, close: () => store.close() };
}

function redisReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ok);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    redis.once('ready', onReady);
  });
}
