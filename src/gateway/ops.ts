import { callRecorder } from '../compare/calls.js';
import { limiterMetrics } from '../ops/limiter-metrics.js';
import { credentialMetrics } from '../ops/credential-metrics.js';
import { callLogObserver } from '../ops/logging.js';
import { sampleFailedCalls } from '../ops/log-volume.js';
import { GatewayMetrics } from '../ops/metrics.js';
import { mountOpsRoutes } from '../ops/routes.js';
import { cutoverSection } from '../ops/shadow-metrics.js';
import { scopesSection } from '../ops/app-scopes.js';
import { webhookMetrics } from '../ops/webhook-metrics.js';
import { Hono } from 'hono';
import { FailoverBucketStore, type RateLimiters } from '../ratelimit/index.js';
import { prefixOf } from '../shared/route-owners.js';
import type { EndpointDefinition } from '../translators/kit/define.js';
import type { V2Credentials } from '../upstream/auth/v2-credentials.js';
import { tellingEach, type CallObserver } from '../v1-steps/observe.js';
import type { Webhooks } from '../webhooks/index.js';
import type { Parts } from './parts.js';
import type { Shadow } from './facade.js';

/** The ops part: /metrics, /healthz, /readyz and /status, the registry behind them, and who is told of every call. */

/** Without a credential map: nothing asked of a token endpoint, nothing refused locally (the counters still exist, at 0). */
export const NO_TOKEN_REQUESTS = { requests: { issued: 0, refused: 0, rate_limited: 0, unavailable: 0 } };
export const NO_LOCAL_REFUSALS = { refused: { wrongSecret: 0, unmappedKey: 0 }, checks: { remembered: 0, hashed: 0, overBudget: 0 } };

/** The Prometheus registry behind /metrics, with the limiters', webhooks' and credentials' collectors. */
export function createMetrics(
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

/** /metrics, /healthz, /readyz and /status. */
export function opsPart(
  parts: Parts,
  deps: {
    metrics: GatewayMetrics;
    limiters: RateLimiters;
    failover: FailoverBucketStore | undefined;
    sharedStorePolicy: 'open' | 'closed' | undefined;
    webhooks: Webhooks | undefined;
    /** Shadow mode, when on: the status page shows its figures. */
    shadow: Shadow | undefined;
    /** The credential map and its tokens: the status page says what each mapped app's scopes cannot serve. */
    credentials: V2Credentials;
  },
  endpoints: readonly EndpointDefinition[],
): Hono {
  const { config, overrides, work, address, resources } = parts;
  const cluster = overrides.cluster;
  const { webhooks } = deps;
  const app = new Hono();
  const opsRoutes = mountOpsRoutes(app, {
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
      probeEveryMs: config.ops.readyProbeEveryMs,
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
        : cluster?.hubPaths.includes(prefixOf('webhooks'))
          ? 'elsewhere'
          : undefined,
      shadow: () => deps.shadow?.stats(),
      cutover: () => cutoverSection(deps.shadow?.stats().cutover),
      scopes: () => {
        const tokens = deps.credentials.oauth;
        return tokens && scopesSection(deps.credentials.entries(), (app) => tokens.heldFor(app));
      },
      ...(overrides.statusHistoryStepMs ? { historyStepMs: overrides.statusHistoryStepMs } : {}),
    },
  });
  resources.add(() => opsRoutes.close());
  return app;
}

/** Who is told of every v1 call: metrics, the log line and the call recorder (V1_RECORD_FILE), and the caller's own. */
export function callObservers({ config, overrides, resources, log, secrets }: Parts, metrics: GatewayMetrics): CallObserver[] {
  const recorder = config.record.file ? callRecorder({ file: config.record.file, maxBytes: config.record.maxBytes, secrets }) : undefined;
  if (recorder) resources.add(() => recorder.close());
  // The log and the record file keep the same sample of refusals no v2 call proved: a flood of
  // anonymous calls fills neither, nor rotates the owner's recorded calls out of the file.
  const written = tellingEach([callLogObserver(log.logger), ...(recorder ? [recorder.observer] : [])]);
  return [metrics.observer, sampleFailedCalls(written, log.logger), ...(overrides.observers ?? [])];
}
