import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import type { LogOutput } from '../ops/logging.js';
import type { Tracing } from '../ops/tracing.js';
import type { LeaseSource } from '../ratelimit/index.js';
import type { SandboxLimits } from '../sandbox/rate-limit.js';
import type { ServerOptions } from '../http/server.js';
import type { KnownSecrets } from '../shared/secrets.js';
import type { PrivateAccess } from '../shared/private-access.js';
import type { EndpointDefinition } from '../translators/kit/define.js';
import type { OutboundGate } from '../upstream/client.js';
import type { InboundGate } from '../v1-steps/admit.js';
import type { CallObserver } from '../v1-steps/observe.js';
import type { InFlight, ListenAddress, OutboundStop, Resources } from './lifecycle.js';

/** What every part of a gateway is built from, and what it is built with (the overrides tests and a cluster worker pass). */

export interface GatewayOverrides {
  /** Given the gateway's logger as soon as it exists, before anything connects (a process routes its libraries' console lines through it). */
  onLogger?: (logger: Logger) => void;
  endpoints?: readonly EndpointDefinition[];
  inbound?: InboundGate;
  outbound?: OutboundGate;
  /** Sandbox limits (tests and benchmarks); default: the spec's, or none with SANDBOX_RATE_LIMITS=off. */
  sandboxLimits?: SandboxLimits | false;
  /** Told about every v1 call answered (see src/v1-steps/observe.ts). */
  observers?: readonly CallObserver[];
  /** Whether the process is draining for shutdown (/readyz answers 503 while it is). */
  draining?: () => boolean;
  /** Set in a cluster worker (WORKERS>1): what it shares with the primary (src/cluster/worker.ts). */
  cluster?: ClusterWorkerLinks;
  /** How often the status page's history takes a point (default 10 s): tests shorten it. */
  statusHistoryStepMs?: number;
  /** The clock download links' ends are judged by (default Date.now): tests move it hours ahead. */
  downloadClock?: () => number;
  /** The clock the webhook intake judges event timestamps by (default Date.now). */
  webhookClock?: () => number;
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

/** What each part's builder may use: the settings, and what the gateway's life holds for every part. */
export interface Parts {
  config: GatewayConfig;
  overrides: GatewayOverrides;
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

/** The request budget every listener of the gateway gives each request. */
export function serverOptions(config: GatewayConfig): ServerOptions {
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
