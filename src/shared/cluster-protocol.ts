/**
 * What a cluster primary and its workers agree on: environment variables and IPC method names (the
 * IPC itself is ipc-rpc.ts). Down here, not in src/cluster/, because the check of unknown settings
 * reads the variables' names too, and the cluster sits above it.
 */

/** Set by the primary on each worker it forks (internal: not settings for operators). */
export const CLUSTER_ENV = {
  /** The primary's loopback server (src/cluster/hub.ts); empty when it has none. */
  hub: 'V1GATE_CLUSTER_HUB',
  /** Comma-separated path prefixes the hub answers. */
  hubPaths: 'V1GATE_CLUSTER_HUB_PATHS',
  /** `ipc` (the primary's buckets) or `redis` (REDIS_URL, as a single process). */
  sharedLimits: 'V1GATE_CLUSTER_LIMITS',
} as const;

/** worker → primary: the whole cluster's /metrics text. */
export const METRICS_CLUSTER = 'metrics.cluster';
/** primary → worker: this worker's registry as JSON, for AggregatorRegistry.aggregate. */
export const METRICS_JSON = 'metrics.json';
