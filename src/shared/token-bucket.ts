/**
 * The token bucket, as a pure function over a tiny state, so that the in-memory store, the Redis
 * script and the sandbox's own limiter all apply exactly the same arithmetic.
 *
 * A bucket holds at most `burst` tokens and gains `ratePerSecond` tokens per second. A request
 * takes `cost` tokens when there are enough; otherwise it is refused and told how long until
 * there will be.
 */

export interface BucketSpec {
  /** Tokens gained per second (may be fractional: 2000/day is 2000/86400). */
  ratePerSecond: number;
  /** Capacity: the most requests admitted at once after a quiet spell. */
  burst: number;
}

export interface BucketState {
  tokens: number;
  /** Milliseconds (any monotonic or wall clock, used consistently). */
  updatedAtMs: number;
}

export interface TakeResult {
  allowed: boolean;
  state: BucketState;
  /** Whole tokens left after this request. */
  remaining: number;
  /** When refused: milliseconds until `cost` tokens are there. 0 when allowed. */
  retryAfterMs: number;
}

export function takeToken(previous: BucketState | undefined, spec: BucketSpec, nowMs: number, cost = 1): TakeResult {
  const refilled = refilledTokens(previous, spec, nowMs);
  if (refilled >= cost) {
    const tokens = refilled - cost;
    return { allowed: true, state: { tokens, updatedAtMs: nowMs }, remaining: Math.floor(tokens), retryAfterMs: 0 };
  }
  const retryAfterMs = msUntilTokens(spec, refilled, cost);
  return { allowed: false, state: { tokens: refilled, updatedAtMs: nowMs }, remaining: Math.floor(refilled), retryAfterMs };
}

/** The tokens a bucket holds at `nowMs`: what it kept plus its refill since, never past its burst; a bucket never used is full. */
export function refilledTokens(previous: BucketState | undefined, spec: BucketSpec, nowMs: number): number {
  if (!previous) return spec.burst;
  const elapsedMs = Math.max(0, nowMs - previous.updatedAtMs);
  return Math.min(spec.burst, previous.tokens + (elapsedMs * spec.ratePerSecond) / 1000);
}

/** Milliseconds until a bucket holding `tokens` has `cost` of them; 0 when it has them now. */
export function msUntilTokens(spec: BucketSpec, tokens: number, cost: number): number {
  return tokens >= cost ? 0 : Math.ceil(((cost - tokens) * 1000) / spec.ratePerSecond);
}
