import { withSafetyMargin, type SafetyMargin } from './bucket-specs.js';
import type { BucketSpec } from '../shared/token-bucket.js';
import type { RateLimitCategory } from '../v2-contract/v2-route.js';
import { PLAN_LIMITS, scaledCount, spendsHeavyDay, type RateLimitPlan } from '../v2-contract/rate-limit-plans.js';

/** The outbound limiter's buckets of every plan and category (outbound-limiter.ts), read from the plans' table. */

/** A category's buckets at a plan: the upstream's (to read its answers against), ours after the margin, and their names. */
export interface CategorySpecs {
  upstream: BucketSpec[];
  specs: BucketSpec[];
  names: string[];
}

export type PlanSpecs = Record<RateLimitPlan, Record<RateLimitCategory, CategorySpecs>>;

/** Every plan's buckets: the upstream's (scaled), and ours within them by `margin`. */
export function upstreamSpecsOf(scale: number, margin: SafetyMargin): PlanSpecs {
  const of = (plan: RateLimitPlan, category: RateLimitCategory): CategorySpecs => {
    const limits = PLAN_LIMITS[plan];
    const { count, perSeconds } = limits.categories[category];
    const scaled = scaledCount(count, scale);
    const upstream: BucketSpec[] = [{ ratePerSecond: scaled / perSeconds, burst: scaled }];
    const names: string[] = [category];
    if (spendsHeavyDay(category)) {
      const day = scaledCount(limits.heavyPerDay, scale);
      upstream.push({ ratePerSecond: day / 86_400, burst: day });
      names.push('heavy-day');
    }
    return { upstream, specs: upstream.map((spec) => withSafetyMargin(spec, margin)), names };
  };
  const plan = (p: RateLimitPlan) => ({
    light: of(p, 'light'),
    medium: of(p, 'medium'),
    heavy: of(p, 'heavy'),
    'resource-intensive': of(p, 'resource-intensive'),
  });
  return { pro: plan('pro'), business: plan('business') };
}
