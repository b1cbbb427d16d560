import type { RateLimitCategory } from './v2-route.js';

/**
 * Today's v2 rate limits by plan (docs/live-evidence.md, "Today's v2 rate limits"): one table, read
 * by the sandbox that enforces them and by v1gate's outbound buckets that keep within them. The
 * service counts per account (every app and key of it together), per category of endpoint.
 */

/** The plans whose budgets differ: Pro, and Business and up (Business, Education, Enterprise, Partner). */
export type RateLimitPlan = 'pro' | 'business';
export const RATE_LIMIT_PLANS: readonly RateLimitPlan[] = ['pro', 'business'];
/** Pro: the smallest paid plan's budgets, which an account of any paid plan has at least. */
export const DEFAULT_RATE_LIMIT_PLAN: RateLimitPlan = 'pro';

export interface CategoryLimit {
  count: number;
  perSeconds: number;
}

export interface PlanLimits {
  categories: Record<RateLimitCategory, CategoryLimit>;
  /** Heavy and Resource-intensive calls together, per UTC day. */
  heavyPerDay: number;
}

export const PLAN_LIMITS: Record<RateLimitPlan, PlanLimits> = {
  pro: {
    categories: {
      light: { count: 30, perSeconds: 1 },
      medium: { count: 20, perSeconds: 1 },
      heavy: { count: 10, perSeconds: 1 },
      'resource-intensive': { count: 10, perSeconds: 60 },
    },
    heavyPerDay: 30_000,
  },
  business: {
    categories: {
      light: { count: 80, perSeconds: 1 },
      medium: { count: 60, perSeconds: 1 },
      heavy: { count: 40, perSeconds: 1 },
      'resource-intensive': { count: 20, perSeconds: 60 },
    },
    heavyPerDay: 60_000,
  },
};

/** The categories that spend the account's daily Heavy cap. */
export function spendsHeavyDay(category: RateLimitCategory): boolean {
  return category === 'heavy' || category === 'resource-intensive';
}

/**
 * A count scaled for tests and benchmarks (1: the service's), whole and at least 1. Both sides
 * scale alike, so a gateway and a sandbox given the same scale agree on every budget.
 */
export function scaledCount(count: number, scale: number): number {
  return Math.max(1, Math.floor(count * scale));
}
