import type { Metric } from 'prom-client';
import type { FailoverBucketStore, RateLimiters, StoreFailurePolicy } from '../ratelimit/index.js';
import type { BusiestKeys } from './busiest-keys.js';
import { statsMetric } from './metrics.js';

/**
 * The limiters' read-only statistics as Prometheus metrics, read at scrape time (prom-client
 * `collect` callbacks), so the request path pays nothing for them. Built unregistered: the
 * gateway adds them with `GatewayMetrics.registerCollector`.
 */

export interface LimiterMetricsOptions {
  limiters: RateLimiters;
  /** The failover store in front of a shared store, Redis or the cluster's primary (its failure count and degraded flag). */
  failover: FailoverBucketStore | undefined;
  policy: StoreFailurePolicy | undefined;
  /** METRICS_PER_KEY=1: the deepest queues by the keys that hold a per-key series, the rest as `other`. */
  busiestKeys: BusiestKeys | undefined;
}

/** How many of the deepest queues the limiter is asked for (their keys then map onto the per-key labels). */
const DEEPEST_QUEUES = 50;

export function limiterMetrics(options: LimiterMetricsOptions): Metric[] {
  const { inbound, outbound } = options.limiters;
  const metrics: Metric[] = [
    statsMetric(
      'counter',
      'v1gate_v1_limiter_refusals_total',
      'v1 requests refused by the inbound limiter, by v1 limit class.',
      ['class'],
      () => inbound.refusals().map((r) => ({ labels: { class: r.limitClass }, value: r.count })),
    ),
    statsMetric(
      'counter',
      'v1gate_v2_limiter_refusals_total',
      'v2 calls the outbound limiter gave up on, by v2 class and reason (queue-full, deadline ...).',
      ['class', 'reason'],
      () => outbound.stats(0).refusals.map((r) => ({ labels: { class: r.limitClass, reason: r.reason }, value: r.count })),
    ),
    statsMetric('counter', 'v1gate_v2_limiter_waits_total', 'v2 calls that queued for a token and got one, by v2 class.', ['class'], () =>
      outbound.stats(0).waits.map((w) => ({ labels: { class: w.limitClass }, value: w.waits })),
    ),
    statsMetric('counter', 'v1gate_v2_limiter_wait_seconds_total', 'Time v2 calls spent queued for a token, by v2 class.', ['class'], () =>
      outbound.stats(0).waits.map((w) => ({ labels: { class: w.limitClass }, value: w.waitedMs / 1000 })),
    ),
    statsMetric('gauge', 'v1gate_v2_limiter_queue_depth', 'v2 calls waiting for a token now, by v2 class.', ['class'], () =>
      outbound.stats(0).queueDepth.map((q) => ({ labels: { class: q.limitClass }, value: q.waiting })),
    ),
    statsMetric(
      'gauge',
      'v1gate_limiter_failure_policy',
      "The shared store's failure policy in force (1 on its label); none without a shared store (Redis, or the primary of WORKERS>1).",
      ['policy'],
      () => [{ labels: { policy: options.policy ?? 'none' }, value: 1 }],
    ),
    statsMetric(
      'counter',
      'v1gate_limiter_store_errors_total',
      'Limiter store operations that failed or timed out against the shared store (Redis, or the primary of WORKERS>1).',
      [],
      () => [{ labels: {}, value: options.failover?.stats.failures ?? 0 }],
    ),
    statsMetric(
      'gauge',
      'v1gate_limiter_store_degraded',
      '1 while the limiter cannot reach its shared store (Redis, or the primary of WORKERS>1) and its failure policy decides.',
      [],
      () => [{ labels: {}, value: options.failover?.stats.degraded ? 1 : 0 }],
    ),
  ];
  const busiest = options.busiestKeys;
  if (busiest) {
    metrics.push(
      statsMetric(
        'gauge',
        'v1gate_v2_limiter_queue_depth_by_key',
        'v2 calls waiting for a token now, by hashed api_key (the keys with a per-key series; the rest as other) and v2 class (METRICS_PER_KEY=1).',
        ['key_hash', 'class'],
        () => {
          const depths = new Map<string, { key_hash: string; class: string; value: number }>();
          for (const lane of outbound.stats(DEEPEST_QUEUES).busiest) {
            const keyLabel = busiest.labelOf(lane.account);
            const id = `${keyLabel} ${lane.limitClass}`;
            const row = depths.get(id) ?? depths.set(id, { key_hash: keyLabel, class: lane.limitClass, value: 0 }).get(id)!;
            row.value += lane.waiting;
          }
          return [...depths.values()].map(({ value, ...labels }) => ({ labels, value }));
        },
      ),
    );
  }
  return metrics;
}
