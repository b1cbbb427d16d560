import { takeToken, type BucketSpec, type BucketState } from '../shared/token-bucket.js';
import { SandboxError, V2Code } from './errors.js';

/**
 * The v2 service's own limits, per account (v2 spec, Limits): 10 requests/s on every endpoint,
 * 1/s on billing and plan endpoints, 1/s and 2000/day on report and metric endpoints.
 * Exceeding one answers 429 with `Retry-After`.
 */

export type V2LimitClass = 'general' | 'billing' | 'report';

export interface SandboxLimits {
  generalPerSecond: number;
  billingPerSecond: number;
  reportPerSecond: number;
  reportPerDay: number;
}

export const SPEC_LIMITS: SandboxLimits = { generalPerSecond: 10, billingPerSecond: 1, reportPerSecond: 1, reportPerDay: 2000 };

/** Which v2 limit class a request path (relative to /v2) falls in. */
export function limitClassOf(path: string): V2LimitClass {
  if (/^\/(report|metrics)\//.test(path)) return 'report';
  if (/^\/accounts\/[^/]+\/(billing|plans)(\/|$)/.test(path)) return 'billing';
  return 'general';
}

export class SandboxRateLimiter {
  private readonly buckets = new Map<string, BucketState>();
  private readonly specs: Record<V2LimitClass, BucketSpec[]>;

  constructor(limits: SandboxLimits) {
    const perSecond = (n: number): BucketSpec => ({ ratePerSecond: n, burst: n });
    this.specs = {
      general: [perSecond(limits.generalPerSecond)],
      billing: [perSecond(limits.billingPerSecond)],
      report: [perSecond(limits.reportPerSecond), { ratePerSecond: limits.reportPerDay / 86_400, burst: limits.reportPerDay }],
    };
  }

  /** Take one token from every bucket of the class, or throw 429 (taking none). */
  admit(accountId: string, limitClass: V2LimitClass, nowMs: number): void {
    const specs = this.specs[limitClass];
    const results = specs.map((spec, i) => {
      const key = `${accountId}:${limitClass}:${i}`;
      return { key, result: takeToken(this.buckets.get(key), spec, nowMs) };
    });
    const refused = results.filter((r) => !r.result.allowed);
    if (refused.length > 0) {
      const retryAfterMs = Math.max(...refused.map((r) => r.result.retryAfterMs));
      throw new RateLimitedError(retryAfterMs);
    }
    for (const { key, result } of results) this.buckets.set(key, result.state);
  }
}

export class RateLimitedError extends SandboxError {
  constructor(readonly retryAfterMs: number) {
    super(429, V2Code.rateLimited, 'You have reached the maximum per-second rate limit for this API. Try again later.');
  }
}
