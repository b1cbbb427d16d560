import type { RateLimitExceeded } from './errors.js';
import type { RateLimitDecision } from './inbound-limiter.js';

/**
 * The rate-limit headers of a v1 answer. X-RateLimit-Reset is in seconds from now (the bucket
 * is full again then), not an epoch time: v1 never documented one, and a delta cannot be skewed by
 * the client's clock.
 *
 * `exceeded`: an outbound call gave up (RateLimitExceeded); its Retry-After wins over the
 * inbound decision's, which admitted the request.
 */
export function rateLimitHeaders(decision: RateLimitDecision, exceeded?: RateLimitExceeded): Record<string, string> {
  const headers: Record<string, string> = {};
  if (decision.enforced) {
    headers['X-RateLimit-Limit'] = String(decision.limit);
    headers['X-RateLimit-Remaining'] = String(decision.remaining);
    headers['X-RateLimit-Reset'] = String(decision.resetSeconds);
  }
  if (exceeded) headers['Retry-After'] = String(exceeded.retryAfterSeconds);
  else if (!decision.allowed) headers['Retry-After'] = String(decision.retryAfterSeconds);
  return headers;
}

/**
 * An upstream Retry-After header (delta seconds or an HTTP date) in milliseconds from now;
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
