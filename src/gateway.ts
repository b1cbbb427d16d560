import { Hono } from 'hono';
import type { Logger } from 'pino';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { packageVersion } from './shared/package-version.js';
import type { ShadowStats } from './compare/shadow.js';
import type { GatewayConfig } from './config.js';
import { createLogger, prettyLogs } from './ops/logging.js';
import { KnownSecrets } from './shared/secrets.js';
import type { GatewayMetrics } from './ops/metrics.js';
import { Tracing } from './ops/tracing.js';
import type { RateLimiters } from './ratelimit/index.js';
import type { Sandbox } from './sandbox/app.js';
import { createServer } from './http/server.js';
import { PrivateAccess } from './shared/private-access.js';
import { ALL_ENDPOINTS } from './translators/endpoints.js';
import type { V2Credentials } from './upstream/auth/v2-credentials.js';
import type { Webhooks } from './webhooks/index.js';
import { serverOptions, type GatewayOverrides, type Parts } from './gateway/parts.js';
import { InFlight, ListenAddress, OutboundStop, Resources, drain, reloadCredentials } from './gateway/lifecycle.js';
import { configuredSecrets } from './gateway/secrets.js';
import { drainGuarded, errorAnswer, unknownPathAnswer, workerTag, type Fetch } from './gateway/answers.js';
import { owned } from './gateway/owned.js';
import { webhooksPart } from './gateway/webhooks.js';
import { hubPart, sandboxListener, sandboxPart } from './gateway/sandbox.js';
import {
  createLimiters,
  createPairProver,
  createV2Client,
  createV2Credentials,
  inboundGate,
  sandboxAccountsOf,
} from './gateway/v2-side.js';
import { callObservers, createMetrics, opsPart } from './gateway/ops.js';
import { createFacade, downloadsPart, shadowPart, signerPart, type V1App } from './gateway/facade.js';

/**
 * Assembles one gateway process: the v1 facade, the v2 client, and — when no V2_BASE_URL is
 * given — the embedded sandbox, at /v2 on the public server for users and on a loopback listener
 * of its own for the gateway, which calls it there over HTTP exactly as it would call the real
 * service, without taking the public listener's connection slots.
 *
 * `buildGateway` builds each part by its own module in `src/gateway/` (the sandbox, the webhook
 * intake, the ops pages, the SDK signer, the download links, the v1 facade or shadow mode around
 * it), then mounts them on one app with `app.route()` in the order `mount` shows, under one error
 * handler and one not-found answer; `listen` then opens the port. The v2 base URL of the embedded
 * sandbox is known only once the port is, so the v2 client and /readyz read it when first asked.
 */

export type { ClusterWorkerLinks, GatewayOverrides } from './gateway/parts.js';

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

/**
 * The HTTP server over the app; a call (a path the route table says names one) is in flight until
 * its answer has left (the response closes), not merely been made.
 */
function createHttpServer(fetch: Fetch, { config, work, resources }: Parts): Server {
  // The server counts the calls as it prepares each request, and once each answer has gone (in
  // the one 'close' listener it has on every response): no listener of the gateway's own per call.
  const server = createServer(fetch, {
    ...serverOptions(config),
    maxConnections: config.maxConnections,
    maxConnectionsPerAddress: config.maxConnectionsPerAddress,
    calls: work,
  });
  resources.add(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return server;
}

/** The parts' own apps (each absent when its part is off), as each part builds it. */
interface MountedParts {
  sandbox: Hono | undefined;
  hub: Hono | undefined;
  webhooks: Hono | undefined;
  ops: Hono;
  signer: Hono;
  downloads: ReturnType<typeof downloadsPart>['app'];
  v1: V1App;
  /** Shadow mode (V1_PRIMARY_URL), which calls the v1 facade itself: mounted in its place. */
  shadow: Hono | undefined;
}

/**
 * The one app, in the order a request meets it: one error handler and one not-found answer for
 * every part; then each part's own app, whose every route lies under the prefixes the route table
 * gives that part. The drain guard stands in front of the whole app (`drainGuarded`), so no new call
 * starts while draining.
 */
function mount({ log, overrides }: Parts, apps: MountedParts): Hono {
  const root = new Hono();
  root.onError(errorAnswer(log.logger));
  if (overrides.cluster) root.use('*', workerTag(overrides.cluster.workerId));
  if (apps.sandbox) root.route('/', owned('sandbox', apps.sandbox));
  if (apps.hub) root.route('/', owned(['sandbox', 'webhooks'], apps.hub));
  if (apps.webhooks) root.route('/', owned('webhooks', apps.webhooks));
  root.route('/', owned('ops', apps.ops));
  root.route('/', owned('signer', apps.signer));
  root.route('/', owned('downloads', apps.downloads));
  if (apps.shadow) root.route('/', owned(['shadow', 'v1'], apps.shadow));
  else root.route('/', owned('v1', apps.v1));
  root.notFound(unknownPathAnswer);
  return root;
}

/** Every part of one gateway, built and mounted; the server made but not listening. */
function assemble(parts: Parts) {
  const { config, overrides } = parts;
  const cluster = overrides.cluster;
  const embedded = config.v2BaseUrl ? undefined : sandboxPart(parts);
  const sandbox = embedded?.sandbox;
  const listener = sandbox && sandboxListener(parts, sandbox);
  const hub = config.v2BaseUrl && cluster ? hubPart(parts, cluster) : undefined;
  const intake = webhooksPart(parts);
  const webhooks = intake?.webhooks;
  if (webhooks) listener?.app.route('/', webhooks.routes);
  const limiters = createLimiters(parts);
  const sandboxAccounts = sandboxAccountsOf(parts, sandbox);
  const credentials = createV2Credentials(parts, limiters, sandboxAccounts);
  const v2 = createV2Client(parts, limiters, credentials);
  const endpoints = overrides.endpoints ?? ALL_ENDPOINTS;
  const { metrics, failover, sharedStorePolicy } = createMetrics(parts, endpoints, limiters, credentials, webhooks);
  // One inbound gate and one prover for the signer and the v1 routes: a pair proven by either is
  // its key's owner for both, and both spend the key's v1 limits.
  const inbound = overrides.inbound ?? (config.rateLimits.v1.enabled ? inboundGate(limiters) : undefined);
  const pairs = createPairProver(parts, limiters, credentials.budgets);
  const signer = signerPart(parts, v2, inbound, pairs, credentials);
  const observers = callObservers(parts, metrics);
  const downloads = downloadsPart(parts, credentials, sandboxAccounts);
  const facadeDeps = {
    endpoints,
    v2,
    limiters,
    budgets: credentials.budgets,
    inbound,
    pairs,
    local: credentials.local,
    ownTime: metrics.ownTimeObserver,
    downloadLinks: downloads.linkFor,
  };
  const v1App = createFacade(parts, facadeDeps, observers);
  // Writes v1gate answers itself in shadow mode go through a v2 client that may write.
  const writer =
    config.shadow.primaryUrl && config.shadow.serveWrites.length > 0
      ? createFacade(parts, { ...facadeDeps, v2: createV2Client(parts, limiters, credentials, true) }, observers)
      : undefined;
  const shadowed = config.shadow.primaryUrl ? shadowPart(parts, { v1App, writer }, endpoints, metrics) : undefined;
  const shadow = shadowed?.shadow;
  // Built after shadow mode, which wraps the facade: the status page reads its figures.
  const ops = opsPart(parts, { metrics, limiters, failover, sharedStorePolicy, webhooks, shadow, credentials }, endpoints);
  const apps = {
    sandbox: embedded?.app,
    hub,
    webhooks: intake?.app,
    ops,
    signer,
    downloads: downloads.app,
    v1: v1App,
    shadow: shadowed?.app,
  };
  const root = mount(parts, apps);
  const fetch = drainGuarded(parts.work, root);
  const server = createHttpServer(fetch, parts);
  return { root, fetch, sandbox, sandboxListener: listener, webhooks, limiters, v2, credentials, metrics, shadow, server };
}

/** Every route of one gateway, in place before anything listens. */
export function buildGateway(config: GatewayConfig, overrides: GatewayOverrides = {}): BuiltGateway {
  const resources = new Resources();
  const secrets = new KnownSecrets(configuredSecrets(config));
  const log = createLogger({
    level: config.ops.logLevel,
    file: config.ops.logFile,
    pretty: prettyLogs(config.ops.logFormat),
    secrets,
    worker: overrides.cluster?.workerNumber,
  });
  resources.add(() => log.close()); // buffered log lines out before the process may exit, and a LOG_FILE closed
  overrides.onLogger?.(log.logger);
  const tracing = new Tracing(config.tracing, { version: packageVersion(), worker: overrides.cluster?.workerNumber, logger: log.logger });
  resources.add(() => tracing.shutdown()); // after the server has closed (closers run newest first): the last calls' spans go out
  const parts: Parts = {
    config,
    overrides,
    address: new ListenAddress(config),
    work: new InFlight(),
    resources,
    log,
    secrets,
    stop: new OutboundStop(),
    tracing,
    access: new PrivateAccess(config.ops.privateAccess),
  };
  let wired: ReturnType<typeof assemble>;
  try {
    wired = assemble(parts);
  } catch (error) {
    void resources.closeAll();
    throw error;
  }
  const { fetch } = wired;
  return { fetch, listen: () => listen(parts, wired, fetch) };
}

/** Open the port; then what needs the address (the sandbox's events to this gateway's intake). */
async function listen(parts: Parts, wired: ReturnType<typeof assemble>, fetch: RunningGateway['fetch']): Promise<RunningGateway> {
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
    const url = `${new URL(address.upstreamUrl).origin}/webhooks/v2`;
    sandbox.state.events.subscribe('*', { url, token: config.webhooks.token, clientId: sandbox.oauthApp.clientId });
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
    reloadCredentials: () =>
      reloadCredentials(wired.credentials, { file: config.credentials.file, logger: log.logger, secrets: parts.secrets }),
    fetch,
    routes: wired.root.routes.map(({ method, path }) => ({ method, path })),
    get draining() {
      return parts.work.draining;
    },
    drain: (graceMs) => drain({ work: parts.work, stop: parts.stop, v2, rollbackMs: config.upstream.timeoutMs }, graceMs, close),
    close,
  };
}
