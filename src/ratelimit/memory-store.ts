import { LRUCache } from 'lru-cache';
import { msUntilFull, outcomeOf, type BucketReading, type BucketRef, type TakeOutcome } from './bucket-store.js';
import type { Lease, LeaseSource } from './lease-store.js';
import { msUntilTokens, refilledTokens, type BucketSpec, type BucketState } from '../shared/token-bucket.js';

/**
 * Token buckets in this process's memory: the store without REDIS_URL, the fallback of the Redis
 * store when it fails open, and a cluster primary's buckets, which its workers lease from over IPC
 * (ipc-store.ts) with the same semantics as Redis' LEASE and GIVE_BACK scripts.
 *
 * Memory stays flat under many api_keys: past `maxBuckets` the least recently used entries go
 * first, and an entry whose bucket would be full again by now (a full bucket and an absent one
 * admit the same) counts for nothing: `size` drops such entries. A take changes its entry in
 * place, so the hot path (a key's next token) allocates nothing for the bucket itself.
 */

/** A bucket's state (tokens and when they were counted), its spec, and an upstream 429's hold. */
interface StoredBucket extends BucketState {
  spec: BucketSpec;
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
    this.buckets = new LRUCache<string, StoredBucket>({ max: options.maxBuckets ?? 100_000 });
  }

  /** How many buckets are held that are not full again by now (for tests of memory staying flat). */
  get size(): number {
    const now = this.now();
    for (const [key, stored] of this.buckets.entries()) if (isSettled(stored, now)) this.buckets.delete(key);
    return this.buckets.size;
  }

  async take(refs: readonly BucketRef[], cost = 1): Promise<TakeOutcome> {
    return this.takeNow(refs, cost);
  }

  /** Synchronous core of take (the memory store never waits). */
  takeNow(refs: readonly BucketRef[], cost = 1): TakeOutcome {
    const now = this.now();
    if (refs.length === 1) return this.takeOne(refs[0]!, cost, now);
    const stored = refs.map((ref) => this.buckets.get(ref.key));
    const readings: BucketReading[] = refs.map((ref, i) => {
      const tokens = refilledTokens(stored[i], ref.spec, now);
      const pausedForMs = msUntil(stored[i]?.pausedUntilMs ?? 0, now);
      return { tokens, retryAfterMs: Math.max(msUntilTokens(ref.spec, tokens, cost), pausedForMs) };
    });
    const outcome = outcomeOf(readings);
    // Refused: nothing spent, each reading the tokens the bucket holds (what a refused request sees).
    if (outcome.allowed) {
      for (const [i, reading] of readings.entries()) {
        reading.tokens -= cost;
        this.keep(refs[i]!, stored[i], reading.tokens, now);
      }
    }
    return outcome;
  }

  /** takeNow for one bucket (the common case: most classes have one window), without the group's arrays. */
  private takeOne(ref: BucketRef, cost: number, now: number): TakeOutcome {
    const stored = this.buckets.get(ref.key);
    const tokens = refilledTokens(stored, ref.spec, now);
    const retryAfterMs = Math.max(msUntilTokens(ref.spec, tokens, cost), msUntil(stored?.pausedUntilMs ?? 0, now));
    if (retryAfterMs > 0) return { allowed: false, buckets: [{ tokens, retryAfterMs }], retryAfterMs };
    this.keep(ref, stored, tokens - cost, now);
    return { allowed: true, buckets: [{ tokens: tokens - cost, retryAfterMs: 0 }], retryAfterMs: 0 };
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
      const refilled = refilledTokens(stored, ref.spec, now);
      const pausedForMs = msUntil(stored?.pausedUntilMs ?? 0, now);
      if (pausedForMs > 0) paused = true;
      granted = Math.min(granted, Math.floor(refilled));
      return { ref, stored, refilled, retryAfterMs: Math.max(msUntilTokens(ref.spec, refilled, least), pausedForMs) };
    });
    if (paused || granted < least || granted <= 0) granted = 0;
    const readings: BucketReading[] = buckets.map(({ ref, stored, refilled, retryAfterMs }) => {
      const tokens = refilled - granted;
      if (granted > 0) this.keep(ref, stored, tokens, now);
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
      this.keep(ref, stored, Math.min(ref.spec.burst, refilledTokens(stored, ref.spec, now) + tokens), now);
    }
  }

  async pause(refs: readonly BucketRef[], durationMs: number): Promise<void> {
    const now = this.now();
    for (const ref of refs) {
      const stored = this.buckets.get(ref.key);
      const kept = this.keep(ref, stored, refilledTokens(stored, ref.spec, now), now);
      kept.pausedUntilMs = Math.max(kept.pausedUntilMs, now + durationMs);
    }
  }

  async close(): Promise<void> {
    this.buckets.clear();
  }

  /** The bucket holds `tokens` now: its entry changed in place, or a new one (LRU order was updated by the `get` that found it). */
  private keep(ref: BucketRef, stored: StoredBucket | undefined, tokens: number, now: number): StoredBucket {
    if (stored) {
      stored.tokens = tokens;
      stored.updatedAtMs = now;
      stored.spec = ref.spec;
      return stored;
    }
    const created: StoredBucket = { tokens, updatedAtMs: now, spec: ref.spec, pausedUntilMs: 0 };
    this.buckets.set(ref.key, created);
    return created;
  }
}

/** A bucket full again by now and not paused: the same as none. */
function isSettled(stored: StoredBucket, now: number): boolean {
  return stored.pausedUntilMs <= now && msUntilFull(stored.spec, refilledTokens(stored, stored.spec, now)) === 0;
}

/** Whole milliseconds from `now` until `untilMs` (a pause's end); 0 when it has passed. */
function msUntil(untilMs: number, now: number): number {
  return Math.max(0, Math.ceil(untilMs - now));
}
