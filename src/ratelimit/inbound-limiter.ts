import { retryAfterSeconds } from '../shared/retry-after.js';
import { V1_LIMIT_CLASSES } from '../../mappings/rate-limits.js';
import { bucketSpecOf } from './bucket-specs.js';
import { msUntilFull, type BucketRef, type BucketStore, type TakeOutcome } from './bucket-store.js';
import { classifyV1Path, remembered } from './classify.js';
import type { BucketSpec } from '../shared/token-bucket.js';

/**
 * The v1 inbound limits: one check per v1 request, per api_key, by the path's v1 class
 * (mappings/rate-limits.ts). A refused request must not reach v2 at all.
 */

/**
 * Whose v1 buckets a caller is limited in: its key's once v2 has accepted its pair (the key's
 * owner), else its pair's own, named by the pair's hash (`unprovenPair`, pairProofOf): no secret
 * v2 has not accepted can take a token from the key's owner, and a pair just proven starts in
 * its key's buckets. The store bounds how many pairs' buckets are kept (MemoryBucketStore's
 * maxBuckets, Redis's expiry).
 */
export function inboundOwnerOf(apiKey: string, unprovenPair: string | undefined): string {
  return unprovenPair === undefined ? apiKey : `${apiKey}/unproven/${unprovenPair}`;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** False when v1 limits are off: there is nothing to tell the client (no X-RateLimit-* headers). */
  enforced: boolean;
  /** The v1 class the path fell in. */
  limitClass: string;
  /** Capacity of the bucket reported on (the one that refused, or the one closest to refusing). */
  limit: number;
  /** Whole requests left in that bucket right now. */
  remaining: number;
  /** Seconds until that bucket is full again. */
  resetSeconds: number;
  /** Seconds to wait before retrying; 0 when allowed. */
  retryAfterSeconds: number;
}

export interface InboundLimiterOptions {
  store: BucketStore;
  /** False: every request is allowed and nothing is stored (V1_RATE_LIMITS=off). */
  enabled?: boolean;
  /** Multiplies every v1 limit (RATE_LIMIT_SCALE). */
  scale?: number;
}

export class InboundLimiter {
  private readonly store: BucketStore;
  private readonly enabled: boolean;
  private readonly specsByClass: Map<string, { windows: string[]; specs: BucketSpec[] }>;
  /** The path's v1 class and buckets, classified once per distinct path (the facade passes its endpoints' canonical paths). */
  private readonly classOf = remembered((v1Path: string) => classifyV1Path(v1Path));
  /** Each owner's buckets by class, built once: the keys are the same strings on every call. */
  private readonly refsByOwner = new Map<string, Map<string, BucketRef[]>>();

  constructor(options: InboundLimiterOptions) {
    this.store = options.store;
    this.enabled = options.enabled ?? true;
    const scale = options.scale ?? 1;
    this.specsByClass = new Map(
      V1_LIMIT_CLASSES.map((c) => [c.name, { windows: c.limits.map((l) => l.per), specs: c.limits.map((l) => bucketSpecOf(l, scale)) }]),
    );
  }

  /** Admit (taking a token from every bucket of the path's class) or refuse one v1 request. */
  async check(apiKey: string, v1Path: string): Promise<RateLimitDecision> {
    const { name: limitClass, bucket } = this.classOf(v1Path);
    if (!this.enabled) {
      return { allowed: true, enforced: false, limitClass, limit: 0, remaining: 0, resetSeconds: 0, retryAfterSeconds: 0 };
    }
    const refs = this.refsFor(apiKey, limitClass, bucket);
    // A store that can answer at once (memory, a held lease) does: no promise to await.
    const outcome = this.store.takeNow?.(refs) ?? (await this.store.take(refs));
    const decision = decisionOf(limitClass, refs, outcome);
    if (!decision.allowed) this.refusedByClass.set(limitClass, (this.refusedByClass.get(limitClass) ?? 0) + 1);
    return decision;
  }

  private refsFor(owner: string, limitClass: string, bucket: string): BucketRef[] {
    let byClass = this.refsByOwner.get(owner);
    if (!byClass) {
      // Owners include unproven pairs, which anyone can make up: the memory is bounded, and starts again when full.
      if (this.refsByOwner.size >= MAX_CACHED_OWNERS) this.refsByOwner.clear();
      this.refsByOwner.set(owner, (byClass = new Map<string, BucketRef[]>()));
    }
    let refs = byClass.get(bucket);
    if (!refs) {
      const { windows, specs } = this.specsByClass.get(limitClass)!;
      refs = specs.map((spec, i) => ({ key: `in:{${owner}:${bucket}}:${windows[i]}`, spec }));
      byClass.set(bucket, refs);
    }
    return refs;
  }

  // Read-only statistics for metrics.
  private readonly refusedByClass = new Map<string, number>();

  /** v1 requests refused since start, by v1 limit class. */
  refusals(): { limitClass: string; count: number }[] {
    return [...this.refusedByClass].map(([limitClass, count]) => ({ limitClass, count }));
  }
}

/** Owners whose bucket keys are kept built (a busy gateway's keys fit; a flood of made-up pairs only restarts it). */
const MAX_CACHED_OWNERS = 10_000;

/** Report on the bucket that refused (the longest wait), or else the one with the fewest tokens left. */
function decisionOf(limitClass: string, refs: BucketRef[], outcome: TakeOutcome): RateLimitDecision {
  let at = 0;
  outcome.buckets.forEach((b, i) => {
    const best = outcome.buckets[at]!;
    const worse = outcome.allowed ? b.tokens < best.tokens : b.retryAfterMs > best.retryAfterMs;
    if (worse) at = i;
  });
  const spec = refs[at]!.spec;
  const tokens = outcome.buckets[at]!.tokens;
  return {
    allowed: outcome.allowed,
    enforced: true,
    limitClass,
    limit: spec.burst,
    remaining: Math.max(0, Math.floor(tokens)),
    resetSeconds: Math.ceil(msUntilFull(spec, tokens) / 1000),
    retryAfterSeconds: outcome.allowed ? 0 : retryAfterSeconds(outcome.retryAfterMs),
  };
}
