import { msUntilTokens, type BucketSpec } from '../shared/token-bucket.js';

/**
 * Where token buckets live: in this process (memory-store.ts) or in Redis, shared by every
 * gateway process (redis-store.ts). Both apply takeToken's arithmetic; both take from a group of
 * buckets all or none, so a request refused by its per-day bucket does not spend its per-second one.
 */

export interface BucketRef {
  /** The bucket's full key (prefix, api_key, class, window). */
  key: string;
  spec: BucketSpec;
}

export interface BucketReading {
  /** Tokens in the bucket after this request (fractional). */
  tokens: number;
  /** Milliseconds until this bucket alone would admit the request; 0 when it would now. */
  retryAfterMs: number;
}

export interface TakeOutcome {
  allowed: boolean;
  /** One reading per bucket, in the order asked. */
  buckets: BucketReading[];
  /** When refused: milliseconds until every bucket would admit (the largest wait). 0 when allowed. */
  retryAfterMs: number;
}

export interface BucketStore {
  /** Take `cost` tokens from every bucket, or from none when any of them is short or paused. */
  take(buckets: readonly BucketRef[], cost?: number): Promise<TakeOutcome>;
  /**
   * The same take, answered synchronously when the store can (memory always; a leasing store when
   * this process holds the tokens): lets the limiters admit a call that finds its token without a
   * promise, a queue or a timer. `undefined`: nothing was taken, ask `take` instead.
   */
  takeNow?(buckets: readonly BucketRef[], cost?: number): TakeOutcome | undefined;
  /** Refuse every take on these buckets for the next `durationMs` (an upstream 429's Retry-After). */
  pause(buckets: readonly BucketRef[], durationMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Fold per-bucket readings into an outcome: allowed only when every bucket allows. */
export function outcomeOf(buckets: BucketReading[]): TakeOutcome {
  const retryAfterMs = Math.max(0, ...buckets.map((b) => b.retryAfterMs));
  return { allowed: retryAfterMs === 0, buckets, retryAfterMs };
}

/** How long until a bucket holding `tokens` is full again (then it equals a bucket never used). */
export function msUntilFull(spec: BucketSpec, tokens: number): number {
  return msUntilTokens(spec, tokens, spec.burst);
}
