import { WINDOW_SECONDS, type LimitDef } from '../../mappings/rate-limits.js';
import type { BucketSpec } from '../shared/token-bucket.js';

/**
 * From the tables' limits (n per window) to token buckets, scaled by configuration, and, for the
 * outbound side, with the safety margin that keeps v1gate from ever causing an upstream 429.
 */

/** `n per window` as a bucket: refills n per window, holds n. `scale` multiplies both (tests raise limits). */
export function bucketSpecOf(limit: LimitDef, scale = 1): BucketSpec {
  const count = limit.count * scale;
  return { ratePerSecond: count / WINDOW_SECONDS[limit.per], burst: Math.max(1, Math.floor(count)) };
}

/**
 * v1gate's default (docs/decisions.md, "Rate limits"): 1% under the rate, at most 300 ms of jitter
 * absorbed (all of it before the first answers and after an upstream 429; otherwise what the calls'
 * own spreads measure, arrival-spread.ts, never less than DEFAULT_MIN_JITTER_MS).
 */
export const DEFAULT_SAFETY_MARGIN: SafetyMargin = { rateFactor: 0.99, jitterMs: 300 };

/** The least jitter absorbed: both clocks count whole milliseconds, and a call may be a little slower than any measured. */
export const DEFAULT_MIN_JITTER_MS = 10;

export interface SafetyMargin {
  /** Our send rate as a fraction of the upstream's (0.9: 10% under). */
  rateFactor: number;
  /** Arrival jitter (ms) absorbed: the burst is lowered by the tokens refilled in that time (or the rate, where the burst is 1). */
  jitterMs: number;
}

/**
 * The upstream counts arrival times, we count send times; the two differ by network and
 * scheduling jitter (a call that opens a new TLS connection, or waits behind a busy event loop,
 * arrives later than one on a warm socket sent just after it). Arrivals jittered by at most J
 * must still fit the upstream's bucket (B, r), whatever our bucket (b, r') lets through:
 *
 * - with b = B − R (R ≥ 1 tokens held back), the tightest case is a full burst arriving late
 *   together with the next tokens on time: it fits while R / r' ≥ J, so R = ceil(r'·J);
 * - where B is too small to hold tokens back (b cannot go below 1), the spacing alone must cover
 *   the jitter: two calls sent 1/r' apart arrive at least 1/r' − J apart, and the upstream needs
 *   1/r, so r' ≤ 1 / (1/r + J) (or r' ≤ R / J when some R ≥ 1 is left).
 *
 * With the jitter covered this way, sending at the upstream's own rate is safe: in any interval of
 * arrivals, the calls were sent in that interval widened by J, so at most b + r'·(T + J) ≤ B + r·T
 * arrive. `rateFactor` keeps the long-run rate a little under the upstream's for what the
 * arithmetic does not see (the two clocks' drift, floating-point rounding).
 * bucket-specs.test.ts replays this against the upstream's own bucket with random jitter.
 */
export function withSafetyMargin(upstream: BucketSpec, margin: SafetyMargin): BucketSpec {
  const jitterSeconds = margin.jitterMs / 1000;
  let ratePerSecond = upstream.ratePerSecond * margin.rateFactor;
  const reserve = Math.ceil(ratePerSecond * jitterSeconds);
  if (upstream.burst - reserve >= 1) return { ratePerSecond, burst: upstream.burst - reserve };
  const heldBack = upstream.burst - 1;
  const spacingLimited = heldBack >= 1 ? heldBack / jitterSeconds : 1 / (1 / upstream.ratePerSecond + jitterSeconds);
  ratePerSecond = Math.min(ratePerSecond, spacingLimited);
  return { ratePerSecond, burst: 1 };
}
