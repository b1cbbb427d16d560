import { randomBytes } from 'node:crypto';
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, Counter, Registry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import { hangUpMeans, onControlSignals } from '../cli/hang-up.js';
import { createLogger, prettyLogs } from '../ops/logging.js';
import type { StartLines } from '../ops/start-lines.js';
import { MemoryBucketStore, bucketStoreHandlers } from '../ratelimit/index.js';
import { IpcRpcClient, serveRpc } from '../shared/ipc-rpc.js';
import { oneAtATime } from '../shared/one-at-a-time.js';
import { announceSandbox, listenedOn } from '../sandbox-banner.js';
import { watchHandoffs } from './handoffs.js';
import { startHub, type Hub } from './hub.js';
import { CLUSTER_ENV, METRICS_CLUSTER, METRICS_JSON } from '../shared/cluster-protocol.js';
import { LastWords } from './serving.js';

/**
 * WORKERS>1: this process forks the workers that serve the port (node:cluster hands each new
 * connection to one of them), and keeps what must exist once: the hub (sandbox, file-journal
 * webhooks), the in-memory buckets every worker leases from over IPC, and the /metrics merge.
 * It serves no v1 call itself. A worker that dies after it was serving is replaced; one that
 * dies before it ever listened (port in use, bad configuration) stops the cluster.
 */

/** A worker that crashed is replaced after this pause, so a crash loop does not spin a core. */
const RESTART_DELAY_MS = 250;

export async function runPrimary(config: GatewayConfig, lines: StartLines): Promise<void> {
  const { logger } = createLogger({ level: config.ops.logLevel, file: config.ops.logFile, pretty: prettyLogs(config.ops.logFormat) });
  const hub = await startHub(config, logger);
  const buckets = config.rateLimits.redis.url ? undefined : new MemoryBucketStore({ maxBuckets: config.rateLimits.memory.maxBuckets });
  const env = workerEnv(hub, buckets, config);
  const askers = new Map<number, IpcRpcClient>();
  const listened = new Set<number>();
  let stopping = false;
  let exitCode = 0;
  let announced = false;
  const deaths = workerDeaths();
  const handoffs = new Map<number, () => number>();

  // Every worker's scrapes share one merge at a time: each merge asks every worker for its registry.
  const clusterMetrics = oneAtATime(() => mergedMetrics(askers, hub, deaths.registry));

  const fork = (): Worker => {
    const worker = cluster.fork(env);
    askers.set(worker.id, new IpcRpcClient(worker));
    handoffs.set(worker.id, watchHandoffs(worker, sendFailed(logger, worker.id)));
    serveRpc(worker, { ...(buckets ? bucketStoreHandlers(buckets) : {}), [METRICS_CLUSTER]: clusterMetrics });
    logger.info({ workerNumber: worker.id, workerPid: worker.process.pid }, 'worker started');
    return worker;
  };

  cluster.on('listening', (worker, address) => {
    listened.add(worker.id);
    if (announced || listened.size < config.workers) return;
    announced = true;
    announce(config, hub, address.port, lines);
  });

  const finish = async () => {
    await hub?.close();
    await buckets?.close();
    process.exit(exitCode);
  };

  cluster.on('exit', (worker, code, signal) => {
    askers.get(worker.id)?.close();
    askers.delete(worker.id);
    // Connections handed to it and never taken: closed, so no client waits on a socket nobody serves.
    const closedConnections = handoffs.get(worker.id)?.() ?? 0;
    handoffs.delete(worker.id);
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (stopping) {
      if (code !== 0) exitCode = 1;
      logger.info({ workerNumber: worker.id, workerPid: worker.process.pid, code, signal }, `worker exited (${how})`);
      if (Object.keys(cluster.workers ?? {}).length === 0) void finish();
      return;
    }
    if (!listened.has(worker.id)) {
      logger.error(
        { workerNumber: worker.id, workerPid: worker.process.pid, code, signal },
        `worker exited (${how}) before it could serve; stopping`,
      );
      exitCode = 1;
      stop('SIGTERM');
      if (Object.keys(cluster.workers ?? {}).length === 0) void finish();
      return;
    }
    deaths.died.inc({ cause: signal ? 'signal' : 'exit' });
    deaths.closed.inc(closedConnections);
    const about = { workerNumber: worker.id, workerPid: worker.process.pid, code, signal, closedConnections };
    // A worker that died of an uncaught exception said what it was serving (serving.ts): the line names it.
    logger.warn({ ...about, ...deaths.lastWords.take(worker.id) }, `worker exited (${how}); starting another`);
    setTimeout(() => stopping || fork(), RESTART_DELAY_MS);
  });

  // The first signal drains every worker (each answers its calls in flight, then exits); a second
  // one is passed on, which makes them stop at once.
  const stop = (signal: NodeJS.Signals) => {
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    if (stopping) {
      exitCode = 1;
    } else {
      stopping = true;
      logger.info({ signal, workers: workers.length, graceMs: config.shutdownGraceMs }, 'draining every worker');
      // A worker stuck past its own grace and its time for rollbacks is not waited for forever.
      const killAll = () => Object.values(cluster.workers ?? {}).forEach((w) => w?.process.kill('SIGKILL'));
      setTimeout(killAll, config.shutdownGraceMs + config.upstream.timeoutMs + 10_000).unref();
    }
    for (const worker of workers) worker.process.kill('SIGTERM');
  };
  // The workers hold the credential map: a reload is passed on to each (as SIGUSR2; a HUP stops or reloads as ON_SIGHUP says).
  onControlSignals(hangUpMeans(config.ops.onSighup, process.env), process.env, {
    stop,
    reload: () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGUSR2');
    },
  });

  for (let i = 0; i < config.workers; i++) fork();
}

/** A message to a worker that failed (its channel broke as it was written): logged; its exit follows. */
const sendFailed = (logger: Logger, workerNumber: number) => (error: Error) =>
  logger.warn({ workerNumber, err: error }, 'a message to a worker failed');

/** What every worker is told of the cluster (src/shared/cluster-protocol.ts). */
function workerEnv(hub: Hub | undefined, buckets: MemoryBucketStore | undefined, config: GatewayConfig): Record<string, string> {
  return {
    // One key signs every worker's download links: a link one worker answered is fetched from whichever the next connection reaches.
    DOWNLOAD_URL_KEY: config.downloads.key ?? randomBytes(32).toString('hex'),
    [CLUSTER_ENV.hub]: hub?.origin ?? '',
    [CLUSTER_ENV.hubPaths]: hub?.paths.join(',') ?? '',
    [CLUSTER_ENV.sharedLimits]: buckets ? 'ipc' : 'redis',
    ...(hub?.sandbox ? { V2_BASE_URL: `${hub.origin}/v2` } : {}),
  };
}

/** The whole cluster's /metrics: every worker's registry and the hub's, merged. */
async function mergedMetrics(askers: ReadonlyMap<number, IpcRpcClient>, hub: Hub | undefined, own: Registry) {
  const parts = await Promise.all(
    [...askers.values()].map((asker) =>
      asker.call<MetricObjectWithValues<MetricValue<string>>[]>(METRICS_JSON, null, 3_000).catch(() => []),
    ),
  );
  if (hub) parts.push(await hub.registry.getMetricsAsJSON());
  parts.push(await own.getMetricsAsJSON());
  const merged = AggregatorRegistry.aggregate(parts);
  return { contentType: merged.contentType, body: await merged.metrics() };
}

/** The primary's own counters: workers that died while serving, and the connections it closed for them. */
function workerDeaths() {
  const registry = new Registry();
  const died = new Counter({
    name: 'v1gate_worker_deaths_total',
    help: 'Cluster workers that exited while serving (not drained), by cause: a signal, or an exit code.',
    labelNames: ['cause'] as const,
    registers: [registry],
  });
  const closed = new Counter({
    name: 'v1gate_worker_abandoned_connections_total',
    help: 'Connections the primary had handed to a worker that died before taking them: closed by the primary.',
    registers: [registry],
  });
  died.inc({ cause: 'signal' }, 0);
  died.inc({ cause: 'exit' }, 0);
  return { registry, died, closed, lastWords: new LastWords() };
}

function announce(config: GatewayConfig, hub: Hub | undefined, port: number, lines: StartLines): void {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const url = `${listenedOn(config.host, port)}/v1`;
  lines.say(`v1gate listening on ${url} (${config.workers} workers, pid ${process.pid})`, { url, workers: config.workers });
  const sandbox = hub?.sandbox;
  lines.say(`  upstream v2: ${config.v2BaseUrl ?? `${hub!.origin}/v2 (embedded sandbox, in the primary)`}`);
  const leases = config.rateLimits.leaseMs > 0 ? `, leased ${config.rateLimits.leaseMs} ms at a time` : '';
  lines.say(`  rate limits shared through ${config.rateLimits.redis.url ? 'Redis' : 'the primary (IPC)'}${leases}`);
  if (!sandbox) return;
  // REDIS_URL: the workers own the webhook intake; the sandbox sends its events to their port.
  if (!hub.webhooks && config.webhooks.file && config.webhooks.token)
    sandbox.state.events.subscribe('*', { url: `${origin}/webhooks/v2`, token: config.webhooks.token });
  announceSandbox(config, sandbox, `${origin}/v1`, lines);
}
