import { WINDOW_SECONDS, type LimitDef } from '../../mappings/rate-limits.js';
import type { BucketSpec } from './token-bucket.js';

/**
 * From the tables' limits (n per window) to token buckets, scaled by configuration, and, for the
 * outbound side, with the safety margin that keeps v1gate from ever causing an upstream 429.
 */

/** `n per window` as a bucket: refills n per window, holds n. `scale` multiplies both (tests raise limits). */
export function bucketSpecOf(limit: LimitDef, scale = 1): BucketSpec {
  const count = limit.count * scale;
  return { ratePerSecond: count / WINDOW_SECONDS[limit.per], burst: Math.max(1, Math.floor(count)) };
}

export interface SafetyMargin {
  /** Our send rate as a fraction of the upstream's (0.9: 10% under). */
  rateFactor: number;
  /** Arrival jitter (ms) absorbed: the burst is lowered by the tokens refilled in that time. */
  jitterMs: number;
}

/**
 * The upstream counts arrival times, we count send times; the two differ by network and
 * scheduling jitter. If our sends never exceed `b + r'·t` in any window t, arrivals jittered by at
 * most J never exceed `b + r'·(t + J)`; the upstream admits `B + r·t`. Keeping
 * `b = B − ceil(r'·J)` makes every window fit, and r' < r keeps it fitting where b cannot shrink
 * (a burst of 1 tolerates a jitter of 1/r' − 1/r: 111 ms at 1/s with rateFactor 0.9).
 */
export function withSafetyMargin(upstream: BucketSpec, margin: SafetyMargin): BucketSpec {
  const ratePerSecond = upstream.ratePerSecond * margin.rateFactor;
  const reserve = Math.ceil((ratePerSecond * margin.jitterMs) / 1000);
  return { ratePerSecond, burst: Math.max(1, upstream.burst - reserve) };
}
