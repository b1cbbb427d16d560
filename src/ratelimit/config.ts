import { z } from 'zod';
import { onOff } from '../shared/env.js';
import { DEFAULT_MIN_JITTER_MS, DEFAULT_SAFETY_MARGIN } from './bucket-specs.js';
import { DEFAULT_OUTBOUND_MAX_WAIT_MS } from './outbound-limiter.js';

/**
 * Rate-limit configuration: the schema (defaults are the specs' limits and the choices written in
 * docs/decisions.md, "Rate limits") and its reading from environment variables. The gateway's
 * main configuration composes `readRateLimitConfig`.
 *
 * | variable | meaning | default |
 * |---|---|---|
 * | V1_RATE_LIMITS | `on` / `off`: the v1 inbound limits | on |
 * | V2_RATE_LIMITS | `on` / `off`: the v2 outbound limits | on |
 * | RATE_LIMIT_SCALE | multiplies every limit, both directions (tests, benchmarks) | 1 |
 * | REDIS_URL | share buckets between processes through this Redis; unset: in memory | — |
 * | RATE_LIMIT_STORE_FAILURE | `open` / `closed`: what an error or timeout of the shared store (Redis, or the primary of WORKERS>1) means; `RATE_LIMIT_REDIS_FAILURE`, its name before it applied to both, is still read | open |
 * | RATE_LIMIT_REDIS_TIMEOUT_MS | a Redis answer slower than this is a failure | 200 |
 * | RATE_LIMIT_REDIS_PREFIX | prefix of every Redis key | v1gate:rl: |
 * | RATE_LIMIT_LEASE_MS | with a shared store (Redis, or the primary of WORKERS>1): each process leases the tokens a bucket refills in this time (0: a round trip per take); `RATE_LIMIT_REDIS_LEASE_MS`, its name before it applied to both, is still read | 100 |
 * | OUTBOUND_MAX_WAIT_MS | longest wait of a v2 call for its token | 30000 |
 * | OUTBOUND_MAX_QUEUE | v2 calls waiting per api_key and class before refusing | 1000 |
 * | OUTBOUND_MAX_BACKLOG_MS | a new v1 call is refused when its key's class already has this much queued work | 2000 |
 * | OUTBOUND_RATE_FACTOR | our v2 send rate as a fraction of the v2 limit | 0.99 |
 * | OUTBOUND_JITTER_MS | the most arrival jitter (ms) the v2 margin absorbs: all of it before the first answers and after a 429 | 300 |
 * | OUTBOUND_MIN_JITTER_MS | the least arrival jitter (ms) absorbed whatever the calls' send→answer spreads measure; = OUTBOUND_JITTER_MS: a fixed margin | 10 |
 * | RATE_LIMIT_MAX_BUCKETS | in-memory buckets kept (least recently used go first) | 100000 |
 */

export const RateLimitConfigSchema = z.object({
  v1: z.object({ enabled: z.boolean().default(true) }).prefault({}),
  v2: z
    .object({
      enabled: z.boolean().default(true),
      rateFactor: z.number().gt(0).lte(1).default(DEFAULT_SAFETY_MARGIN.rateFactor),
      jitterMs: z.number().int().min(0).default(DEFAULT_SAFETY_MARGIN.jitterMs),
      minJitterMs: z.number().int().min(0).default(DEFAULT_MIN_JITTER_MS),
      maxWaitMs: z.number().int().min(0).default(DEFAULT_OUTBOUND_MAX_WAIT_MS),
      maxQueue: z.number().int().min(1).default(1_000),
      maxBacklogMs: z.number().int().min(0).default(2_000),
    })
    .prefault({}),
  scale: z.number().positive().default(1),
  redis: z
    .object({
      url: z.string().url().optional(),
      // 200 ms: on a busy 2-core host event-loop lag alone passed 50 ms, and a false timeout sends
      // the process to its own buckets (each process then admits the full limit).
      timeoutMs: z.number().int().positive().default(200),
      keyPrefix: z.string().default('v1gate:rl:'),
    })
    .prefault({}),
  // What an error or timeout of the shared store (Redis, or the cluster's primary) means: `open`, this
  // process's own buckets; `closed`, a refusal (docs/decisions.md, "Rate limits").
  sharedStoreFailure: z.enum(['open', 'closed']).default('open'),
  // Local leases in front of any shared store (lease-store.ts): 100 ms keeps the overshoot per
  // process to a tenth of a second's rate while cutting round trips to one per lease on busy keys;
  // 0 turns them off.
  leaseMs: z.number().int().min(0).default(100),
  memory: z.object({ maxBuckets: z.number().int().min(1).default(100_000) }).prefault({}),
});

export type RateLimitConfig = z.infer<typeof RateLimitConfigSchema>;
export type RateLimitConfigInput = z.input<typeof RateLimitConfigSchema>;

/** The defaults (spec limits, in memory), with any overrides; throws on invalid values. */
export function rateLimitConfig(input: RateLimitConfigInput = {}): RateLimitConfig {
  return RateLimitConfigSchema.parse(input);
}

const number = z.string().trim().pipe(z.coerce.number());

const EnvSchema = z.object({
  V1_RATE_LIMITS: onOff.optional(),
  V2_RATE_LIMITS: onOff.optional(),
  RATE_LIMIT_SCALE: number.optional(),
  REDIS_URL: z.string().trim().optional(),
  RATE_LIMIT_STORE_FAILURE: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['open', 'closed']))
    .optional(),
  RATE_LIMIT_REDIS_TIMEOUT_MS: number.optional(),
  RATE_LIMIT_REDIS_PREFIX: z.string().optional(),
  RATE_LIMIT_LEASE_MS: number.optional(),
  OUTBOUND_MAX_WAIT_MS: number.optional(),
  OUTBOUND_MAX_QUEUE: number.optional(),
  OUTBOUND_MAX_BACKLOG_MS: number.optional(),
  OUTBOUND_RATE_FACTOR: number.optional(),
  OUTBOUND_JITTER_MS: number.optional(),
  OUTBOUND_MIN_JITTER_MS: number.optional(),
  RATE_LIMIT_MAX_BUCKETS: number.optional(),
});

/** Which environment variable sets each field, to name it in errors. */
const ENV_OF: Record<string, string> = {
  'v1.enabled': 'V1_RATE_LIMITS',
  'v2.enabled': 'V2_RATE_LIMITS',
  scale: 'RATE_LIMIT_SCALE',
  'redis.url': 'REDIS_URL',
  sharedStoreFailure: 'RATE_LIMIT_STORE_FAILURE',
  'redis.timeoutMs': 'RATE_LIMIT_REDIS_TIMEOUT_MS',
  'redis.keyPrefix': 'RATE_LIMIT_REDIS_PREFIX',
  leaseMs: 'RATE_LIMIT_LEASE_MS',
  'v2.maxWaitMs': 'OUTBOUND_MAX_WAIT_MS',
  'v2.maxQueue': 'OUTBOUND_MAX_QUEUE',
  'v2.maxBacklogMs': 'OUTBOUND_MAX_BACKLOG_MS',
  'v2.rateFactor': 'OUTBOUND_RATE_FACTOR',
  'v2.jitterMs': 'OUTBOUND_JITTER_MS',
  'v2.minJitterMs': 'OUTBOUND_MIN_JITTER_MS',
  'memory.maxBuckets': 'RATE_LIMIT_MAX_BUCKETS',
};

/**
 * Old names still read, each beside the name that replaced it (the new one wins when both are set):
 * operators may have set them.
 */
const ALIASES = { RATE_LIMIT_REDIS_LEASE_MS: 'RATE_LIMIT_LEASE_MS', RATE_LIMIT_REDIS_FAILURE: 'RATE_LIMIT_STORE_FAILURE' } as const;

export class RateLimitConfigError extends Error {
  override readonly name = 'RateLimitConfigError';
}

/** Read the rate-limit configuration from environment variables (unset or empty: the default). */
export function readRateLimitConfig(env: Record<string, string | undefined> = process.env): RateLimitConfig {
  const present: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && value.trim() !== '') present[name] = value;
  // A variable read under its old name is named so in errors: that is the one the operator set.
  const setAs: Record<string, string> = {};
  for (const [old, name] of Object.entries(ALIASES)) {
    if (present[old] === undefined || present[name] !== undefined) continue;
    present[name] = present[old];
    setAs[name] = old;
  }
  const envName = (path: string) => {
    const name = ENV_OF[path] ?? path;
    return setAs[name] ?? name;
  };
  const read = EnvSchema.safeParse(present);
  if (!read.success) throw new RateLimitConfigError(describe(read.error, envName));
  const e = read.data;
  const input: RateLimitConfigInput = {
    v1: { enabled: e.V1_RATE_LIMITS },
    v2: {
      enabled: e.V2_RATE_LIMITS,
      maxWaitMs: e.OUTBOUND_MAX_WAIT_MS,
      maxQueue: e.OUTBOUND_MAX_QUEUE,
      maxBacklogMs: e.OUTBOUND_MAX_BACKLOG_MS,
      rateFactor: e.OUTBOUND_RATE_FACTOR,
      jitterMs: e.OUTBOUND_JITTER_MS,
      minJitterMs: e.OUTBOUND_MIN_JITTER_MS,
    },
    scale: e.RATE_LIMIT_SCALE,
    redis: {
      url: e.REDIS_URL,
      timeoutMs: e.RATE_LIMIT_REDIS_TIMEOUT_MS,
      keyPrefix: e.RATE_LIMIT_REDIS_PREFIX,
    },
    sharedStoreFailure: e.RATE_LIMIT_STORE_FAILURE,
    leaseMs: e.RATE_LIMIT_LEASE_MS,
    memory: { maxBuckets: e.RATE_LIMIT_MAX_BUCKETS },
  };
  const parsed = RateLimitConfigSchema.safeParse(input);
  if (!parsed.success) throw new RateLimitConfigError(describe(parsed.error, envName));
  return parsed.data;
}

function describe(error: z.ZodError, nameOf: (path: string) => string): string {
  const lines = error.issues.map((issue) => `${nameOf(issue.path.join('.'))}: ${issue.message}`);
  return `Invalid rate-limit configuration:\n  ${lines.join('\n  ')}`;
}
