import cluster from 'node:cluster';
import type { GatewayConfig } from '../config.js';
import { startGateway } from '../gateway.js';
import { routeConsoleThrough } from '../ops/library-console.js';
import { IpcBucketStore } from '../ratelimit/ipc-store.js';
import { IpcRpcClient, serveRpc } from '../shared/ipc-rpc.js';
import { CLUSTER_ENV, METRICS_CLUSTER, METRICS_JSON } from '../shared/cluster-protocol.js';
import { followRoutes, reportDeathTo } from './serving.js';

/**
 * One cluster worker: a whole gateway on the shared port, linked to its primary for what exists
 * once (sandbox, file-journal webhooks, in-memory buckets, /metrics). The primary owns shutdown:
 * SIGTERM (from the primary) drains as a single process does; SIGINT is ignored, because a
 * terminal's Ctrl-C reaches every process of the group and the primary passes it on as SIGTERM.
 * SIGUSR2 (passed on by the primary when it reloads) reads the credential map again; SIGHUP is
 * the primary's to interpret, as SIGINT is.
 */
export async function runWorker(config: GatewayConfig): Promise<void> {
  const rpc = new IpcRpcClient(process);
  const hubPaths = (process.env[CLUSTER_ENV.hubPaths] ?? '').split(',').filter(Boolean);
  // The primary owns the file journal: this worker forwards /webhooks instead of opening it.
  const own = hubPaths.includes('/webhooks') ? { ...config, webhooks: { ...config.webhooks, file: undefined } } : config;
  const gateway = await startGateway(own, {
    onLogger: routeConsoleThrough,
    cluster: {
      hubOrigin: process.env[CLUSTER_ENV.hub] ?? '',
      hubPaths,
      ...(process.env[CLUSTER_ENV.sharedLimits] === 'ipc' ? { limiterStore: new IpcBucketStore(rpc) } : {}),
      renderMetrics: () => rpc.call(METRICS_CLUSTER, null, 5_000),
      workerId: String(process.pid),
      workerNumber: cluster.worker?.id ?? 0,
    },
  });
  serveRpc(process, { [METRICS_JSON]: () => gateway.metrics.registry.getMetricsAsJSON() });
  // A death of an uncaught exception is told to the primary with the routes in flight, for its line.
  reportDeathTo(process, followRoutes(gateway.server));

  const stop = () => {
    if (gateway.draining) process.exit(1);
    gateway.drain(config.shutdownGraceMs).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => {});
  process.on('SIGTERM', stop);
  // Passed on by the primary: each worker reads V2_CREDENTIALS_FILE again (and logs what it found).
  process.on('SIGUSR2', () => gateway.reloadCredentials());
  // A terminal's hang-up reaches the whole group: the primary decides what it means and tells the workers.
  process.on('SIGHUP', () => {});
  // The primary is gone (killed): nobody will restart or stop this worker; drain and leave.
  process.on('disconnect', () => gateway.draining || stop());
}
