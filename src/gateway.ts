import { Hono, type MiddlewareHandler } from 'hono';
import { V1Code } from './v1/errors.js';
import { isLoopbackCaller } from './shared/loopback.js';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandbox, mountSandbox, type Sandbox } from './sandbox/app.js';
import type { GatewayConfig } from './config.js';
import { createServer } from './server.js';
import { ALL_ENDPOINTS } from './translators/endpoints.js';
import type { EndpointDefinition } from './translators/kit/define.js';
import { V2Client, openGate, type OutboundGate } from './upstream/client.js';
import { TokenMinter } from './upstream/jwt.js';
import { createV1App, type InboundGate } from './v1-facade/app.js';
import type { CallObserver } from './v1-facade/observe.js';
import type { SandboxLimits } from './sandbox/rate-limit.js';
import { startWebhooks, type Webhooks } from './webhooks/index.js';
import { callRecorder } from './compare/calls.js';
import { createShadow, type ShadowStats } from './compare/shadow.js';
import { mappingIndex, readOnlyIndex } from './compare/why.js';
import { shadowMetrics } from './ops/shadow-metrics.js';
import { createRateLimiters, rateLimitHeaders, type LeaseSource, type RateLimiters } from './ratelimit/index.js';
import { forwardToHub } from './cluster/forward.js';
// --- operators (#17) ---
import { GatewayMetrics } from './ops/metrics.js';
import { callLogObserver, createLogger } from './ops/logging.js';
import { mountOpsRoutes } from './ops/routes.js';
import { statusAllowed } from './ops/status.js';
import { limiterMetrics } from './ops/limiter-metrics.js';
import { webhookMetrics } from './ops/webhook-metrics.js';
import { FailoverBucketStore } from './ratelimit/index.js';
// --- end operators ---
import { requireFanOutWithin } from './ratelimit/fan-out.js';
// --- issue #13: the meeting SDK signer ---
import { createSignatureApp } from './sdk/signature-app.js';
import { v2CredentialsCheck } from './sdk/credentials-check.js';
// --- end issue #13 ---

/**
 * Assembles one gateway process: the v1 facade, the v2 client, and — when no V2_BASE_URL is
 * given — the embedded sandbox at /v2 on the same server, which the gateway then calls over
 * loopback HTTP exactly as it would call the real service.
 */

export interface GatewayOverrides {
  endpoints?: readonly EndpointDefinition[];
  inbound?: InboundGate;
  outbound?: OutboundGate;
  /** Sandbox limits (tests and benchmarks); default: the spec's, or none with SANDBOX_RATE_LIMITS=off. */
  sandboxLimits?: SandboxLimits | false;
  /** Told about every v1 call answered (see src/v1-facade/observe.ts). */
  observers?: readonly CallObserver[];
  /** Whether the process is draining for shutdown (/readyz answers 503 while it is). */
  draining?: () => boolean;
  /** Set in a cluster worker (WORKERS>1): what it shares with the primary (src/cluster/worker.ts). */
  cluster?: ClusterWorkerLinks;
}

export interface ClusterWorkerLinks {
  /** The primary's loopback server: the one embedded sandbox and, with the file journal, the webhook service. */
  hubOrigin: string;
  /** Path prefixes answered by the primary (`/v2`, `/sandbox`, `/webhooks`). */
  hubPaths: readonly string[];
  /** The primary's buckets over IPC (no REDIS_URL). */
  limiterStore?: LeaseSource;
  /** /metrics for the whole cluster. */
  renderMetrics(): Promise<{ contentType: string; body: string }>;
  /** Sent as `x-v1gate-worker` on every answer, so a client (or test) sees which process answered. */
  workerId: string;
}

export interface RunningGateway {
  url: string;
  port: number;
  server: Server;
  sandbox: Sandbox | undefined;
  v2BaseUrl: string;
  limiters: RateLimiters;
  /** The Prometheus registry behind /metrics (collectors for other parts register here). */
  metrics: GatewayMetrics;
  /** v1 push notifications, when V1_WEBHOOKS_FILE is set. */
  webhooks: Webhooks | undefined;
  /** The whole app, in process: what the server answers (tests pass a caller's address in `env.incoming`). */
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>;
  /** True from the first shutdown signal: /readyz answers 503 and new v1 calls are refused. */
  readonly draining: boolean;
  /**
   * Graceful shutdown: refuse new v1 calls (the v1 unavailable error, connection closed), let every
   * call in flight finish, and after `graceMs` fail the v2 calls still running so their v1 calls
   * answer "unavailable" too; then close. Never a reset for a call that was accepted.
   */
  drain(graceMs: number): Promise<void>;
  /** Shadow mode's comparisons, when V1_PRIMARY_URL is set. */
  shadow: { stats(): ShadowStats; idle(): Promise<void> } | undefined;
  close(): Promise<void>;
}

/** The paths of calls that do work for a client: the v1 API and the SDK signer. */
const CALL_PATH = /^\/+(v1|sdk)\//i;

/** Calls in flight, for a graceful shutdown. */
class InFlight {
  draining = false;
  private count = 0;
  private waiters: (() => void)[] = [];

  started(): void {
    this.count++;
  }

  finished(): void {
    this.count--;
    if (this.count === 0) for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves true when no call is in flight, false when `timeoutMs` passed first. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

/** The facade's inbound gate, backed by the v1 limiter: its decision and the X-RateLimit-* headers. */
function inboundGate(limiters: RateLimiters): InboundGate {
  return {
    async check(apiKey, v1Path) {
      const decision = await limiters.inbound.check(apiKey, v1Path);
      return { allowed: decision.allowed, headers: rateLimitHeaders(decision) };
    },
  };
}

/** The v2 client's outbound gate, backed by the v2 limiter. */
function outboundGate(limiters: RateLimiters): OutboundGate {
  return {
    schedule: (apiKey, method, path, task, options) => limiters.outbound.schedule(apiKey, method, path, task, options),
    penalize: (apiKey, method, path, retryAfterMs) => {
      void limiters.outbound.penalize(apiKey, method, path, retryAfterMs);
    },
  };
}

/**
 * The sandbox's control API changes any account's state and lists every api_secret: it answers
 * callers on this machine only, unless SANDBOX_PUBLIC=1 says the sandbox is meant to be shared.
 */
const sandboxForThisMachineOnly: MiddlewareHandler = async (c, next) =>
  isLoopbackCaller(c)
    ? next()
    : c.json({ code: 200, message: 'The sandbox control API answers callers on this machine only (SANDBOX_PUBLIC=1 opens it).' }, 403);

export async function startGateway(config: GatewayConfig, overrides: GatewayOverrides = {}): Promise<RunningGateway> {
  const root = new Hono();
  // Shutdown: first of all routes, so no new v1 call (or SDK signature) starts while draining.
  const work = new InFlight();
  root.use('*', async (c, next) => {
    if (!CALL_PATH.test(c.req.path)) return next();
    if (work.draining) {
      return c.json(
        { error: { code: V1Code.upstreamUnavailable, message: 'v1gate is shutting down: call again, another instance will answer.' } },
        200,
        {
          connection: 'close',
        },
      );
    }
    return next();
  });
  const cluster = overrides.cluster;
  if (cluster) {
    root.use('*', async (c, next) => {
      await next();
      try {
        c.res.headers.set('x-v1gate-worker', cluster.workerId);
      } catch {
        // a forwarded answer's headers may be read-only: it goes out without the tag
      }
    });
  }
  let sandbox: Sandbox | undefined;
  if (!config.v2BaseUrl) {
    sandbox = createSandbox({
      apiKey: config.sandbox.apiKey,
      apiSecret: config.sandbox.apiSecret,
      limits: overrides.sandboxLimits ?? (config.sandbox.rateLimits ? undefined : false),
    });
    if (!config.sandbox.public) root.use('/sandbox/*', sandboxForThisMachineOnly);
    mountSandbox(root, sandbox);
  } else if (cluster) {
    // The cluster's one sandbox lives in the primary: the loopback-only rule is applied here, where
    // the real caller is known (the primary sees every worker as a loopback caller).
    if (cluster.hubPaths.includes('/sandbox') && !config.sandbox.public) root.use('/sandbox/*', sandboxForThisMachineOnly);
    forwardToHub(root, cluster.hubOrigin, cluster.hubPaths);
  }
  // v1 webhooks (#12): the v2 event intake at /webhooks/v2; a bad subscriptions file stops the
  // start here, before anything listens or connects.
  const webhooks = startWebhooks(config.webhooks);
  if (webhooks) root.route('/', webhooks.routes);
  // Before listening: until the v1 routes are added below, a request would get a bare 404, so
  // nothing that can take seconds (a Redis connection) may come between listen and the routes.
  const limiters = createRateLimiters(config.rateLimits, cluster?.limiterStore ? { shared: cluster.limiterStore } : {});
  if (!(await limiters.ready())) {
    // Not fatal: until Redis answers, the failure policy decides (fail-open: this process's own buckets).
    console.warn(`v1gate: Redis at REDIS_URL is not reachable yet; rate limits fail ${config.rateLimits.sharedStoreFailure} until it is.`);
  }
  const server = createServer(root.fetch, {
    keepAlive: config.keepAlive,
    headersTimeoutMs: config.headersTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
    maxBodyBytes: config.maxBodyBytes,
  });
  // A call is in flight until its answer has left (the response closes), not merely been made.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!CALL_PATH.test(req.url ?? '')) return;
    work.started();
    res.once('close', () => work.finished());
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (error) {
    webhooks?.close();
    await limiters.close(); // a port in use must not leave a Redis connection holding the process open
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const loopbackHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const origin = `http://${loopbackHost.includes(':') ? `[${loopbackHost}]` : loopbackHost}:${port}`;
  const v2BaseUrl = config.v2BaseUrl ?? `${origin}/v2`;
  // v1 webhooks (#12): the embedded sandbox sends every account's v2 events to this gateway's intake.
  if (sandbox && webhooks && config.webhooks.token)
    sandbox.state.events.subscribe('*', { url: `${origin}/webhooks/v2`, token: config.webhooks.token });

  const v2 = new V2Client({
    baseUrl: v2BaseUrl,
    minter: new TokenMinter({
      ttlSeconds: config.upstream.jwtTtlSeconds,
      renewBeforeSeconds: Math.floor(config.upstream.jwtTtlSeconds / 3),
      maxCachedKeys: 10_000,
    }),
    // Limits off: no gate at all (nothing to classify, queue or await on the request path).
    gate: overrides.outbound ?? (config.rateLimits.v2.enabled ? outboundGate(limiters) : openGate),
    connections: config.upstream.connections,
    timeoutMs: config.upstream.timeoutMs,
    maxAttempts: config.upstream.maxAttempts,
    maxBodyBytes: config.upstream.maxBodyBytes,
  });
  // --- operators (#17): metrics and logs are call observers; /metrics, /healthz, /readyz ---
  const endpoints = overrides.endpoints ?? ALL_ENDPOINTS;
  const metrics = new GatewayMetrics({
    declaredV2Calls: endpoints.flatMap((e) => e.v2Calls),
    perKey: config.ops.metricsPerKey ? { top: config.ops.metricsPerKeyTop } : undefined,
  });
  // A shared store (Redis, or the cluster's primary) sits behind the failover store and its policy.
  const failover = limiters.store instanceof FailoverBucketStore ? limiters.store : undefined;
  const sharedStorePolicy = failover ? config.rateLimits.sharedStoreFailure : undefined;
  for (const metric of limiterMetrics({
    limiters,
    failover,
    policy: sharedStorePolicy,
    busiestKeys: metrics.busiestKeys,
  })) {
    metrics.registerCollector(metric);
  }
  if (webhooks) for (const metric of webhookMetrics(() => webhooks.stats())) metrics.registerCollector(metric);
  const logOutput = createLogger({ level: config.ops.logLevel, file: config.ops.logFile });
  const logger = logOutput.logger;
  // The call recorder (V1_RECORD_FILE), for replay and diff with `npm run compare`.
  const recorder = config.record.file ? callRecorder({ file: config.record.file, maxBytes: config.record.maxBytes }) : undefined;
  const observers: CallObserver[] = [
    metrics.observer,
    callLogObserver(logger),
    ...(recorder ? [recorder.observer] : []),
    ...(overrides.observers ?? []),
  ];
  mountOpsRoutes(root, {
    metrics,
    ...(cluster ? { render: cluster.renderMetrics } : {}),
    readiness: {
      draining: () => work.draining || (overrides.draining?.() ?? false),
      limiterStoreReachable: (timeoutMs) => limiters.ready(timeoutMs),
      limiterFailurePolicy: sharedStorePolicy,
      upstreamUrl: v2BaseUrl,
      deadlineMs: config.ops.readyTimeoutMs,
    },
    status: { endpoints, token: config.ops.statusToken, redisConfigured: config.rateLimits.redis.url !== undefined },
  });
  // --- end operators ---
  // One inbound gate for the signer and the v1 routes: both spend the key's v1 limits.
  const inbound = overrides.inbound ?? (config.rateLimits.v1.enabled ? inboundGate(limiters) : undefined);
  // --- issue #13: POST /sdk/signature (the meeting SDK 1.9.1 join signer), before the v1 routes ---
  root.route(
    '/',
    createSignatureApp({
      credentials: v2CredentialsCheck(v2),
      inbound,
      maxBodyBytes: config.maxBodyBytes,
    }),
  );
  // --- end issue #13 ---
  // Routes added after listen: nothing is announced (or awaited by tests) before this line.
  const v1App = createV1App({
    endpoints,
    v2,
    inbound,
    outboundMaxWaitMs: config.rateLimits.v2.maxWaitMs,
    // Reports fan out (issue #15): refuse at once a fan-out the v2 limits cannot admit within the wait.
    ...(config.rateLimits.v2.enabled && !overrides.outbound
      ? {
          fanOut: (method: string, path: string, calls: number, waitMs: number) =>
            requireFanOutWithin(limiters.outbound, method, path, calls, waitMs),
        }
      : {}),
    allowedApiKeys: config.allowedApiKeys,
    body: { maxBytes: config.maxBodyBytes, idleTimeoutMs: config.bodyTimeoutMs },
    keepAlive: config.keepAlive,
    observers,
    auxCacheTtlMs: config.cache.auxTtlMs,
  });
  // Shadow mode (V1_PRIMARY_URL): the real v1 answers; v1gate's own answers are compared behind it.
  const shadow = config.shadow.primaryUrl
    ? createShadow({
        primaryUrl: config.shadow.primaryUrl,
        sample: config.shadow.sample,
        isRead: readOnlyIndex(endpoints),
        why: mappingIndex(endpoints),
        candidate: async (request) => v1App.fetch(request),
        body: { maxBytes: config.maxBodyBytes, idleTimeoutMs: config.bodyTimeoutMs },
        timeoutMs: config.upstream.timeoutMs,
        reportAllowed: (c) => statusAllowed(c, config.ops.statusToken),
      })
    : undefined;
  if (shadow) {
    root.all('*', shadow.handle);
    for (const metric of shadowMetrics(() => shadow.stats())) metrics.registerCollector(metric);
  } else {
    root.route('/', v1App);
  }

  const close = async (): Promise<void> => {
    webhooks?.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await v2.close().catch(() => {}); // already aborted past a shutdown's grace
    await shadow?.close().catch(() => {});
    await limiters.close();
    await logOutput.close(); // buffered log lines out before the process may exit, and a LOG_FILE closed
    recorder?.close();
  };

  // Whatever matched nothing gets the v1 envelope, as every v1 answer: never a plain-text 404.
  root.notFound((c) => c.json({ error: { code: V1Code.invalidParameter, message: `Unknown path: ${c.req.path}.` } }, 200));

  return {
    url: origin,
    port,
    server,
    sandbox,
    v2BaseUrl,
    limiters,
    metrics,
    webhooks,
    shadow,
    fetch: (request, env) => root.fetch(request, env),
    get draining() {
      return work.draining;
    },
    async drain(graceMs) {
      work.draining = true;
      if (!(await work.idle(graceMs))) {
        await v2.abort().catch(() => {});
        await work.idle(2_000);
      }
      await close();
    },
    close,
  };
}
