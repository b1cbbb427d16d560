import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { TRACING_SETTINGS, type TracingConfig } from './ops/tracing-config.js';
import { RATE_LIMIT_SETTINGS, type RateLimitConfig } from './ratelimit/config.js';
import { envSection, onOff, readEnv, wholeNumber, type Env } from './shared/env.js';
import { WEBHOOK_SETTINGS, type WebhookConfig } from './webhooks/config.js';
import { COMPARE_SETTINGS } from './compare/config.js';
import { DOWNLOAD_SETTINGS, type DownloadConfig } from './downloads/config.js';
import { CREDENTIAL_SETTINGS, type CredentialConfig } from './upstream/auth/config.js';
import { BUFFERED_BODIES_PER_BODY } from './http/request-body.js';
import { commaList, isProxyEntry, type PrivateAccessRules } from './shared/private-access.js';

export { ConfigError, type ConfigProblem } from './shared/env.js';

/**
 * All configuration is environment variables, read by one loader at start: each part of v1gate
 * contributes a section (its variables as zod schemas, and what it makes of them), and every
 * problem of every section is reported together, each naming its variable, never a secret's value.
 * A bad value stops the process at start, never a surprise at the first request.
 */

const SERVER = envSection({
  title: 'The server',
  variables: {
    PORT: wholeNumber(0, 65_535).default(8080).describe('port of the gateway (and of the embedded sandbox); default 8080'),
    HOST: z.string().min(1).default('127.0.0.1').describe('address to listen on (0.0.0.0 for all); default 127.0.0.1'),
    WORKERS: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^(auto|\d+)$/, 'must be a whole number or auto')
      .transform((v) => (v === 'auto' ? availableParallelism() : Number(v)))
      .pipe(z.number().min(1, 'must be at least 1').max(256, 'must be at most 256'))
      .default(1)
      .describe('gateway processes on the one port (node:cluster), or auto for one per core; unset: a single process'),
    ALLOWED_API_KEYS: z
      .string()
      .optional()
      .describe('comma-separated api_keys allowed through /v1 and /sdk/signature; unset: any key (v2 still checks every key and secret)'),
    V1_KEEP_ALIVE: onOff
      .default(false)
      .describe(
        'keep v1 client connections alive between requests; off by default for legacy clients (docs/decisions.md, "Keep-alive policy for v1 clients"); default off',
      ),
    V1_MAX_BODY_BYTES: wholeNumber(1024, 64 * 1024 * 1024)
      .default(4 * 1024 * 1024)
      .describe(
        'largest request body, on every route (v1, the SDK signer, the webhook intake, the sandbox); a declared larger one is refused before it is read; default 4194304',
      ),
    V1_BODY_TIMEOUT_MS: wholeNumber(50, 120_000)
      .default(3_000)
      .describe('a request body that stalls this long is answered as incomplete; default 3000'),
    V1_MAX_BUFFERED_BYTES: wholeNumber(1024, 16 * 1024 * 1024 * 1024)
      .optional()
      .describe(
        "the most request-body bytes held at once, all requests together (each body's first 16 KiB not counted, so ordinary calls are never refused by it); past it a body is refused as busy and its connection closed; default 16 × V1_MAX_BODY_BYTES (64 MiB)",
      ),
    V1_MAX_CONNECTIONS: wholeNumber(1, 1_000_000)
      .optional()
      .describe(
        "the most client connections open at once (per process with WORKERS>1); past it a new connection is closed as soon as it is accepted (the gateway's own connections to its embedded sandbox, on a loopback listener of its own, do not count); default 4096, or half the process's open-file limit where that is lower",
      ),
    V1_MAX_CONNECTIONS_PER_ADDRESS: wholeNumber(1, 1_000_000)
      .optional()
      .describe(
        "the most connections one client address holds at once (an IPv4 address, also as ::ffff:a.b.c.d; an IPv6 address's /64); past it that address's new connection is closed as soon as it is accepted; behind a reverse proxy every connection comes from the proxy's address: set it to V1_MAX_CONNECTIONS there and let the proxy cap each client (nginx limit_conn); default a quarter of V1_MAX_CONNECTIONS",
      ),
    V1_MAX_FIELDS: wholeNumber(10, 100_000)
      .default(1_000)
      .describe("the most form fields one request may carry, query string and body together (PHP-era v1's cap); default 1000"),
    V1_HEADERS_TIMEOUT_MS: wholeNumber(100, 120_000)
      .default(10_000)
      .describe("a request's headers must arrive within this (slow-drip clients are cut off); default 10000"),
    V1_REQUEST_TIMEOUT_MS: wholeNumber(100, 600_000)
      .default(30_000)
      .describe(
        'the whole request, headers and body, must arrive within this, on every route (a body still dripping is cut); default 30000',
      ),
    SHUTDOWN_GRACE_MS: wholeNumber(0, 600_000)
      .default(25_000)
      .describe(
        'on SIGTERM/SIGINT, how long calls in flight may take before they are answered "unavailable" (a second signal stops at once); a rollback in progress then gets up to UPSTREAM_TIMEOUT_MS more to finish; default 25000',
      ),
  },
  build: (e, problem) => {
    const maxBufferedBytes = e.V1_MAX_BUFFERED_BYTES ?? BUFFERED_BODIES_PER_BODY * e.V1_MAX_BODY_BYTES;
    if (maxBufferedBytes < e.V1_MAX_BODY_BYTES)
      problem('V1_MAX_BUFFERED_BYTES', `must be at least V1_MAX_BODY_BYTES (${e.V1_MAX_BODY_BYTES}): no body of that size could be read`);
    const allowed = e.ALLOWED_API_KEYS?.split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    return {
      port: e.PORT,
      host: e.HOST,
      workers: e.WORKERS,
      allowedApiKeys: allowed && allowed.length > 0 ? new Set(allowed) : undefined,
      keepAlive: e.V1_KEEP_ALIVE,
      maxBodyBytes: e.V1_MAX_BODY_BYTES,
      bodyTimeoutMs: e.V1_BODY_TIMEOUT_MS,
      maxFields: e.V1_MAX_FIELDS,
      maxBufferedBytes,
      maxConnections: e.V1_MAX_CONNECTIONS,
      maxConnectionsPerAddress: e.V1_MAX_CONNECTIONS_PER_ADDRESS,
      headersTimeoutMs: e.V1_HEADERS_TIMEOUT_MS,
      shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
      requestTimeoutMs: Math.max(e.V1_REQUEST_TIMEOUT_MS, e.V1_HEADERS_TIMEOUT_MS),
    };
  },
});

const UPSTREAM = envSection({
  title: 'The v2 service',
  variables: {
    V2_BASE_URL: z
      .url({ error: 'must be a URL such as https://api.example.com/v2' })
      // A user and password in it would be printed wherever the URL is, and could be sent nowhere:
      // a v2 call's Authorization header carries the app's token, and fetch refuses such a URL.
      .refine((v) => !URL.canParse(v) || (new URL(v).username === '' && new URL(v).password === ''), {
        error: 'must not carry a user or password (https://user:password@...): v2 calls authenticate with the app’s token alone',
      })
      .optional()
      .describe('the real v2 service, e.g. https://api.example.com/v2 (no user or password in it); unset: the embedded sandbox at /v2'),
    UPSTREAM_TIMEOUT_MS: wholeNumber(100, 300_000)
      .default(15_000)
      .describe('timeout of one v2 call, its wait for a connection and its retries included; default 15000'),
    UPSTREAM_CONNECTIONS: wholeNumber(1, 4096).default(128).describe('keep-alive connections to v2; default 128'),
    UPSTREAM_MAX_ATTEMPTS: wholeNumber(1, 5).default(2).describe('attempts for v2 calls safe to repeat (GETs); default 2'),
    UPSTREAM_MAX_BODY_BYTES: wholeNumber(65_536, 256 * 1024 * 1024)
      .default(8 * 1024 * 1024)
      .describe(
        "the largest v2 answer read (at most 256 MiB: an answer's text must fit in one of V8's strings, 512 MiB); a larger one is answered as the v1 unavailable error, read no further; default 8388608",
      ),
    JWT_TTL_SECONDS: wholeNumber(10, 3600).default(60).describe('lifetime of the v2 JWTs v1gate mints; default 60'),
    V2_FOLLOW_API_URL: onOff
      .default(true)
      .describe(
        "send an OAuth token's calls to the api_url its token answer names (the API host of its account's data region, such as https://api-eu.zoom.us), when that is https and a name under V2_BASE_URL's parent domain (never from an address such as 127.0.0.1); off: always V2_BASE_URL; default on",
      ),
    AUX_CACHE_TTL_MS: wholeNumber(0, 60_000)
      .default(1_000)
      .describe(
        'how long a v2 read that only feeds a computed v1 field (the host\'s live meetings behind /meeting/get\'s status) is reused for the same api_key and secret; a write by that key through v1gate drops it at once; 0: off (docs/decisions.md, "Reads kept between calls"); default 1000',
      ),
  },
  secret: ['V2_BASE_URL'],
  build: (e) => ({
    v2BaseUrl: e.V2_BASE_URL,
    upstream: {
      timeoutMs: e.UPSTREAM_TIMEOUT_MS,
      connections: e.UPSTREAM_CONNECTIONS,
      maxAttempts: e.UPSTREAM_MAX_ATTEMPTS,
      maxBodyBytes: e.UPSTREAM_MAX_BODY_BYTES,
      jwtTtlSeconds: e.JWT_TTL_SECONDS,
      followApiUrl: e.V2_FOLLOW_API_URL,
    },
    cache: { auxTtlMs: e.AUX_CACHE_TTL_MS },
  }),
});

const SANDBOX = envSection({
  title: 'The embedded v2 sandbox (no V2_BASE_URL)',
  variables: {
    SANDBOX_API_KEY: z
      .string()
      .min(1)
      .optional()
      .describe(
        "the sandbox master account's api_key; fixed with SANDBOX_API_SECRET, the account and its owner keep their ids across restarts; unset: random at every start",
      ),
    SANDBOX_API_SECRET: z.string().min(1).optional().describe("the sandbox master account's api_secret; unset: random at every start"),
    SANDBOX_OAUTH_CLIENT_ID: z
      .string()
      .min(1)
      .optional()
      .describe("the client id of the sandbox master account's server-to-server OAuth app; unset: random"),
    SANDBOX_OAUTH_CLIENT_SECRET: z
      .string()
      .min(1)
      .optional()
      .describe("the client secret of the sandbox master account's server-to-server OAuth app; unset: random"),
    SANDBOX_DATA_FILE: z
      .string()
      .min(1)
      .optional()
      .describe(
        "keep the sandbox's data (users, meetings, groups...) in this file across restarts (needs SANDBOX_API_KEY and SANDBOX_API_SECRET: the data belongs to that account); unset: lost at every stop",
      ),
    SANDBOX_PUBLIC: onOff
      .default(false)
      .describe(
        'let callers on other machines use the sandbox control API under /sandbox (its account list leaves the secrets out for them); off: loopback callers only, with a loopback or PRIVATE_HOSTS Host; default off',
      ),
    SANDBOX_RATE_LIMITS: z
      .enum(['spec', 'off'], { error: 'must be spec or off' })
      .default('spec')
      .describe("the sandbox's own v2 limits: spec (10/s, 1/s billing, 1/s + 2000/day reports) or off; default spec"),
    SANDBOX_V2_AUTH: z
      .enum(['today', 'legacy'], { error: 'must be today or legacy' })
      .default('today')
      .describe(
        "how the sandbox's v2 authenticates: today, as the service does now (server-to-server OAuth access tokens in the Authorization: Bearer header only; a JWT or an ?access_token= is answered 401 code 124), or legacy, as the old v2 reference (the account's own HS256 JWT and query tokens too), for a team testing against an old snapshot; default today",
      ),
    SANDBOX_TRAFFIC_LOG: z
      .string()
      .min(1)
      .optional()
      .describe(
        "append every v2 request and answer the sandbox serves, one JSON line each, to a file per process in this folder, so a run's traffic can be checked against today's documents (the test suite's global setup sets it; docs/today-contract.md). The lines hold what callers sent: for tests and local runs; unset: none kept",
      ),
  },
  secret: ['SANDBOX_API_SECRET', 'SANDBOX_OAUTH_CLIENT_SECRET'],
  build: (e, problem) => {
    // The data belongs to one account, whose ids come from the fixed pair: random ones would make
    // every start another account, and the file another sandbox's data.
    if (e.SANDBOX_DATA_FILE && !(e.SANDBOX_API_KEY && e.SANDBOX_API_SECRET))
      problem('SANDBOX_DATA_FILE', 'needs SANDBOX_API_KEY and SANDBOX_API_SECRET: the data belongs to the account they name');
    return {
      apiKey: e.SANDBOX_API_KEY,
      apiSecret: e.SANDBOX_API_SECRET,
      oauthClientId: e.SANDBOX_OAUTH_CLIENT_ID,
      oauthClientSecret: e.SANDBOX_OAUTH_CLIENT_SECRET,
      rateLimits: e.SANDBOX_RATE_LIMITS === 'spec',
      v2Auth: e.SANDBOX_V2_AUTH,
      public: e.SANDBOX_PUBLIC,
      dataFile: e.SANDBOX_DATA_FILE,
      trafficLog: e.SANDBOX_TRAFFIC_LOG,
    };
  },
});

const OPS = envSection({
  title: 'Logs, metrics, readiness',
  variables: {
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'must be a pino level' })
      .default('info')
      .describe('fatal, error, warn, info, debug, trace or silent; default info'),
    LOG_FILE: z
      .string()
      .min(1)
      .optional()
      .describe('append log lines to this file; unset: standard output (one readable line per event on a terminal, JSON otherwise)'),
    LOG_FORMAT: z
      .enum(['auto', 'json', 'pretty'], { error: 'must be auto, json or pretty' })
      .default('auto')
      .describe(
        "json: every line the process writes is a JSON log line, the start banner, the stop line and the start's warnings included (for a log collector); pretty: readable log lines; auto: readable on a terminal, JSON log lines otherwise, the banner as text; default auto",
      ),
    PID_FILE: z
      .string()
      .min(1)
      .optional()
      .describe(
        "write the gateway's process id here while it runs, for signals and npm run reload; a file naming another running gateway stops the start; unset: none",
      ),
    ON_SIGHUP: z
      .enum(['auto', 'reload', 'stop'], { error: 'must be auto, reload or stop' })
      .default('auto')
      .describe(
        'what a SIGHUP does: reload (read V2_CREDENTIALS_FILE again, as a service expects), stop (drain, as a closed terminal expects), or auto: stop when started by npm or from a terminal, reload otherwise; SIGUSR2 always reloads; default auto',
      ),
    METRICS_PER_KEY: onOff
      .default(false)
      .describe(
        'also count calls (and the busiest limiter queues) per api_key, as a 12-character SHA-256 prefix, for the busiest keys whose secret was proven, the rest under other; default off',
      ),
    METRICS_PER_KEY_TOP: wholeNumber(1, 1_000)
      .default(10)
      .describe(
        'with METRICS_PER_KEY: how many of the busiest proven keys get a series of their own (at most this plus one other series); default 10',
      ),
    READY_TIMEOUT_MS: wholeNumber(50, 30_000)
      .default(2_000)
      .describe('how long /readyz waits for the upstream and the limiter store; default 2000'),
    READY_PROBE_EVERY_MS: wholeNumber(0, 60_000)
      .default(1_000)
      .describe(
        '/readyz probes the upstream one request at a time, its answer given to every /readyz for this long after it ends (a flood costs v2 one request a period); 0: each asks afresh; default 1000',
      ),
    STATUS_TOKEN: z
      .string()
      .min(16, 'must be at least 16 characters')
      .optional()
      .describe(
        'token (16 characters or more) for /status; once set, every caller needs it, those on this machine too; unset: loopback callers only',
      ),
    METRICS_TOKEN: z
      .string()
      .min(16, 'must be at least 16 characters')
      .optional()
      .describe(
        'token (16 characters or more) that makes /metrics a private page asking for it (Authorization: Bearer); unset: /metrics open to any caller',
      ),
    PRIVATE_HOSTS: z
      .string()
      .optional()
      .refine(
        (v) => v === undefined || commaList(v).every((entry) => !entry.includes('/') || isProxyEntry(entry)),
        'must be comma-separated host names or CIDRs',
      )
      .describe(
        'comma-separated Host names (a port optional: with one, that port only) the private pages answer besides localhost, 127.0.0.1 and [::1], or CIDRs (10.0.0.0/8) a Host written as an address may fall in, as a pod address is when Prometheus scrapes /metrics in a cluster; any other Host is refused with 403; unset: none',
      ),
    TRUSTED_PROXIES: z
      .string()
      .optional()
      .refine((v) => v === undefined || commaList(v).every(isProxyEntry), 'must be comma-separated addresses or CIDRs')
      .describe(
        'comma-separated addresses or CIDRs of the reverse proxies whose X-Forwarded-For, Forwarded and X-Real-IP the private pages believe; unset: a forwarded request to a private page is refused with 403',
      ),
  },
  secret: ['STATUS_TOKEN', 'METRICS_TOKEN'],
  build: (e) => ({
    logLevel: e.LOG_LEVEL,
    logFile: e.LOG_FILE,
    logFormat: e.LOG_FORMAT,
    pidFile: e.PID_FILE,
    onSighup: e.ON_SIGHUP,
    metricsPerKey: e.METRICS_PER_KEY,
    metricsPerKeyTop: e.METRICS_PER_KEY_TOP,
    readyTimeoutMs: e.READY_TIMEOUT_MS,
    readyProbeEveryMs: e.READY_PROBE_EVERY_MS,
    statusToken: e.STATUS_TOKEN,
    metricsToken: e.METRICS_TOKEN,
    privateAccess: { hosts: commaList(e.PRIVATE_HOSTS ?? ''), trustedProxies: commaList(e.TRUSTED_PROXIES ?? '') },
  }),
});

/** Every section of the configuration, in the order `--help` lists them. */
export const SETTINGS = {
  server: SERVER,
  upstream: UPSTREAM,
  credentials: CREDENTIAL_SETTINGS,
  sandbox: SANDBOX,
  rateLimits: RATE_LIMIT_SETTINGS,
  webhooks: WEBHOOK_SETTINGS,
  downloads: DOWNLOAD_SETTINGS,
  compare: COMPARE_SETTINGS,
  ops: OPS,
  tracing: TRACING_SETTINGS,
};

export interface GatewayConfig {
  port: number;
  host: string;
  /** Processes serving the port; 1 is a single process (src/cluster/ is not used at all). */
  workers: number;
  v2BaseUrl: string | undefined;
  sandbox: {
    apiKey: string | undefined;
    apiSecret: string | undefined;
    oauthClientId: string | undefined;
    oauthClientSecret: string | undefined;
    rateLimits: boolean;
    /** SANDBOX_V2_AUTH: today's OAuth-only v2, or the old reference's JWTs and query tokens too. */
    v2Auth: 'today' | 'legacy';
    public: boolean;
    /** Where the sandbox's data is kept across restarts (SANDBOX_DATA_FILE); undefined: memory only. */
    dataFile: string | undefined;
    /** The folder the sandbox's v2 traffic is appended to (SANDBOX_TRAFFIC_LOG); undefined: none kept. */
    trafficLog: string | undefined;
  };
  /** The credential map and OAuth toward v2 (src/upstream/auth/config.ts lists the variables). */
  credentials: CredentialConfig;
  allowedApiKeys: ReadonlySet<string> | undefined;
  keepAlive: boolean;
  maxBodyBytes: number;
  bodyTimeoutMs: number;
  /** The most form fields one request may carry (V1_MAX_FIELDS). */
  maxFields: number;
  /** The most request-body bytes held at once, all requests together (V1_MAX_BUFFERED_BYTES). */
  maxBufferedBytes: number;
  /** The most client connections open at once (V1_MAX_CONNECTIONS); undefined: the server's default, from the open-file limit. */
  maxConnections: number | undefined;
  /** The most connections one client address holds at once (V1_MAX_CONNECTIONS_PER_ADDRESS); undefined: a quarter of the connection cap. */
  maxConnectionsPerAddress: number | undefined;
  headersTimeoutMs: number;
  shutdownGraceMs: number;
  requestTimeoutMs: number;
  upstream: {
    timeoutMs: number;
    connections: number;
    maxAttempts: number;
    jwtTtlSeconds: number;
    maxBodyBytes: number;
    /** V2_FOLLOW_API_URL: an OAuth token's calls go to its answer's `api_url` when that is a host of the same service. */
    followApiUrl: boolean;
  };
  /** Reads kept per key between v1 calls (AUX_CACHE_TTL_MS; 0: off). */
  cache: { auxTtlMs: number };
  /** v1 inbound and v2 outbound limits, in memory or in Redis (src/ratelimit/config.ts lists the variables). */
  rateLimits: RateLimitConfig;
  /** The call recorder (V1_RECORD_FILE), off when file is undefined. */
  record: { file: string | undefined; maxBytes: number };
  /** Shadow mode (V1_PRIMARY_URL), off when primaryUrl is undefined; its cut-over (src/compare/cutover.ts). */
  shadow: {
    primaryUrl: string | undefined;
    sample: number;
    promoteAfter: number;
    promotedSample: number;
    /** v1 paths as written (`meeting/create`); the gateway checks each is a write it serves. */
    serveWrites: string[];
    stateFile: string | undefined;
    /** The largest answer compared (SHADOW_MAX_COMPARED_BYTES). */
    maxComparedBytes: number;
  };
  ops: {
    logLevel: string;
    logFile: string | undefined;
    /** LOG_FORMAT: json makes the command line's own lines (banner, stop, warnings) log lines too. */
    logFormat: 'auto' | 'json' | 'pretty';
    /** Holds the process id while the gateway runs (PID_FILE), for `reload` and signals. */
    pidFile: string | undefined;
    /** What a SIGHUP does (ON_SIGHUP): `auto` is decided by how the process was started (src/cli/hang-up.ts). */
    onSighup: 'auto' | 'reload' | 'stop';
    metricsPerKey: boolean;
    metricsPerKeyTop: number;
    readyTimeoutMs: number;
    /** How long one /readyz probe's answer serves every /readyz after it (READY_PROBE_EVERY_MS). */
    readyProbeEveryMs: number;
    statusToken: string | undefined;
    /** Set: /metrics is a private page asking for it. */
    metricsToken: string | undefined;
    /** Who may see the private pages besides loopback callers (src/shared/private-access.ts). */
    privateAccess: PrivateAccessRules;
  };
  /** v1 push notifications (src/webhooks/config.ts lists the variables). */
  webhooks: WebhookConfig;
  /** Recording downloads through v1gate's signed links (src/downloads/config.ts lists the variables). */
  downloads: DownloadConfig;
  /** Span export over OTLP (src/ops/tracing-config.ts lists the variables); the trace context is passed on either way. */
  tracing: TracingConfig;
}

/** The whole configuration from the environment; throws a ConfigError listing every problem. */
export function loadConfig(env: Env = process.env): GatewayConfig {
  const s = readEnv(SETTINGS, env);
  return {
    ...s.server,
    ...s.upstream,
    sandbox: s.sandbox,
    credentials: s.credentials,
    rateLimits: s.rateLimits,
    ...s.compare,
    ops: s.ops,
    webhooks: s.webhooks,
    downloads: s.downloads,
    tracing: s.tracing,
  };
}
