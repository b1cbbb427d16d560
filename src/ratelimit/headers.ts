import type { RateLimitDecision } from './inbound-limiter.js';

/**
 * The rate-limit headers of a v1 answer. X-RateLimit-Reset is in seconds from now (the bucket
 * is full again then), not an epoch time: v1 never documented one, and a delta cannot be skewed by
 * the client's clock. A refusal adds Retry-After.
 */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {};
  if (decision.enforced) {
    headers['X-RateLimit-Limit'] = String(decision.limit);
    headers['X-RateLimit-Remaining'] = String(decision.remaining);
    headers['X-RateLimit-Reset'] = String(decision.resetSeconds);
  }
  if (!decision.allowed) headers['Retry-After'] = String(decision.retryAfterSeconds);
  return headers;
}

export { parseRetryAfter } from '../shared/retry-after.js';
