import { z } from 'zod';
import { envSection, numberText, onOff } from '../shared/env.js';
import { DEFAULT_MIN_JITTER_MS, DEFAULT_SAFETY_MARGIN } from './bucket-specs.js';
import { DEFAULT_OUTBOUND_MAX_WAIT_MS } from './outbound-limiter.js';
import { DEFAULT_RATE_LIMIT_PLAN, RATE_LIMIT_PLANS } from '../v2-contract/rate-limit-plans.js';

/**
 * Rate-limit configuration: the schema (defaults are the specs' limits and the choices written in
 * docs/decisions.md, "Rate limits") and its section of the environment (RATE_LIMIT_SETTINGS),
 * which the gateway's one configuration loader (src/config.ts) reads with every other section. Each
 * variable's meaning is described beside its schema (and printed by `--help`).
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
      // Pro: the smallest paid plan's budgets, which an account of any paid plan has at least.
      defaultPlan: z.enum(RATE_LIMIT_PLANS).default(DEFAULT_RATE_LIMIT_PLAN),
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

/** Which environment variable sets each field of RateLimitConfig, to name it in a problem. */
const ENV_OF: Record<string, RateLimitVariable> = {
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
  'v2.defaultPlan': 'OUTBOUND_DEFAULT_PLAN',
  'memory.maxBuckets': 'RATE_LIMIT_MAX_BUCKETS',
};

const VARIABLES = {
  V1_RATE_LIMITS: onOff
    .optional()
    .describe('v1 inbound limits per api_key, on or off (10/s; 1/s for list, billing, plan and poll paths); default on'),
  V2_RATE_LIMITS: onOff
    .optional()
    .describe(
      "v2 outbound limits per v2 account and category, as today's v2 counts them, sized by the account's plan (Pro: Light 30/s, Medium 20/s, Heavy 10/s, Resource-intensive 10/min; Business 80/60/40/s, 20/min), with a safety margin so v2 never answers 429 because of v1gate (on or off); default on",
    ),
  RATE_LIMIT_SCALE: numberText.optional().describe('multiplies every limit, both directions (tests, benchmarks); default 1'),
  REDIS_URL: z
    .string()
    .trim()
    .optional()
    .describe(
      'share the limits and the webhook journal between gateway processes through this Redis (also the cut-over state of shadow mode and the proven secrets); unset: each process keeps them itself',
    ),
  RATE_LIMIT_STORE_FAILURE: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['open', 'closed'], { error: 'must be open or closed' }))
    .optional()
    .describe(
      'when the shared store (Redis, or the primary of WORKERS>1) errors or is slow: open (each process keeps its own limits) or closed (refuse); default open',
    ),
  RATE_LIMIT_REDIS_TIMEOUT_MS: numberText.optional().describe('a Redis answer slower than this is a failure; default 200'),
  RATE_LIMIT_REDIS_PREFIX: z.string().optional().describe('prefix of every Redis key of the limits; default v1gate:rl:'),
  RATE_LIMIT_LEASE_MS: numberText
    .optional()
    .describe(
      'with a shared store (REDIS_URL, or the primary of WORKERS>1): each process leases the tokens a bucket refills in this time and serves them from memory (at most a quarter of the burst; buckets refilling under 2 tokens in it stay exact), so P processes overshoot by at most P leases; 0: one round trip to the shared store per take; default 100',
    ),
  OUTBOUND_MAX_WAIT_MS: numberText
    .optional()
    .describe(
      "how long one v1 call's v2 calls may wait for outbound tokens before the call is answered the v1 rate-limit error; default 30000",
    ),
  OUTBOUND_MAX_QUEUE: numberText.optional().describe('v2 calls waiting per v2 account and category before refusing; default 1000'),
  OUTBOUND_MAX_BACKLOG_MS: numberText
    .optional()
    .describe(
      "a new v1 call is answered the v1 rate-limit error at once when its v2 account's category already has this much work queued; default 2000",
    ),
  OUTBOUND_DEFAULT_PLAN: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(RATE_LIMIT_PLANS, { error: `must be ${RATE_LIMIT_PLANS.join(' or ')}` }))
    .optional()
    .describe(
      "the v2 plan (pro or business) whose per-category limits size a v2 account's outbound budgets when its credential map entry has no plan (and a sandbox account has none set); Pro's are the smallest a paid account has; default pro",
    ),
  OUTBOUND_RATE_FACTOR: numberText
    .optional()
    .describe("our v2 send rate as a fraction of v2's limit (the jitter allowance does the rest of the margin); default 0.99"),
  OUTBOUND_JITTER_MS: numberText
    .optional()
    .describe(
      'the most arrival jitter (ms) the v2 margin absorbs: all of it until calls have been answered in the last 10 s, and for 60 s after a v2 429; default 300',
    ),
  OUTBOUND_MIN_JITTER_MS: numberText
    .optional()
    .describe(
      "the least arrival jitter (ms) the v2 margin absorbs, whatever the calls' send→answer spreads measure; set it to OUTBOUND_JITTER_MS for a fixed margin; default 10",
    ),
  RATE_LIMIT_MAX_BUCKETS: numberText.optional().describe('in-memory buckets kept (least recently used go first); default 100000'),
};

type RateLimitVariable = keyof typeof VARIABLES;

/**
 * The rate-limit section of the configuration (src/config.ts reads every section together). Old
 * names are still read beside the names that replaced them: operators may have set them.
 */
export const RATE_LIMIT_SETTINGS = envSection({
  title: 'Rate limits (v1 inbound, v2 outbound)',
  variables: VARIABLES,
  aliases: { RATE_LIMIT_REDIS_LEASE_MS: 'RATE_LIMIT_LEASE_MS', RATE_LIMIT_REDIS_FAILURE: 'RATE_LIMIT_STORE_FAILURE' },
  secret: ['REDIS_URL'],
  build(e, problem): RateLimitConfig | undefined {
    const parsed = RateLimitConfigSchema.safeParse({
      v1: { enabled: e.V1_RATE_LIMITS },
      v2: {
        enabled: e.V2_RATE_LIMITS,
        maxWaitMs: e.OUTBOUND_MAX_WAIT_MS,
        maxQueue: e.OUTBOUND_MAX_QUEUE,
        maxBacklogMs: e.OUTBOUND_MAX_BACKLOG_MS,
        rateFactor: e.OUTBOUND_RATE_FACTOR,
        jitterMs: e.OUTBOUND_JITTER_MS,
        minJitterMs: e.OUTBOUND_MIN_JITTER_MS,
        defaultPlan: e.OUTBOUND_DEFAULT_PLAN,
      },
      scale: e.RATE_LIMIT_SCALE,
      redis: { url: e.REDIS_URL, timeoutMs: e.RATE_LIMIT_REDIS_TIMEOUT_MS, keyPrefix: e.RATE_LIMIT_REDIS_PREFIX },
      sharedStoreFailure: e.RATE_LIMIT_STORE_FAILURE,
      leaseMs: e.RATE_LIMIT_LEASE_MS,
      memory: { maxBuckets: e.RATE_LIMIT_MAX_BUCKETS },
    } satisfies RateLimitConfigInput);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) problem(ENV_OF[issue.path.join('.')] ?? 'V1_RATE_LIMITS', issue.message);
    return undefined;
  },
});
