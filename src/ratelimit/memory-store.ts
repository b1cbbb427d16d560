import { LRUCache } from 'lru-cache';
import { msUntilFull, outcomeOf, type BucketReading, type BucketRef, type BucketStore, type TakeOutcome } from './bucket-store.js';
import { takeToken, type BucketState } from './token-bucket.js';

/**
 * Token buckets in this process's memory: the store without REDIS_URL, and the fallback of the
 * Redis store when it fails open.
 *
 * Memory stays flat under many api_keys: an entry lives only until its bucket would be full again
 * (a full bucket and an absent one admit the same), and the least recently used entries go first
 * past `maxBuckets`.
 */

interface StoredBucket {
  state: BucketState;
  /** An upstream 429 holds the bucket shut until then. */
  pausedUntilMs: number;
}

export interface MemoryBucketStoreOptions {
  /** Most buckets kept; past it the idlest go (and start full if used again). */
  maxBuckets?: number;
  /** Milliseconds; injectable so unit tests can make time pass. */
  now?: () => number;
}

export class MemoryBucketStore implements BucketStore {
  private readonly buckets: LRUCache<string, StoredBucket>;
  private readonly now: () => number;

  constructor(options: MemoryBucketStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    // The cache's clock is ours, so "expired" means "full by now" under a test clock too.
    const clock = this.now;
    this.buckets = new LRUCache<string, StoredBucket>({
      max: options.maxBuckets ?? 100_000,
      ttlAutopurge: false,
      ttlResolution: 0,
      perf: { now: clock },
    });
  }

  /** How many buckets are held (for tests of memory staying flat). */
  get size(): number {
    this.buckets.purgeStale();
    return this.buckets.size;
  }

  async take(refs: readonly BucketRef[], cost = 1): Promise<TakeOutcome> {
    return this.takeNow(refs, cost);
  }

  /** Synchronous core of take (the memory store never waits). */
  takeNow(refs: readonly BucketRef[], cost = 1): TakeOutcome {
    const now = this.now();
    const results = refs.map((ref) => {
      const stored = this.buckets.get(ref.key);
      const pausedUntilMs = stored?.pausedUntilMs ?? 0;
      const result = takeToken(stored?.state, ref.spec, now, cost);
      const pausedForMs = Math.max(0, Math.ceil(pausedUntilMs - now));
      return { ref, result, pausedUntilMs, pausedForMs };
    });
    const readings: BucketReading[] = results.map(({ result, pausedForMs }) => ({
      tokens: result.state.tokens,
      retryAfterMs: Math.max(result.retryAfterMs, pausedForMs),
    }));
    const outcome = outcomeOf(readings);
    if (outcome.allowed) {
      for (const { ref, result, pausedUntilMs } of results) this.keep(ref, result.state, pausedUntilMs, now);
    } else {
      // Taking none: report what a refused request sees, without spending anything.
      for (const [i, r] of results.entries()) {
        readings[i]!.tokens = r.result.allowed ? r.result.state.tokens + cost : r.result.state.tokens;
      }
    }
    return outcome;
  }

  async pause(refs: readonly BucketRef[], durationMs: number): Promise<void> {
    const now = this.now();
    for (const ref of refs) {
      const stored = this.buckets.get(ref.key);
      const pausedUntilMs = Math.max(stored?.pausedUntilMs ?? 0, now + durationMs);
      const state = stored?.state ?? { tokens: ref.spec.burst, updatedAtMs: now };
      this.keep(ref, state, pausedUntilMs, now);
    }
  }

  async close(): Promise<void> {
    this.buckets.clear();
  }

  private keep(ref: BucketRef, state: BucketState, pausedUntilMs: number, now: number): void {
    const ttl = Math.max(msUntilFull(ref.spec, state.tokens), pausedUntilMs - now, 1);
    this.buckets.set(ref.key, { state, pausedUntilMs }, { ttl: Math.ceil(ttl) });
  }
}
