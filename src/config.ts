import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { onOff, wholeNumber } from './shared/env.js';
import { RateLimitConfigError, readRateLimitConfig, type RateLimitConfig } from './ratelimit/config.js';
import { readWebhookConfig, type WebhookConfig } from './webhooks/config.js';

/**
 * All configuration is environment variables, validated at start: a bad value stops the process
 * with a message naming the variable, never a surprise at the first request.
 */

const EnvSchema = z.object({
  PORT: wholeNumber(0, 65_535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Gateway processes on the one port (node:cluster): a number, or `auto` for one per core. Unset: 1, a single process. */
  WORKERS: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^(auto|\d+)$/, 'must be a whole number or auto')
    .transform((v) => (v === 'auto' ? availableParallelism() : Number(v)))
    .pipe(z.number().min(1, 'must be at least 1').max(256, 'must be at most 256'))
    .default(1),
  /** The real v2 service, e.g. https://api.example.com/v2. Unset: the embedded sandbox at /v2. */
  V2_BASE_URL: z.url({ error: 'must be a URL such as https://api.example.com/v2' }).optional(),
  SANDBOX_API_KEY: z.string().min(1).optional(),
  SANDBOX_API_SECRET: z.string().min(1).optional(),
  /** The sandbox's own v2 limits: `spec` (10/s, 1/s billing, 1/s + 2000/day reports) or `off`. */
  /** Let callers on other machines use the sandbox control API (it lists every api_secret). */
  SANDBOX_PUBLIC: onOff.default(false),
  SANDBOX_RATE_LIMITS: z.enum(['spec', 'off'], { error: 'must be spec or off' }).default('spec'),
  /** Comma-separated api_keys allowed through; unset: any key (v2 still checks every key and secret). */
  ALLOWED_API_KEYS: z.string().optional(),
  /** Keep v1 client connections alive between requests (off by default: see docs/decisions.md). */
  V1_KEEP_ALIVE: onOff.default(false),
  V1_MAX_BODY_BYTES: wholeNumber(1024, 64 * 1024 * 1024).default(4 * 1024 * 1024),
  /** How long a request body may stall before v1gate answers that it is incomplete. */
  V1_BODY_TIMEOUT_MS: wholeNumber(50, 120_000).default(3_000),
  /** A request's headers must arrive within this; the whole request (headers and body) within the next. */
  /** On SIGTERM/SIGINT, how long calls in flight may take to finish before they are answered "unavailable". */
  SHUTDOWN_GRACE_MS: wholeNumber(0, 600_000).default(25_000),
  V1_HEADERS_TIMEOUT_MS: wholeNumber(100, 120_000).default(10_000),
  V1_REQUEST_TIMEOUT_MS: wholeNumber(100, 600_000).default(30_000),
  UPSTREAM_TIMEOUT_MS: wholeNumber(100, 300_000).default(15_000),
  UPSTREAM_CONNECTIONS: wholeNumber(1, 4096).default(128),
  UPSTREAM_MAX_ATTEMPTS: wholeNumber(1, 5).default(2),
  /** The largest v2 answer read; a larger one is an upstream error (memory stays bounded). */
  UPSTREAM_MAX_BODY_BYTES: wholeNumber(65_536, 1024 * 1024 * 1024).default(8 * 1024 * 1024),
  JWT_TTL_SECONDS: wholeNumber(10, 3600).default(60),
  /**
   * How long a read that only feeds a computed v1 field (a meeting's live status) is reused for
   * the same key; 0 turns it off. Writes through v1gate drop it at once (docs/decisions.md).
   */
  AUX_CACHE_TTL_MS: wholeNumber(0, 60_000).default(1_000),
  /** Append every v1 call served to this JSONL file (credentials never written), for `npm run compare`. */
  V1_RECORD_FILE: z.string().min(1).optional(),
  /** Shadow mode: the real v1 (e.g. https://api.example.com) answers every call; v1gate compares its own. */
  V1_PRIMARY_URL: z.url({ error: 'must be a URL such as https://api.example.com' }).optional(),
  SHADOW_SAMPLE: z
    .string()
    .regex(/^(0(\.\d+)?|1(\.0+)?)$/, 'must be a number from 0 to 1')
    .transform(Number)
    .default(1),
  V1_RECORD_MAX_BYTES: wholeNumber(1024, 1024 * 1024 * 1024 * 16).default(64 * 1024 * 1024),
  // Logs, metrics, readiness.
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'must be a pino level' }).default('info'),
  /** Append log lines to this file instead of standard output. */
  LOG_FILE: z.string().min(1).optional(),
  /** Count v1 calls per api_key too (as a 12-character hash). */
  METRICS_PER_KEY: onOff.default(false),
  /** With METRICS_PER_KEY: how many of the busiest proven keys get a series of their own (the rest share one). */
  METRICS_PER_KEY_TOP: wholeNumber(1, 1_000).default(10),
  /** How long /readyz waits for the upstream and the limiter store. */
  READY_TIMEOUT_MS: wholeNumber(50, 30_000).default(2_000),
  /** Required (bearer or ?token=) to open /status from another machine; unset: loopback callers only. */
  STATUS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
});

export type Env = z.output<typeof EnvSchema>;

export interface GatewayConfig {
  port: number;
  host: string;
  /** Processes serving the port; 1 is today's single process (src/cluster/ is not used at all). */
  workers: number;
  v2BaseUrl: string | undefined;
  sandbox: { apiKey: string | undefined; apiSecret: string | undefined; rateLimits: boolean; public: boolean };
  allowedApiKeys: ReadonlySet<string> | undefined;
  keepAlive: boolean;
  maxBodyBytes: number;
  bodyTimeoutMs: number;
  headersTimeoutMs: number;
  shutdownGraceMs: number;
  requestTimeoutMs: number;
  upstream: { timeoutMs: number; connections: number; maxAttempts: number; jwtTtlSeconds: number; maxBodyBytes: number };
  /** Reads kept per key between v1 calls (AUX_CACHE_TTL_MS; 0: off). */
  cache: { auxTtlMs: number };
  /** v1 inbound and v2 outbound limits, in memory or in Redis (src/ratelimit/config.ts lists the variables). */
  rateLimits: RateLimitConfig;
  /** The call recorder (V1_RECORD_FILE), off when file is undefined. */
  record: { file: string | undefined; maxBytes: number };
  /** Shadow mode (V1_PRIMARY_URL), off when primaryUrl is undefined. */
  shadow: { primaryUrl: string | undefined; sample: number };
  ops: {
    logLevel: string;
    logFile: string | undefined;
    metricsPerKey: boolean;
    metricsPerKeyTop: number;
    readyTimeoutMs: number;
    statusToken: string | undefined;
  };
  /** v1 push notifications (src/webhooks/config.ts lists the variables). */
  webhooks: WebhookConfig;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function loadConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = EnvSchema.safeParse(defined);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message} (got ${JSON.stringify(defined[String(i.path[0])])})`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = result.data;
  let rateLimits: RateLimitConfig;
  try {
    rateLimits = readRateLimitConfig(defined);
  } catch (error) {
    if (error instanceof RateLimitConfigError) throw new ConfigError(`Invalid configuration:\n  ${error.message}`);
    throw error;
  }
  let webhooks: WebhookConfig;
  try {
    webhooks = readWebhookConfig(defined);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
  }
  const allowed = e.ALLOWED_API_KEYS?.split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  return {
    port: e.PORT,
    host: e.HOST,
    workers: e.WORKERS,
    v2BaseUrl: e.V2_BASE_URL,
    sandbox: {
      apiKey: e.SANDBOX_API_KEY,
      apiSecret: e.SANDBOX_API_SECRET,
      rateLimits: e.SANDBOX_RATE_LIMITS === 'spec',
      public: e.SANDBOX_PUBLIC,
    },
    allowedApiKeys: allowed && allowed.length > 0 ? new Set(allowed) : undefined,
    keepAlive: e.V1_KEEP_ALIVE,
    maxBodyBytes: e.V1_MAX_BODY_BYTES,
    bodyTimeoutMs: e.V1_BODY_TIMEOUT_MS,
    headersTimeoutMs: e.V1_HEADERS_TIMEOUT_MS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    requestTimeoutMs: Math.max(e.V1_REQUEST_TIMEOUT_MS, e.V1_HEADERS_TIMEOUT_MS),
    upstream: {
      timeoutMs: e.UPSTREAM_TIMEOUT_MS,
      connections: e.UPSTREAM_CONNECTIONS,
      maxAttempts: e.UPSTREAM_MAX_ATTEMPTS,
      maxBodyBytes: e.UPSTREAM_MAX_BODY_BYTES,
      jwtTtlSeconds: e.JWT_TTL_SECONDS,
    },
    cache: { auxTtlMs: e.AUX_CACHE_TTL_MS },
    rateLimits,
    record: { file: e.V1_RECORD_FILE, maxBytes: e.V1_RECORD_MAX_BYTES },
    shadow: { primaryUrl: e.V1_PRIMARY_URL, sample: e.SHADOW_SAMPLE },
    ops: {
      logLevel: e.LOG_LEVEL,
      logFile: e.LOG_FILE,
      metricsPerKey: e.METRICS_PER_KEY,
      metricsPerKeyTop: e.METRICS_PER_KEY_TOP,
      readyTimeoutMs: e.READY_TIMEOUT_MS,
      statusToken: e.STATUS_TOKEN,
    },
    webhooks,
  };
}
