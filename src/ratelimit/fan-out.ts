import { RateLimitExceeded } from './errors.js';
import type { OutboundLimiter, V2Budget } from './outbound-limiter.js';
import type { RateLimitCategory } from '../v2-contract/v2-route.js';
import type { BucketSpec } from '../shared/token-bucket.js';

/**
 * The fan-out pre-check: a v1 call about to make `calls` v2 calls of one category (a report's
 * per-meeting reads) learns at once whether they can all be admitted within its outbound wait,
 * instead of sending what fits and then failing at the deadline — 30 s later, with the category's
 * tokens spent for nothing.
 *
 * The bound is arithmetic, over the buckets the outbound limiter holds the category to: a full
 * bucket's burst plus what refills during the wait. It is the best case; the per-call deadline
 * of the outbound limiter still applies to every call the check lets through.
 */

/** The most calls a class's buckets admit within `waitMs`, starting full (the tightest bucket decides). */
export function callsAdmittedWithin(specs: readonly BucketSpec[], waitMs: number): number {
  return Math.min(...specs.map((spec) => Math.floor(spec.burst + (spec.ratePerSecond * Math.max(0, waitMs)) / 1000)));
}

/** How long `calls` calls take to be admitted from full buckets (ms): the Retry-After of a refused fan-out. */
export function msToAdmit(specs: readonly BucketSpec[], calls: number): number {
  return Math.max(0, ...specs.map((spec) => (Math.max(0, calls - spec.burst) / spec.ratePerSecond) * 1000));
}

/** Throws RateLimitExceeded when `calls` v2 calls of `category` cannot be admitted within `waitMs` at the budget's plan. */
export function requireFanOutWithin(
  limiter: OutboundLimiter,
  budget: Pick<V2Budget, 'plan'>,
  category: RateLimitCategory,
  calls: number,
  waitMs: number,
): void {
  const specs = limiter.specsOf(budget.plan, category);
  if (calls > callsAdmittedWithin(specs, waitMs)) throw new RateLimitExceeded('deadline', category, msToAdmit(specs, calls));
}
