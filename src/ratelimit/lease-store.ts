import { outcomeOf, type BucketRef, type BucketStore, type TakeOutcome } from './bucket-store.js';

/**
 * Local token leases in front of the shared buckets (Redis, or a cluster primary's memory over
 * IPC), as Kong's sync_rate or Envoy's local bucket in front of the global one: a process takes k tokens of a group of buckets in one round
 * trip and admits the next k requests from memory, synchronously (takeNow), topping the lease up
 * in the background once half of it is spent. The hot path costs no round trip; the shared store
 * still hands out every token, so no process can admit a token the shared store did not give it.
 *
 * Exactness (docs/decisions.md, "Leases in front of a shared store"): tokens are only moved earlier, never created.
 * Each process holds at most k tokens of a group, so over any interval [a, b] the P processes
 * together admit at most burst + rate·(b − a) + P·k, and when traffic stops at most P·k tokens sit
 * unused until given back (at most `maxAgeMs` later). k is what the group's slowest bucket
 * refills in `leaseMs`, at most `maxBurstShare` of its burst; a group where that is under 2
 * tokens is not leased at all (exact, one round trip per take).
 *
 * Pauses (upstream 429s): the pausing process drops its lease at once; another process stops at
 * its next top-up (refused while paused) or when its lease grows older than `maxAgeMs`, so it
 * admits at most k more requests, none later than `maxAgeMs` after the pause reached the shared store.
 *
 * Errors of the shared store surface on `take` (failure-policy.ts decides what they mean); a
 * failed background top-up only leaves the lease to run out, and the next take meets the error.
 */

/** What a lease call returns: how many tokens were granted (0: none, `outcome` says why). */
export interface Lease {
  granted: number;
  outcome: TakeOutcome;
}

/** A store that can hand out tokens in batches (RedisBucketStore, MemoryBucketStore, and IpcBucketStore in front of the latter). */
export interface LeaseSource extends BucketStore {
  /** Up to `want` tokens from every bucket, all or none; none when fewer than `least` are there or a bucket is paused. */
  lease(refs: readonly BucketRef[], want: number, least: number): Promise<Lease>;
  /** Return unused leased tokens (never filling a bucket past its burst). */
  giveBack(refs: readonly BucketRef[], tokens: number): Promise<void>;
}

export interface LeasingOptions {
  /** A lease holds what the group's slowest bucket refills in this many ms. */
  leaseMs: number;
  /** Tokens held longer than this (since the last grant) are given back, not served. Default: 10 × leaseMs, at least 1 s. */
  maxAgeMs?: number;
  /** Most of a bucket's burst one process may hold. Default 1/4. */
  maxBurstShare?: number;
  now?: () => number;
}

interface Held {
  refs: readonly BucketRef[];
  /** k: the most tokens held at once. */
  size: number;
  tokens: number;
  /** Tokens asked for by lease calls under way (so concurrent calls do not lease past k). */
  pending: number;
  /** When the last granting lease call was sent. */
  grantedAt: number;
  /** Each bucket's tokens in the shared store after the last grant (for the readings). */
  shared: number[];
  refilling: Promise<void> | undefined;
  usedAt: number;
  /** This process paused the group: serve nothing locally until then (a top-up under way may still land). */
  pausedUntil: number;
}

export class LeasingBucketStore implements BucketStore {
  private readonly groups = new Map<string, Held>();
  private readonly now: () => number;
  private readonly maxAgeMs: number;
  private readonly share: number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly source: LeaseSource,
    private readonly options: LeasingOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.maxAgeMs = options.maxAgeMs ?? Math.max(1_000, options.leaseMs * 10);
    this.share = options.maxBurstShare ?? 0.25;
    // Gives back leases nobody spends: an idle process must not sit on another's tokens.
    this.sweeper = setInterval(() => this.sweep(), Math.max(50, this.maxAgeMs / 2));
    this.sweeper.unref();
  }

  /** k for a group: the tokens its slowest bucket refills in leaseMs, capped by its share of the burst; 0 below 2. */
  leaseSize(refs: readonly BucketRef[]): number {
    let k = Infinity;
    for (const { spec } of refs) {
      k = Math.min(k, Math.floor((spec.ratePerSecond * this.options.leaseMs) / 1000), Math.floor(spec.burst * this.share));
    }
    return k >= 2 && k !== Infinity ? k : 0;
  }

  takeNow(refs: readonly BucketRef[], cost = 1): TakeOutcome | undefined {
    const held = this.heldFor(refs);
    return held ? this.serve(held, cost) : undefined;
  }

  async take(refs: readonly BucketRef[], cost = 1): Promise<TakeOutcome> {
    const held = this.heldFor(refs);
    if (!held) return this.source.take(refs, cost);
    const local = this.serve(held, cost);
    if (local) return local;
    if (held.refilling) {
      await held.refilling.catch(() => {});
      const served = this.serve(held, cost);
      if (served) return served;
    }
    return this.leaseFor(held, cost);
  }

  async pause(refs: readonly BucketRef[], durationMs: number): Promise<void> {
    const held = this.groups.get(groupKey(refs));
    if (held) {
      held.pausedUntil = this.now() + durationMs;
      void this.drop(held);
    }
    await this.source.pause(refs, durationMs);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.allSettled([...this.groups.values()].map((h) => this.drop(h)));
    this.groups.clear();
    await this.source.close();
  }

  /** Tokens held now, over every group (tests, metrics). */
  get heldTokens(): number {
    let n = 0;
    for (const h of this.groups.values()) n += h.tokens;
    return n;
  }

  /** The group's lease state, created on first use; undefined for a group too slow to lease. */
  private heldFor(refs: readonly BucketRef[]): Held | undefined {
    const key = groupKey(refs);
    let held = this.groups.get(key);
    if (!held) {
      const size = this.leaseSize(refs);
      if (size === 0) return undefined;
      held = {
        refs,
        size,
        tokens: 0,
        pending: 0,
        grantedAt: 0,
        shared: refs.map(() => 0),
        refilling: undefined,
        usedAt: 0,
        pausedUntil: 0,
      };
      this.groups.set(key, held);
    }
    return held;
  }

  /** Admit from the lease, or undefined when it is short (or too old to serve). */
  private serve(held: Held, cost: number): TakeOutcome | undefined {
    const now = this.now();
    held.usedAt = now;
    if (held.tokens > 0 && (now - held.grantedAt > this.maxAgeMs || now < held.pausedUntil)) void this.drop(held);
    if (held.tokens < cost) return undefined;
    held.tokens -= cost;
    if (held.tokens * 2 < held.size && !held.refilling) this.topUp(held);
    return outcomeOf(held.shared.map((tokens) => ({ tokens: tokens + held.tokens, retryAfterMs: 0 })));
  }

  /** Refill the lease ahead of need, in the background. */
  private topUp(held: Held): void {
    // A failure only lets the lease run out; the next take meets the error and the failure policy.
    this.leaseFor(held, 0).catch(() => {});
  }

  /**
   * One lease call: ask for what brings the lease back to k (at least `least`, the cost of the
   * request waiting, which it spends at once). Refused while a bucket is paused or short. A call
   * that asks for a batch is the group's `refilling`: takes arriving meanwhile wait for it rather
   * than each sending its own (a cold key under 32 concurrent requests: one call, not 32).
   */
  private leaseFor(held: Held, least: number): Promise<TakeOutcome> {
    const want = Math.max(least, held.size - held.tokens - held.pending);
    if (want <= 0) return Promise.resolve(outcomeOf(held.shared.map((tokens) => ({ tokens: tokens + held.tokens, retryAfterMs: 0 }))));
    const call = this.callLease(held, want, least);
    if (want > least && !held.refilling) {
      const refilling = call.then(
        () => undefined,
        () => undefined,
      );
      held.refilling = refilling;
      void refilling.then(() => {
        if (held.refilling === refilling) held.refilling = undefined;
      });
    }
    return call;
  }

  private async callLease(held: Held, want: number, least: number): Promise<TakeOutcome> {
    const sentAt = this.now();
    held.pending += want;
    let lease: Lease;
    try {
      lease = await this.source.lease(held.refs, want, Math.max(1, least));
    } finally {
      held.pending -= want;
    }
    if (lease.granted === 0) {
      // A top-up refused: a bucket is paused (what is held came before the pause: stop serving
      // it) or short (other processes need the tokens more: give them back).
      if (least === 0) void this.drop(held);
      return lease.outcome;
    }
    held.tokens += lease.granted - least;
    held.grantedAt = sentAt;
    held.shared = lease.outcome.buckets.map((b) => b.tokens);
    return outcomeOf(held.shared.map((tokens) => ({ tokens: tokens + held.tokens, retryAfterMs: 0 })));
  }

  /** Stop serving the group's lease and give its tokens back (in the background; a lost give-back only under-admits). */
  private drop(held: Held): Promise<void> {
    const tokens = held.tokens;
    held.tokens = 0;
    if (tokens <= 0) return Promise.resolve();
    return this.source.giveBack(held.refs, tokens).catch(() => {});
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, held] of this.groups) {
      if (now - held.usedAt <= this.maxAgeMs || held.refilling || held.pending > 0) continue;
      void this.drop(held);
      this.groups.delete(key);
    }
  }
}

function groupKey(refs: readonly BucketRef[]): string {
  return refs.length === 1 ? refs[0]!.key : refs.map((r) => r.key).join('\n');
}
