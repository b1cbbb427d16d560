import { LRUCache } from 'lru-cache';
import { msUntilFull, outcomeOf, type BucketReading, type BucketRef, type TakeOutcome } from './bucket-store.js';
import type { Lease, LeaseSource } from './lease-store.js';
import { msUntilTokens, refilledTokens, takeToken, type BucketState } from '../shared/token-bucket.js';

/**
 * Token buckets in this process's memory: the store without REDIS_URL, the fallback of the Redis
 * store when it fails open, and a cluster primary's buckets, which its workers lease from over IPC
 * (ipc-store.ts) with the same semantics as Redis' LEASE and GIVE_BACK scripts.
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

export class MemoryBucketStore implements LeaseSource {
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
      return { ref, result, pausedUntilMs, pausedForMs: msUntil(pausedUntilMs, now) };
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

  async lease(refs: readonly BucketRef[], want: number, least: number): Promise<Lease> {
    return this.leaseNow(refs, want, least);
  }

  /**
   * As LEASE_SCRIPT (redis-scripts.ts): g = min(want, whole tokens of the emptiest bucket), taken
   * from every bucket when g ≥ least and none is paused; else 0, spending nothing. The readings'
   * waits are for `least` tokens (and the pause), as a take of that cost would see.
   */
  leaseNow(refs: readonly BucketRef[], want: number, least: number): Lease {
    const now = this.now();
    let granted = want;
    let paused = false;
    const buckets = refs.map((ref) => {
      const stored = this.buckets.get(ref.key);
      const pausedUntilMs = stored?.pausedUntilMs ?? 0;
      const refilled = refilledTokens(stored?.state, ref.spec, now);
      const pausedForMs = msUntil(pausedUntilMs, now);
      if (pausedForMs > 0) paused = true;
      granted = Math.min(granted, Math.floor(refilled));
      return { ref, refilled, pausedUntilMs, retryAfterMs: Math.max(msUntilTokens(ref.spec, refilled, least), pausedForMs) };
    });
    if (paused || granted < least || granted <= 0) granted = 0;
    const readings: BucketReading[] = buckets.map(({ ref, refilled, pausedUntilMs, retryAfterMs }) => {
      const tokens = refilled - granted;
      if (granted > 0) this.keep(ref, { tokens, updatedAtMs: now }, pausedUntilMs, now);
      return { tokens, retryAfterMs };
    });
    return { granted, outcome: outcomeOf(readings) };
  }

  /** As GIVE_BACK_SCRIPT: tokens back on top of each bucket's refill, never past its burst; a bucket not held (full) gets none. */
  async giveBack(refs: readonly BucketRef[], tokens: number): Promise<void> {
    if (tokens <= 0) return;
    const now = this.now();
    for (const ref of refs) {
      const stored = this.buckets.get(ref.key);
      if (!stored) continue;
      const back = Math.min(ref.spec.burst, refilledTokens(stored.state, ref.spec, now) + tokens);
      this.keep(ref, { tokens: back, updatedAtMs: now }, stored.pausedUntilMs, now);
    }
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

/** Whole milliseconds from `now` until `untilMs` (a pause's end); 0 when it has passed. */
function msUntil(untilMs: number, now: number): number {
  return Math.max(0, Math.ceil(untilMs - now));
}
