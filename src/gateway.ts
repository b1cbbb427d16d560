import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forwardToHub } from './cluster/forward.js';
import { packageVersion } from './shared/package-version.js';
import { callRecorder } from './compare/calls.js';
import { createShadow, readOnlyGate, type ShadowStats } from './compare/shadow.js';
import { endpointFacts } from './compare/endpoint-facts.js';
import { configuredCutover } from './compare/cutover-setup.js';
import type { GatewayConfig } from './config.js';
import { limiterMetrics } from './ops/limiter-metrics.js';
import { credentialMetrics } from './ops/credential-metrics.js';
import { callLogObserver, createLogger, type LogOutput } from './ops/logging.js';
import { sampleFailedCalls } from './ops/log-volume.js';
import { isLoopbackHost } from './shared/loopback.js';
import { KnownSecrets } from './shared/secrets.js';
import { GatewayMetrics } from './ops/metrics.js';
import { mountOpsRoutes } from './ops/routes.js';
import { cutoverSection, shadowMetrics } from './ops/shadow-metrics.js';
import { statusKey } from './ops/status.js';
import { Tracing } from './ops/tracing.js';
import { webhookMetrics } from './ops/webhook-metrics.js';
import { requireFanOutWithin } from './ratelimit/fan-out.js';
import { FailoverBucketStore, createRateLimiters, rateLimitHeaders, type LeaseSource, type RateLimiters } from './ratelimit/index.js';
import { createSandbox, mountSandbox, type Sandbox } from './sandbox/app.js';
import { embeddedAppOf } from './sandbox/oauth/embedded.js';
import { keepSandboxData } from './sandbox/persist.js';
import type { SandboxLimits } from './sandbox/rate-limit.js';
import { v2CredentialsCheck } from './sdk/credentials-check.js';
import { createSignatureApp } from './sdk/signature-app.js';
import { createServer, listenOnLoopback, type ServerOptions } from './server.js';
import { PrivateAccess } from './shared/private-access.js';
import type { DownloadLinkMaker, EndpointDefinition } from './translators/kit/define.js';
import { Refusal, toV1Error } from './translators/kit/failures.js';
import { ALL_ENDPOINTS } from './translators/endpoints.js';
import { V2Client, openGate, type OutboundGate } from './upstream/client.js';
import { CallWithdrawn, SHUTTING_DOWN_UNSENT } from './upstream/errors.js';
import { Departure, EitherLeaving } from './shared/leaving.js';
import { sandboxAccountsAt } from './upstream/auth/sandbox-accounts.js';
import { v2CredentialsOf, type V2Credentials } from './upstream/auth/v2-credentials.js';
import type { LocalCheck } from './upstream/auth/local-check.js';
import { provenSecretStoreOf } from './upstream/auth/proven-secrets.js';
import { PairProver } from './upstream/pair-proof.js';
import { ProofLimiter, SECRET_CHECK_LIMITS, chargeAccepted } from './ratelimit/proof-budget.js';
import { v1ErrorResponse } from './v1/errors.js';
import { createV1App, type InboundGate } from './v1-facade/app.js';
import { createDownloads } from './downloads/index.js';
import { downloadCredentialsOf } from './downloads/credentials.js';
import { tellingEach, type CallObserver, type OwnTimeObserver } from './v1-facade/observe.js';
import { startWebhooks, type Webhooks } from './webhooks/index.js';

/**
 * Assembles one gateway process: the v1 facade, the v2 client, and — when no V2_BASE_URL is
 * given — the embedded sandbox, at /v2 on the public server for users and on a loopback listener
 * of its own for the gateway, which calls it there over HTTP exactly as it would call the real
 * service, without taking the public listener's connection slots.
 *
 * `buildGateway` wires every route before anything listens (one small `wire…` function per part);
 * `listen` then opens the port. The v2 base URL of the embedded sandbox is known only once the
 * port is, so the v2 client and /readyz read it when first asked, never at wiring time.
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
  /** How often the status page's history takes a point (default 10 s): tests shorten it. */
  statusHistoryStepMs?: number;
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
  /** The worker's number (node:cluster's, from 1 in the order workers were forked), on every log line. */
  workerNumber: number;
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
  /** The gateway's one logger (LOG_LEVEL, LOG_FILE): every part's lines go through it. */
  logger: Logger;
  /** v1 push notifications, when V1_WEBHOOKS_FILE is set. */
  webhooks: Webhooks | undefined;
  /** The whole app, in process: what the server answers (tests pass a caller's address in `env.incoming`). */
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>;
  /** Every route and middleware of the app, as registered (method, path): what a test of all the private routes walks. */
  readonly routes: readonly { method: string; path: string }[];
  /** True from the first shutdown signal: /readyz answers 503 and new v1 calls are refused. */
  readonly draining: boolean;
  /**
   * Graceful shutdown: refuse new v1 calls (the v1 unavailable error, connection closed) and let
   * every call in flight finish. Past `graceMs`, the v2 calls not yet sent are withdrawn (their v1
   * calls answer that nothing more was applied) and those in flight fail (a write may have been
   * applied); rollbacks then run on for up to UPSTREAM_TIMEOUT_MS on a pool of their own. Then
   * close. Never a reset for a call that was accepted.
   */
  drain(graceMs: number): Promise<void>;
  /**
   * Reads V2_CREDENTIALS_FILE again (SIGHUP): the new map serves the next calls. A file with
   * problems changes nothing; they are logged and returned.
   */
  reloadCredentials(): ReturnType<V2Credentials['reload']>;
  /** Shadow mode's comparisons, when V1_PRIMARY_URL is set. */
  shadow: { stats(): ShadowStats; idle(): Promise<void> } | undefined;
  close(): Promise<void>;
}

/** A gateway with every route in place, not yet listening. */
export interface BuiltGateway {
  /** The whole app, in process. */
  fetch: RunningGateway['fetch'];
  /** Opens the port (PORT, HOST); a port in use closes what was opened and rejects. */
  listen(): Promise<RunningGateway>;
}

/** Build the gateway and open its port. */
export async function startGateway(config: GatewayConfig, overrides: GatewayOverrides = {}): Promise<RunningGateway> {
  return buildGateway(config, overrides).listen();
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

/** Where the gateway listens: known once the server does (PORT=0 picks the port then). */
class ListenAddress {
  private port: number | undefined;

  constructor(private readonly config: GatewayConfig) {}

  listened(port: number): void {
    this.port = port;
  }

  /** `http://host:port` as this machine reaches it (a wildcard HOST is reached on loopback). */
  get origin(): string {
    if (this.port === undefined) throw new Error('The gateway is not listening yet: its address is unknown.');
    const host = this.config.host === '0.0.0.0' || this.config.host === '::' ? '127.0.0.1' : this.config.host;
    return `http://${host.includes(':') ? `[${host}]` : host}:${this.port}`;
  }

  /** V2_BASE_URL, or the embedded sandbox on this gateway's own port (where users reach it). */
  get v2BaseUrl(): string {
    return this.config.v2BaseUrl ?? `${this.origin}/v2`;
  }

  /** The embedded sandbox's own loopback listener, once it listens. */
  private sandboxOrigin: string | undefined;

  sandboxListened(origin: string): void {
    this.sandboxOrigin = origin;
  }

  /** Where the gateway calls v2: V2_BASE_URL, or the embedded sandbox on its own listener. */
  get upstreamUrl(): string {
    return this.config.v2BaseUrl ?? `${this.sandboxOrigin ?? this.origin}/v2`;
  }
}

/** What a gateway holds open, closed newest first (so the server stops before what it calls). */
class Resources {
  private readonly closers: (() => unknown)[] = [];

  add(close: () => unknown): void {
    this.closers.push(close);
  }

  async closeAll(): Promise<void> {
    for (const close of this.closers.splice(0).reverse()) await Promise.resolve(close()).catch(() => {});
  }
}

/** The parts each `wire…` function may use. */
interface Parts {
  config: GatewayConfig;
  overrides: GatewayOverrides;
  root: Hono;
  address: ListenAddress;
  work: InFlight;
  resources: Resources;
  log: LogOutput;
  /** Redacted by value from every line, record and report: the configured secrets, then the sandbox's own. */
  secrets: KnownSecrets;
  /** What a shutdown past its grace stops (the v2 calls waiting for a token). */
  stop: OutboundStop;
  /** Each v1 call's trace, passed on to v2; spans exported when an OTLP endpoint is set. */
  tracing: Tracing;
  /** Who may see the private pages: /status, a protected /metrics, the sandbox control API, the dead-letter routes. */
  access: PrivateAccess;
}

/** The facade's inbound gate, backed by the v1 limiter: its decision and the X-RateLimit-* headers. */
function inboundGate(limiters: RateLimiters): InboundGate {
  return {
    async check(owner, v1Path) {
      const decision = await limiters.inbound.check(owner, v1Path);
      return { allowed: decision.allowed, headers: rateLimitHeaders(decision) };
    },
  };
}

/**
 * What a shutdown past its grace stops: v2 calls, then (once rollbacks had their time) undos. A
 * call still waiting for its outbound token then is withdrawn at once, never sent.
 */
class OutboundStop {
  readonly calls = new Departure();
  readonly undos = new Departure();
}

/** The v2 client's outbound gate, backed by the v2 limiter; a shutdown withdraws the calls waiting in it. */
function outboundGate(limiters: RateLimiters, stop: OutboundStop): OutboundGate {
  return {
    schedule: (apiKey, method, path, task, options = {}) => {
      const all = options.priority === 'undo' ? stop.undos : stop.calls;
      return limiters.outbound.schedule(apiKey, method, path, task, { ...options, leaving: new EitherLeaving(options.leaving, all) });
    },
    penalize: (apiKey, method, path, retryAfterMs) => {
      void limiters.outbound.penalize(apiKey, method, path, retryAfterMs);
    },
  };
}

/** Shutdown: first of all routes, so no new v1 call (or SDK signature) starts while draining. */
function wireDrainGuard({ root, work }: Parts): void {
  root.use('*', async (c, next) => {
    if (!work.draining || !CALL_PATH.test(c.req.path)) return next();
    return v1ErrorResponse(toV1Error(new Refusal('shutting-down')), { connection: 'close' });
  });
}

/** A cluster worker names itself on every answer. */
function wireWorkerTag({ root }: Parts, cluster: ClusterWorkerLinks): void {
  root.use('*', async (c, next) => {
    await next();
    try {
      c.res.headers.set('x-v1gate-worker', cluster.workerId);
    } catch {
      // a forwarded answer's headers may be read-only: it goes out without the tag
    }
  });
}

/**
 * The sandbox's control API changes any account's state: a private page, for callers on this
 * machine only, unless SANDBOX_PUBLIC=1 says the sandbox is meant to be shared. Refused in v2's shape.
 */
const sandboxForThisMachineOnly = (access: PrivateAccess): MiddlewareHandler =>
  access.guard({ kind: 'loopback' }, (c, refusal) =>
    c.json({ code: 200, message: `The sandbox control API: ${refusal.reason} (SANDBOX_PUBLIC=1 opens it).` }, refusal.status),
  );

/** No V2_BASE_URL: the embedded sandbox at /v2 (and its control API at /sandbox) on this server. */
function wireSandbox({ root, config, overrides, secrets, log, resources, access }: Parts): Sandbox {
  const sandbox = createSandbox({
    apiKey: config.sandbox.apiKey,
    apiSecret: config.sandbox.apiSecret,
    oauthClientId: config.sandbox.oauthClientId,
    oauthClientSecret: config.sandbox.oauthClientSecret,
    limits: overrides.sandboxLimits ?? (config.sandbox.rateLimits ? undefined : false),
    v2Auth: config.sandbox.v2Auth,
    onUnexpectedError: (error) => log.logger.error({ err: error }, 'sandbox: unexpected error'),
  });
  secrets.add([sandbox.credentials.apiSecret, sandbox.oauthApp.clientSecret]);
  if (config.sandbox.dataFile) {
    const kept = keepSandboxData(sandbox.state, sandbox.master, config.sandbox.dataFile, (problem) => log.logger.warn(problem));
    resources.add(() => kept.close());
  }
  if (!config.sandbox.public) root.use('/sandbox/*', sandboxForThisMachineOnly(access));
  mountSandbox(root, sandbox);
  return sandbox;
}

/**
 * The embedded sandbox's own loopback listener, which the gateway's v2 client calls (and the
 * sandbox's events reach the webhook intake through): a flood of the public listener's
 * connections, up to its cap, leaves the gateway's own calls their connections. Opened before the
 * public port, closed after the v2 client (closers run newest first).
 */
function wireSandboxListener({ config, address, resources, access }: Parts, sandbox: Sandbox) {
  const app = new Hono();
  // Loopback only, but a page reaches loopback by DNS rebinding: its private routes are guarded as the public listener's.
  app.use('/sandbox/*', sandboxForThisMachineOnly(access));
  guardDeadLetters(app, access);
  mountSandbox(app, sandbox);
  let listening: Awaited<ReturnType<typeof listenOnLoopback>> | undefined;
  resources.add(() => listening?.close());
  return {
    app,
    async open(): Promise<void> {
      app.notFound(unknownPathAnswer);
      listening = await listenOnLoopback(app.fetch, { ...serverOptions(config), keepAlive: true });
      address.sandboxListened(listening.origin);
    },
  };
}

/**
 * A cluster worker forwards what exists once to the primary. The loopback-only rule of the sandbox
 * control API is applied here, where the real caller is known (the primary sees only workers).
 */
function wireHub({ root, config, access }: Parts, cluster: ClusterWorkerLinks): void {
  if (cluster.hubPaths.includes('/sandbox') && !config.sandbox.public) root.use('/sandbox/*', sandboxForThisMachineOnly(access));
  if (cluster.hubPaths.includes('/webhooks')) guardDeadLetters(root, access);
  forwardToHub(root, cluster.hubOrigin, cluster.hubPaths);
}

/**
 * The dead-letter routes ask for their own credential (the secret token); as private pages they
 * also want a loopback or PRIVATE_HOSTS Host and no forwarding but through TRUSTED_PROXIES.
 */
function guardDeadLetters(root: Hono, access: PrivateAccess): void {
  const guard = access.guard({ kind: 'own-credential' });
  root.use('/webhooks/dead-letters', guard);
  root.use('/webhooks/dead-letters/*', guard);
}

/** v1 webhooks: the v2 event intake at /webhooks/v2. A bad subscriptions file throws here, before anything listens or connects. */
function wireWebhooks({ root, config, resources, log, access }: Parts): Webhooks | undefined {
  const webhooks = startWebhooks(config.webhooks, log.logger);
  if (!webhooks) return undefined;
  resources.add(() => webhooks.close());
  guardDeadLetters(root, access);
  root.route('/', webhooks.routes);
  return webhooks;
}

/** v1 and v2 limits: this process's buckets, Redis's, or (a cluster worker) the primary's. */
function createLimiters({ config, overrides, resources, log }: Parts): RateLimiters {
  const shared = overrides.cluster?.limiterStore;
  const limiters = createRateLimiters(config.rateLimits, { logger: log.logger, ...(shared ? { shared } : {}) });
  resources.add(() => limiters.close());
  return limiters;
}

/**
 * Whom the gateway acts as toward v2: each pair's own JWT, or (V2_CREDENTIALS_FILE) the v2 app the
 * credential map names for the key, whose v1 secret the map checks here. Hash checks of new pairs
 * are bounded per key and across keys, in the limiters' store; pairs that matched are remembered
 * in Redis (with REDIS_URL) or beside the credentials file, so their owners skip that budget.
 */
function createV2Credentials(
  { config, overrides, address, resources, log }: Parts,
  limiters: RateLimiters,
  sandbox?: Sandbox,
): V2Credentials {
  const { redis } = config.rateLimits;
  // A sandbox elsewhere on this machine (npm run sandbox, another gateway) is found by its account list; none other is asked.
  const sandboxOnThisMachine =
    config.v2BaseUrl && isLoopbackHost(new URL(config.v2BaseUrl).hostname) ? new URL(config.v2BaseUrl).origin : undefined;
  const hub = overrides.cluster?.hubPaths.includes('/sandbox') ? overrides.cluster.hubOrigin : sandboxOnThisMachine;
  return v2CredentialsOf(config.credentials, {
    // Today's v2 takes no JWT: each sandbox account's pair acts as its OAuth app (docs/decisions.md).
    ...(sandbox
      ? { embedded: (pair: { apiKey: string; apiSecret: string }) => embeddedAppOf(sandbox.state, pair.apiKey, pair.apiSecret) }
      : {}),
    ...(hub ? { embedded: sandboxAccountsAt(hub, config.upstream.timeoutMs) } : {}),
    jwtTtlSeconds: config.upstream.jwtTtlSeconds,
    timeoutMs: config.upstream.timeoutMs,
    v2BaseUrl: () => address.upstreamUrl,
    budget: new ProofLimiter(limiters.store, SECRET_CHECK_LIMITS, 'secret-check'),
    proven: (credentialsFile) => {
      const store = provenSecretStoreOf({
        credentialsFile,
        redis: redis.url ? { url: redis.url, keyPrefix: redis.keyPrefix, timeoutMs: redis.timeoutMs } : undefined,
        onProblem: (problem) => log.logger.warn(problem),
      });
      resources.add(() => store.close());
      return store;
    },
  });
}

/** The v2 client, over the limiter's outbound gate (none with the v2 limits off: nothing to await per call). */
function createV2Client(
  { config, overrides, address, resources, stop }: Parts,
  limiters: RateLimiters,
  credentials: V2Credentials,
  mayWrite = false,
): V2Client {
  const v2 = new V2Client({
    baseUrl: config.v2BaseUrl ?? (() => address.upstreamUrl),
    authorizer: credentials.authorizer,
    gate: shadowed(config, overrides.outbound ?? (config.rateLimits.v2.enabled ? outboundGate(limiters, stop) : openGate), mayWrite),
    connections: config.upstream.connections,
    timeoutMs: config.upstream.timeoutMs,
    maxAttempts: config.upstream.maxAttempts,
    maxBodyBytes: config.upstream.maxBodyBytes,
  });
  resources.add(() => v2.close()); // already aborted past a shutdown's grace and its time for rollbacks
  return v2;
}

/**
 * In shadow mode the client serves only the comparisons (and the promoted reads), which must never
 * write: it sends reads alone. The one that may write serves the writes of SHADOW_SERVE_WRITES.
 */
const shadowed = (config: GatewayConfig, gate: OutboundGate, mayWrite: boolean): OutboundGate =>
  config.shadow.primaryUrl && !mayWrite ? readOnlyGate(gate) : gate;

/** Without a credential map: nothing asked of a token endpoint, nothing refused locally (the counters still exist, at 0). */
const NO_TOKEN_REQUESTS = { requests: { issued: 0, refused: 0, rate_limited: 0, unavailable: 0 } };
const NO_LOCAL_REFUSALS = { refused: { wrongSecret: 0, unmappedKey: 0 }, checks: { remembered: 0, hashed: 0, overBudget: 0 } };

/** The Prometheus registry behind /metrics, with the limiters', webhooks' and credentials' collectors. */
function createMetrics(
  { config }: Parts,
  endpoints: readonly EndpointDefinition[],
  limiters: RateLimiters,
  credentials: V2Credentials,
  webhooks?: Webhooks,
) {
  const metrics = new GatewayMetrics({
    perKey: config.ops.metricsPerKey ? { top: config.ops.metricsPerKeyTop } : undefined,
  });
  // A shared store (Redis, or the cluster's primary) sits behind the failover store and its policy.
  const failover = limiters.store instanceof FailoverBucketStore ? limiters.store : undefined;
  const policy = failover ? config.rateLimits.sharedStoreFailure : undefined;
  for (const metric of limiterMetrics({ limiters, failover, policy, busiestKeys: metrics.busiestKeys })) metrics.registerCollector(metric);
  if (webhooks) for (const metric of webhookMetrics(() => webhooks.stats())) metrics.registerCollector(metric);
  for (const metric of credentialMetrics(
    () => credentials.oauth?.stats() ?? NO_TOKEN_REQUESTS,
    () => credentials.local?.stats() ?? NO_LOCAL_REFUSALS,
  )) {
    metrics.registerCollector(metric);
  }
  return { metrics, failover, sharedStorePolicy: policy };
}

/** Who is told of every v1 call: metrics, the log line and the call recorder (V1_RECORD_FILE), and the caller's own. */
function callObservers({ config, overrides, resources, log, secrets }: Parts, metrics: GatewayMetrics): CallObserver[] {
  const recorder = config.record.file ? callRecorder({ file: config.record.file, maxBytes: config.record.maxBytes, secrets }) : undefined;
  if (recorder) resources.add(() => recorder.close());
  // The log and the record file keep the same sample of refusals no v2 call proved: a flood of
  // anonymous calls fills neither, nor rotates the owner's recorded calls out of the file.
  const written = tellingEach([callLogObserver(log.logger), ...(recorder ? [recorder.observer] : [])]);
  return [metrics.observer, sampleFailedCalls(written, log.logger), ...(overrides.observers ?? [])];
}

/** /metrics, /healthz, /readyz and /status. */
function wireOpsRoutes(
  parts: Parts,
  deps: {
    metrics: GatewayMetrics;
    limiters: RateLimiters;
    failover: FailoverBucketStore | undefined;
    sharedStorePolicy: 'open' | 'closed' | undefined;
    webhooks: Webhooks | undefined;
    /** Shadow mode is wired after these routes: the status page asks for it when it renders. */
    shadow: () => Shadow | undefined;
  },
  endpoints: readonly EndpointDefinition[],
): void {
  const { root, config, overrides, work, address, resources } = parts;
  const cluster = overrides.cluster;
  const { webhooks } = deps;
  const opsRoutes = mountOpsRoutes(root, {
    metrics: deps.metrics,
    ...(cluster ? { render: cluster.renderMetrics } : {}),
    readiness: {
      draining: () => work.draining || (overrides.draining?.() ?? false),
      limiterStoreReachable: (timeoutMs) => deps.limiters.ready(timeoutMs),
      limiterFailurePolicy: deps.sharedStorePolicy,
      get upstreamUrl() {
        return address.upstreamUrl;
      },
      deadlineMs: config.ops.readyTimeoutMs,
    },
    access: parts.access,
    metricsToken: config.ops.metricsToken,
    status: {
      endpoints,
      token: config.ops.statusToken,
      redisConfigured: config.rateLimits.redis.url !== undefined,
      limits: {
        limiters: deps.limiters,
        v1Enabled: config.rateLimits.v1.enabled,
        v2Enabled: config.rateLimits.v2.enabled,
        store: config.rateLimits.redis.url ? 'redis' : cluster?.limiterStore ? 'primary' : 'memory',
        failover: deps.failover,
        policy: deps.sharedStorePolicy,
      },
      // With the file journal, a cluster's primary delivers the notifications (the hub).
      webhooks: webhooks
        ? {
            stats: () => webhooks.stats(),
            deadLetters: () => webhooks.dispatcher.deadLetters(),
            replay: (id) => webhooks.dispatcher.replay(id),
          }
        : cluster?.hubPaths.includes('/webhooks')
          ? 'elsewhere'
          : undefined,
      shadow: () => deps.shadow()?.stats(),
      cutover: () => cutoverSection(deps.shadow()?.stats().cutover),
      ...(overrides.statusHistoryStepMs ? { historyStepMs: overrides.statusHistoryStepMs } : {}),
    },
  });
  resources.add(() => opsRoutes.close());
}

/** POST /sdk/signature (the meeting SDK join signer: today's JWT for a key with an SDK app, else 1.9.1's), before the v1 routes. */
function wireSigner(
  { root, config }: Parts,
  v2: V2Client,
  inbound: InboundGate | undefined,
  pairs: PairProver,
  credentials: V2Credentials,
): void {
  root.route(
    '/',
    createSignatureApp({
      credentials: v2CredentialsCheck(v2, pairs, credentials.local),
      inbound,
      maxBodyBytes: config.maxBodyBytes,
      sdkAppOf: (apiKey) => credentials.sdkAppOf(apiKey),
      v2,
    }),
  );
}

/**
 * Where pairs are proven. With the v2 limits on, proofs are bounded per key and in all (the proof
 * budget), and one v2 accepted is charged to its key's outbound buckets afterwards.
 */
function createPairProver({ config, overrides }: Parts, limiters: RateLimiters): PairProver {
  if (!config.rateLimits.v2.enabled || overrides.outbound) return new PairProver();
  return new PairProver({
    budget: new ProofLimiter(limiters.store),
    charge: (apiKey, target) => chargeAccepted(limiters.outbound, apiKey, target.route.method, target.path),
  });
}

/** The v1 facade over the v2 client. */
function createFacade(
  { config, overrides, log, tracing }: Parts,
  deps: {
    endpoints: readonly EndpointDefinition[];
    v2: V2Client;
    limiters: RateLimiters;
    inbound: InboundGate | undefined;
    pairs: PairProver;
    local: LocalCheck | undefined;
    ownTime: OwnTimeObserver;
    downloadLinks: DownloadLinkMaker;
  },
  observers: readonly CallObserver[],
) {
  const { limiters } = deps;
  return createV1App({
    endpoints: deps.endpoints,
    v2: deps.v2,
    pairs: deps.pairs,
    ...(deps.local ? { localCheck: deps.local } : {}),
    inbound: deps.inbound,
    outboundMaxWaitMs: config.rateLimits.v2.maxWaitMs,
    // Reports fan out: refuse at once a fan-out the v2 limits cannot admit within the wait.
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
    ownTime: deps.ownTime,
    auxCacheTtlMs: config.cache.auxTtlMs,
    logger: log.logger,
    tracer: tracing,
    downloadLinks: deps.downloadLinks,
  });
}

/** Recording files through v1gate's signed links (src/downloads/): the links' maker, and their route. */
function wireDownloads({ config, address, resources, root }: Parts, credentials: V2Credentials, sandbox: Sandbox | undefined) {
  const downloads = createDownloads({
    config: config.downloads,
    v2Origin: () => new URL(address.upstreamUrl).origin,
    authorizer: credentials.authorizer,
    credentialsOf: downloadCredentialsOf((apiKey) => credentials.identityOf(apiKey), sandbox?.state.accountsByKey),
    timeoutMs: config.upstream.timeoutMs,
    connections: config.upstream.connections,
  });
  resources.add(() => downloads.close());
  root.route('/', downloads.app);
  return downloads;
}

type V1App = ReturnType<typeof createV1App>;
type Shadow = ReturnType<typeof createShadow>;

/** Shadow mode (V1_PRIMARY_URL): the real v1 answers; v1gate's own answers are compared behind it. */
function wireShadow(
  { root, config, resources, secrets, access }: Parts,
  apps: { v1App: V1App; writer: V1App | undefined },
  endpoints: readonly EndpointDefinition[],
  metrics: GatewayMetrics,
) {
  const { v1App, writer } = apps;
  const facts = endpointFacts(endpoints);
  const settings = config.shadow;
  const shadow = createShadow({
    primaryUrl: settings.primaryUrl!,
    sample: settings.sample,
    promotedSample: settings.promotedSample,
    cutover: configuredCutover({ ...settings, primaryUrl: settings.primaryUrl!, redisUrl: config.rateLimits.redis.url }, facts),
    facts,
    candidate: (request, env) => v1App.fetch(request, env),
    writer: writer && ((request, env) => writer.fetch(request, env)),
    body: { maxBytes: config.maxBodyBytes, idleTimeoutMs: config.bodyTimeoutMs },
    timeoutMs: config.upstream.timeoutMs,
    maxComparedBytes: settings.maxComparedBytes,
    reportAllowed: (c) => access.judge(c, statusKey(config.ops.statusToken)).allowed,
    secrets,
  });
  resources.add(() => shadow.close());
  root.all('*', shadow.handle);
  for (const metric of shadowMetrics(() => shadow.stats())) metrics.registerCollector(metric);
  return shadow;
}

/** The answer of a part whose errors are plain JSON with an `error` field (the webhook intake, the status page). */
const PLAIN_JSON_ERRORS = /^\/+(webhooks|status)(\/|$)/i;

/**
 * An exception no route caught (an ops route, the webhook intake, the status page's replay, the
 * signer) gets an answer in its route's own format, never Hono's plain-text 500 nor a stack
 * trace: `{ error }` with HTTP 500 for the webhook intake and the status page, the v1 envelope for
 * everything else (HTTP 200 on the v1 and SDK paths, as every v1 answer; 500 elsewhere). The
 * connection closes: the request's state is unknown. The trace goes to the log, once per request.
 */
function wireErrorAnswers({ root, log }: Parts): void {
  root.onError((error, c) => {
    log.logger.error({ err: error, method: c.req.method, path: c.req.path.slice(0, 256) }, 'unexpected error');
    const close = { connection: 'close' };
    if (PLAIN_JSON_ERRORS.test(c.req.path)) return c.json({ error: 'Internal gateway error.' }, 500, close);
    const answer = v1ErrorResponse(toV1Error(error), close);
    return CALL_PATH.test(c.req.path) ? answer : new Response(answer.body, { status: 500, headers: answer.headers });
  });
}

/**
 * Whatever matched nothing gets the v1 envelope, as every error v1gate writes (never a plain-text
 * 404): under /v1 and /sdk with v1's 200, elsewhere with 404, so a load balancer or a probe pointed
 * at a wrong path sees a failure, not a 200 (a cluster's primary answers so too).
 */
export const unknownPathAnswer = (c: Context): Response => {
  const message = `Unknown path: ${c.req.path.slice(0, 256)}.`;
  const answer = v1ErrorResponse(toV1Error(new Refusal('unknown-path', message)));
  return CALL_PATH.test(c.req.path) ? answer : new Response(answer.body, { status: 404, headers: answer.headers });
};

function wireNotFound({ root }: Parts): void {
  root.notFound(unknownPathAnswer);
}

/** The request budget every listener of the gateway gives each request. */
function serverOptions(config: GatewayConfig): ServerOptions {
  return {
    keepAlive: config.keepAlive,
    headersTimeoutMs: config.headersTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
    maxBodyBytes: config.maxBodyBytes,
    bodyTimeoutMs: config.bodyTimeoutMs,
    maxFields: config.maxFields,
    maxBufferedBytes: config.maxBufferedBytes,
  };
}

/** The HTTP server over the app; a call is in flight until its answer has left (the response closes), not merely been made. */
function createHttpServer({ root, config, work, resources }: Parts): Server {
  const server = createServer(root.fetch, {
    ...serverOptions(config),
    maxConnections: config.maxConnections,
    maxConnectionsPerAddress: config.maxConnectionsPerAddress,
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!CALL_PATH.test(req.url ?? '')) return;
    work.started();
    res.once('close', () => work.finished());
  });
  resources.add(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return server;
}

/** Every part of one gateway, wired; the server made but not listening. */
function wireAll(parts: Parts) {
  const { config, overrides } = parts;
  const cluster = overrides.cluster;
  wireErrorAnswers(parts);
  wireDrainGuard(parts);
  if (cluster) wireWorkerTag(parts, cluster);
  const sandbox = config.v2BaseUrl ? undefined : wireSandbox(parts);
  const sandboxListener = sandbox && wireSandboxListener(parts, sandbox);
  if (config.v2BaseUrl && cluster) wireHub(parts, cluster);
  const webhooks = wireWebhooks(parts);
  if (webhooks) sandboxListener?.app.route('/', webhooks.routes);
  const limiters = createLimiters(parts);
  const credentials = createV2Credentials(parts, limiters, sandbox);
  const v2 = createV2Client(parts, limiters, credentials);
  const endpoints = overrides.endpoints ?? ALL_ENDPOINTS;
  const { metrics, failover, sharedStorePolicy } = createMetrics(parts, endpoints, limiters, credentials, webhooks);
  // Shadow mode wraps the facade, made below; the status page asks for it when it renders.
  const later: { shadow?: Shadow } = {};
  wireOpsRoutes(parts, { metrics, limiters, failover, sharedStorePolicy, webhooks, shadow: () => later.shadow }, endpoints);
  // One inbound gate and one prover for the signer and the v1 routes: a pair proven by either is
  // its key's owner for both, and both spend the key's v1 limits.
  const inbound = overrides.inbound ?? (config.rateLimits.v1.enabled ? inboundGate(limiters) : undefined);
  const pairs = createPairProver(parts, limiters);
  wireSigner(parts, v2, inbound, pairs, credentials);
  const observers = callObservers(parts, metrics);
  const downloadLinks = wireDownloads(parts, credentials, sandbox).linkFor;
  const facadeDeps = { endpoints, v2, limiters, inbound, pairs, local: credentials.local, ownTime: metrics.ownTimeObserver, downloadLinks };
  const v1App = createFacade(parts, facadeDeps, observers);
  // Writes v1gate answers itself in shadow mode go through a v2 client that may write.
  const writer =
    config.shadow.primaryUrl && config.shadow.serveWrites.length > 0
      ? createFacade(parts, { ...facadeDeps, v2: createV2Client(parts, limiters, credentials, true) }, observers)
      : undefined;
  const shadow = config.shadow.primaryUrl ? wireShadow(parts, { v1App, writer }, endpoints, metrics) : undefined;
  later.shadow = shadow;
  if (!shadow) parts.root.route('/', v1App);
  wireNotFound(parts);
  const server = createHttpServer(parts);
  return { sandbox, sandboxListener, webhooks, limiters, v2, credentials, metrics, shadow, server };
}

/** The secrets a credential map holds (its v1 secrets are hashes; its v2 and SDK apps' are not): never written anywhere. */
function v2SecretsOf(entries: GatewayConfig['credentials']['entries']): string[] {
  return entries.flatMap((entry) => [
    entry.v2.kind === 'jwt' ? entry.v2.secret : entry.v2.client_secret,
    ...(entry.sdk ? [entry.sdk.secret] : []),
  ]);
}

/** The secrets of the configuration, redacted by value from every log line, record and report. */
function configuredSecrets(config: GatewayConfig): (string | undefined)[] {
  const redis = config.rateLimits.redis.url;
  return [
    config.sandbox.apiSecret,
    config.sandbox.oauthClientSecret,
    ...v2SecretsOf(config.credentials.entries),
    config.webhooks.token,
    config.webhooks.previousToken,
    config.ops.statusToken,
    redis && URL.canParse(redis) ? decodeURIComponent(new URL(redis).password) || undefined : undefined,
    ...Object.values(config.tracing.export?.headers ?? {}),
    config.tracing.export ? decodeURIComponent(new URL(config.tracing.export.url).password) || undefined : undefined,
  ];
}

/** Every route of one gateway, in place before anything listens. */
export function buildGateway(config: GatewayConfig, overrides: GatewayOverrides = {}): BuiltGateway {
  const resources = new Resources();
  const secrets = new KnownSecrets(configuredSecrets(config));
  const log = createLogger({ level: config.ops.logLevel, file: config.ops.logFile, secrets, worker: overrides.cluster?.workerNumber });
  resources.add(() => log.close()); // buffered log lines out before the process may exit, and a LOG_FILE closed
  const tracing = new Tracing(config.tracing, { version: packageVersion(), worker: overrides.cluster?.workerNumber, logger: log.logger });
  resources.add(() => tracing.shutdown()); // after the server has closed (closers run newest first): the last calls' spans go out
  const parts: Parts = {
    config,
    overrides,
    root: new Hono(),
    address: new ListenAddress(config),
    work: new InFlight(),
    resources,
    log,
    secrets,
    stop: new OutboundStop(),
    tracing,
    access: new PrivateAccess(config.ops.privateAccess),
  };
  let wired: ReturnType<typeof wireAll>;
  try {
    wired = wireAll(parts);
  } catch (error) {
    void resources.closeAll();
    throw error;
  }
  const fetch = (request: Request, env?: unknown) => parts.root.fetch(request, env);
  return { fetch, listen: () => listen(parts, wired, fetch) };
}

/** Open the port; then what needs the address (the sandbox's events to this gateway's intake). */
async function listen(parts: Parts, wired: ReturnType<typeof wireAll>, fetch: RunningGateway['fetch']): Promise<RunningGateway> {
  const { config, address, resources, log } = parts;
  const { server, limiters, sandbox, webhooks, v2 } = wired;
  if (!(await limiters.ready())) {
    // Not fatal: until Redis answers, the failure policy decides (fail-open: this process's own buckets).
    log.logger.warn(`Redis at REDIS_URL is not reachable yet; rate limits fail ${config.rateLimits.sharedStoreFailure} until it is.`);
  }
  await wired.shadow?.restore(); // the cut-over as it was before a restart: promotions and demotions kept
  try {
    await parts.tracing.load(); // before the port opens: no call goes unrecorded
    await wired.sandboxListener?.open();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (error) {
    await resources.closeAll(); // a port in use must not leave a Redis connection holding the process open
    throw error;
  }
  address.listened((server.address() as AddressInfo).port);
  // The embedded sandbox sends every account's v2 events to this gateway's intake, on its own listener.
  if (sandbox && webhooks && config.webhooks.token) {
    sandbox.state.events.subscribe('*', { url: `${new URL(address.upstreamUrl).origin}/webhooks/v2`, token: config.webhooks.token });
  }
  const close = () => resources.closeAll();
  return {
    url: address.origin,
    port: (server.address() as AddressInfo).port,
    server,
    sandbox,
    v2BaseUrl: address.v2BaseUrl,
    limiters,
    metrics: wired.metrics,
    logger: log.logger,
    webhooks,
    shadow: wired.shadow,
    reloadCredentials: () => reloadCredentials(parts, wired.credentials),
    fetch,
    routes: parts.root.routes.map(({ method, path }) => ({ method, path })),
    get draining() {
      return parts.work.draining;
    },
    drain: (graceMs) => drain(parts, v2, graceMs, close),
    close,
  };
}

function reloadCredentials({ config, log, secrets }: Parts, credentials: V2Credentials): ReturnType<V2Credentials['reload']> {
  const reloaded = credentials.reload();
  if (!reloaded.ok) {
    log.logger.warn({ problems: reloaded.problems }, 'V2_CREDENTIALS_FILE not reloaded: the map in force stays');
    return reloaded;
  }
  // The new map's v2 secrets are redacted like the first's.
  secrets.add(v2SecretsOf(credentials.entries()));
  log.logger.info({ file: config.credentials.file, keys: reloaded.keys }, 'V2_CREDENTIALS_FILE reloaded');
  return reloaded;
}

/** Refuse new calls, wait up to `graceMs` for those in flight, then fail their v2 calls still running, and close. */
async function drain({ work, stop, config }: Parts, v2: V2Client, graceMs: number, close: () => Promise<void>): Promise<void> {
  work.draining = true;
  if (!(await work.idle(graceMs))) {
    // Past the grace: calls not yet sent are withdrawn (answered as not applied), calls in flight
    // fail; undos go on, on a pool of their own, so a rollback in progress can still finish.
    stop.calls.leave(new CallWithdrawn(SHUTTING_DOWN_UNSENT));
    await v2.abort().catch(() => {});
    if (!(await work.idle(config.upstream.timeoutMs))) {
      // Rollbacks had UPSTREAM_TIMEOUT_MS more: an undo still unsent is withdrawn, one in flight fails.
      stop.undos.leave(new CallWithdrawn(SHUTTING_DOWN_UNSENT));
      await v2.abortUndos().catch(() => {});
      await work.idle(2_000);
    }
  }
  await close();
}
