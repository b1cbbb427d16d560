import { describe, expect, it } from 'vitest';
import { ConfigError, readEnv, type Env } from '../shared/env.js';
import { RATE_LIMIT_SETTINGS, rateLimitConfig } from './config.js';

/** The rate-limit section alone, read by the one configuration loader. */
const readRateLimitConfig = (env: Env) => readEnv({ rateLimits: RATE_LIMIT_SETTINGS }, env).rateLimits;

describe('the rate-limit settings', () => {
  it("defaults to the specs' limits, in memory, failing open", () => {
    const config = readRateLimitConfig({});
    expect(config).toEqual(rateLimitConfig());
    expect(config).toMatchObject({
      v1: { enabled: true },
      v2: { enabled: true, rateFactor: 0.99, jitterMs: 300, minJitterMs: 10, maxWaitMs: 30_000, maxQueue: 1_000 },
      scale: 1,
      redis: { url: undefined, timeoutMs: 200, keyPrefix: 'v1gate:rl:' },
      sharedStoreFailure: 'open',
      leaseMs: 100,
    });
  });

  it('reads every variable', () => {
    const config = readRateLimitConfig({
      V1_RATE_LIMITS: 'off',
      V2_RATE_LIMITS: 'OFF',
      RATE_LIMIT_SCALE: '100',
      REDIS_URL: 'redis://127.0.0.1:6390',
      RATE_LIMIT_STORE_FAILURE: 'closed',
      RATE_LIMIT_REDIS_TIMEOUT_MS: '80',
      RATE_LIMIT_REDIS_PREFIX: 'gw:',
      RATE_LIMIT_LEASE_MS: '0',
      OUTBOUND_MAX_WAIT_MS: '2000',
      OUTBOUND_MAX_QUEUE: '10',
      OUTBOUND_MAX_BACKLOG_MS: '750',
      OUTBOUND_RATE_FACTOR: '0.8',
      OUTBOUND_JITTER_MS: '200',
      OUTBOUND_MIN_JITTER_MS: '20',
      RATE_LIMIT_MAX_BUCKETS: '5000',
      OUTBOUND_DEFAULT_PLAN: ' Business ',
    });
    expect(config).toEqual({
      v1: { enabled: false },
      v2: {
        enabled: false,
        rateFactor: 0.8,
        jitterMs: 200,
        minJitterMs: 20,
        maxWaitMs: 2000,
        maxQueue: 10,
        maxBacklogMs: 750,
        defaultPlan: 'business',
      },
      scale: 100,
      redis: { url: 'redis://127.0.0.1:6390', timeoutMs: 80, keyPrefix: 'gw:' },
      sharedStoreFailure: 'closed',
      leaseMs: 0,
      memory: { maxBuckets: 5000 },
    });
  });

  it('takes only a plan the v2 limits know as the default plan, and names the setting', () => {
    expect(readRateLimitConfig({}).v2.defaultPlan).toBe('pro');
    expect(() => readRateLimitConfig({ OUTBOUND_DEFAULT_PLAN: 'enterprise' })).toThrow(/OUTBOUND_DEFAULT_PLAN: must be pro or business/);
  });

  it('still reads the lease length under its old name, RATE_LIMIT_REDIS_LEASE_MS, and names that one in errors', () => {
    expect(readRateLimitConfig({ RATE_LIMIT_REDIS_LEASE_MS: '250' }).leaseMs).toBe(250);
    expect(readRateLimitConfig({ RATE_LIMIT_REDIS_LEASE_MS: '250', RATE_LIMIT_LEASE_MS: '0' }).leaseMs).toBe(0);
    expect(() => readRateLimitConfig({ RATE_LIMIT_REDIS_LEASE_MS: '-5' })).toThrow(/RATE_LIMIT_REDIS_LEASE_MS: /);
    expect(() => readRateLimitConfig({ RATE_LIMIT_REDIS_LEASE_MS: 'soon' })).toThrow(/RATE_LIMIT_REDIS_LEASE_MS: /);
    expect(() => readRateLimitConfig({ RATE_LIMIT_LEASE_MS: '-5' })).toThrow(/RATE_LIMIT_LEASE_MS: /);
  });

  it('still reads the failure policy under its old name, RATE_LIMIT_REDIS_FAILURE, and names that one in errors', () => {
    expect(readRateLimitConfig({ RATE_LIMIT_REDIS_FAILURE: 'closed' }).sharedStoreFailure).toBe('closed');
    expect(readRateLimitConfig({ RATE_LIMIT_REDIS_FAILURE: 'closed', RATE_LIMIT_STORE_FAILURE: 'open' }).sharedStoreFailure).toBe('open');
    expect(() => readRateLimitConfig({ RATE_LIMIT_REDIS_FAILURE: 'maybe' })).toThrow(/RATE_LIMIT_REDIS_FAILURE: /);
    expect(() => readRateLimitConfig({ RATE_LIMIT_STORE_FAILURE: 'maybe' })).toThrow(/RATE_LIMIT_STORE_FAILURE: /);
  });

  it('treats empty variables as unset', () => {
    expect(readRateLimitConfig({ REDIS_URL: '', RATE_LIMIT_SCALE: ' ' }).redis.url).toBeUndefined();
  });

  it('names the variable in errors', () => {
    expect(() => readRateLimitConfig({ RATE_LIMIT_SCALE: 'fast' })).toThrow(/RATE_LIMIT_SCALE/);
    expect(() => readRateLimitConfig({ RATE_LIMIT_SCALE: '-1' })).toThrow(/RATE_LIMIT_SCALE/);
    expect(() => readRateLimitConfig({ RATE_LIMIT_STORE_FAILURE: 'maybe' })).toThrow(/RATE_LIMIT_STORE_FAILURE/);
    expect(() => readRateLimitConfig({ V1_RATE_LIMITS: 'sometimes' })).toThrow(ConfigError);
    expect(() => readRateLimitConfig({ OUTBOUND_RATE_FACTOR: '1.5' })).toThrow(/OUTBOUND_RATE_FACTOR/);
    expect(() => readRateLimitConfig({ REDIS_URL: 'not a url' })).toThrow(/REDIS_URL/);
  });

  it('reports every problem together, a value only where it cannot be a secret', () => {
    let error: unknown;
    try {
      readRateLimitConfig({ RATE_LIMIT_SCALE: 'fast', V1_RATE_LIMITS: 'sometimes', REDIS_URL: 'redis//:hunter2@nowhere' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.map((p) => p.variable).sort()).toEqual(['RATE_LIMIT_SCALE', 'V1_RATE_LIMITS']);
    expect((error as ConfigError).message).toContain('(got "sometimes")');
    expect(() => readRateLimitConfig({ REDIS_URL: 'redis//:hunter2@nowhere' })).toThrow(/^(?![\s\S]*hunter2)[\s\S]*REDIS_URL/);
  });
});
