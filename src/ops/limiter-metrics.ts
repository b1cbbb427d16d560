import { Counter, Gauge, type Metric } from 'prom-client';
import type { FailoverBucketStore, RateLimiters, StoreFailurePolicy } from '../ratelimit/index.js';
import { keyHash } from './metrics.js';

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
  /** METRICS_PER_KEY=1: the busiest queues by hashed api_key too. */
  perKey: boolean;
}

/** A counter whose value is a running total kept elsewhere: reset, then set to it, at each scrape. */
function mirrorCounter<L extends string>(counter: Counter<L>, rows: { labels: Partial<Record<L, string>>; value: number }[]): void {
  counter.reset();
  for (const row of rows) counter.inc(row.labels, row.value);
}

export function limiterMetrics(options: LimiterMetricsOptions): Metric[] {
  const { inbound, outbound } = options.limiters;
  const metrics: Metric[] = [
    new Counter({
      name: 'v1gate_v1_refusals_total',
      help: 'v1 requests refused by the inbound limiter, by v1 limit class.',
      labelNames: ['class'],
      registers: [],
      collect() {
        mirrorCounter(
          this,
          inbound.refusals().map((r) => ({ labels: { class: r.limitClass }, value: r.count })),
        );
      },
    }),
    new Counter({
      name: 'v1gate_v2_limiter_refusals_total',
      help: 'v2 calls the outbound limiter gave up on, by v2 class and reason (queue-full, deadline ...).',
      labelNames: ['class', 'reason'],
      registers: [],
      collect() {
        mirrorCounter(
          this,
          outbound.stats(0).refusals.map((r) => ({ labels: { class: r.limitClass, reason: r.reason }, value: r.count })),
        );
      },
    }),
    new Counter({
      name: 'v1gate_v2_limiter_waits_total',
      help: 'v2 calls that queued for a token and got one, by v2 class.',
      labelNames: ['class'],
      registers: [],
      collect() {
        mirrorCounter(
          this,
          outbound.stats(0).waits.map((w) => ({ labels: { class: w.limitClass }, value: w.waits })),
        );
      },
    }),
    new Counter({
      name: 'v1gate_v2_limiter_wait_seconds_total',
      help: 'Time v2 calls spent queued for a token, by v2 class.',
      labelNames: ['class'],
      registers: [],
      collect() {
        mirrorCounter(
          this,
          outbound.stats(0).waits.map((w) => ({ labels: { class: w.limitClass }, value: w.waitedMs / 1000 })),
        );
      },
    }),
    new Gauge({
      name: 'v1gate_v2_limiter_queue_depth',
      help: 'v2 calls waiting for a token now, by v2 class.',
      labelNames: ['class'],
      registers: [],
      collect() {
        this.reset();
        for (const q of outbound.stats(0).queueDepth) this.set({ class: q.limitClass }, q.waiting);
      },
    }),
    new Gauge({
      name: 'v1gate_limiter_failure_policy',
      help: "The shared store's failure policy in force (1 on its label); none without a shared store (Redis, or the primary of WORKERS>1).",
      labelNames: ['policy'],
      registers: [],
      collect() {
        this.reset();
        this.set({ policy: options.policy ?? 'none' }, 1);
      },
    }),
    new Counter({
      name: 'v1gate_limiter_redis_errors_total',
      help: 'Limiter store operations that failed or timed out against the shared store (Redis, or the primary of WORKERS>1).',
      registers: [],
      collect() {
        mirrorCounter(this, [{ labels: {}, value: options.failover?.stats.failures ?? 0 }]);
      },
    }),
    new Gauge({
      name: 'v1gate_limiter_redis_degraded',
      help: '1 while the limiter cannot reach its shared store (Redis, or the primary of WORKERS>1) and its failure policy decides.',
      registers: [],
      collect() {
        this.set(options.failover?.stats.degraded ? 1 : 0);
      },
    }),
  ];
  if (options.perKey) {
    metrics.push(
      new Gauge({
        name: 'v1gate_v2_limiter_busiest_queue',
        help: 'The ten deepest v2 queues now, by hashed api_key and v2 class (METRICS_PER_KEY=1).',
        labelNames: ['key_hash', 'class'],
        registers: [],
        collect() {
          this.reset();
          for (const lane of outbound.stats(10).busiest) this.set({ key_hash: keyHash(lane.apiKey), class: lane.limitClass }, lane.waiting);
        },
      }),
    );
  }
  return metrics;
}
