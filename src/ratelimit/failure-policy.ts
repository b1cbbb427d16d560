import type { BucketReading, BucketRef, BucketStore, TakeOutcome } from './bucket-store.js';
import { MemoryBucketStore } from './memory-store.js';

/**
 * What a take means when the shared store (Redis) fails or answers too slowly:
 *
 * - `open`: the request is judged by this process's own in-memory buckets instead. The gateway
 *   keeps serving; each process still keeps to the limits by itself, so the worst case is the
 *   limit times the number of processes until Redis is back (and upstream 429s are still honoured).
 * - `closed`: the request is refused as over the limit (Retry-After 1 s).
 *
 * Either way the outage is logged once per `logIntervalMs` (with how many takes it affected), not
 * once per request, and logged again when Redis answers again. After a failure the shared store
 * is left alone for `retryIntervalMs`, so a hung Redis costs one timeout per interval, not one
 * per request.
 */

export type StoreFailurePolicy = 'open' | 'closed';

export interface RateLimitLogger {
  warn(message: string): void;
}

export interface FailoverOptions {
  policy: StoreFailurePolicy;
  /** A take slower than this counts as failed (ms). */
  timeoutMs: number;
  /** The buckets used while failing open. */
  fallback?: MemoryBucketStore;
  /** The gateway's logger; unset: outages are counted (stats) but not written. */
  logger?: RateLimitLogger;
  logIntervalMs?: number;
  retryIntervalMs?: number;
  now?: () => number;
}

export interface FailoverStats {
  /** Takes and pauses the shared store failed (or was skipped for) since start. */
  failures: number;
  /** Whether the last attempt at the shared store failed. */
  degraded: boolean;
}

/** Refusal used when failing closed: every bucket says "not now, ask again in a second". */
const CLOSED_RETRY_MS = 1_000;

export class FailoverBucketStore implements BucketStore {
  private readonly fallback: MemoryBucketStore;
  private readonly logger: RateLimitLogger;
  private readonly logIntervalMs: number;
  private readonly retryIntervalMs: number;
  private readonly now: () => number;
  private failures = 0;
  private unloggedFailures = 0;
  private lastLogAt = -Infinity;
  private skipSharedUntil = -Infinity;
  private degraded = false;

  constructor(
    private readonly shared: BucketStore,
    private readonly options: FailoverOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.fallback = options.fallback ?? new MemoryBucketStore({ now: this.now });
    this.logger = options.logger ?? { warn: () => {} };
    this.logIntervalMs = options.logIntervalMs ?? 10_000;
    this.retryIntervalMs = options.retryIntervalMs ?? 500;
  }

  get stats(): FailoverStats {
    return { failures: this.failures, degraded: this.degraded };
  }

  async take(refs: readonly BucketRef[], cost = 1): Promise<TakeOutcome> {
    if (this.now() >= this.skipSharedUntil) {
      try {
        const outcome = await withTimeout(this.shared.take(refs, cost), this.options.timeoutMs);
        this.recovered();
        return outcome;
      } catch (error) {
        this.failed(error);
      }
    } else {
      this.failed(undefined);
    }
    if (this.options.policy === 'open') return this.fallback.take(refs, cost);
    return closedRefusal(refs);
  }

  /**
   * Answers at once when it can: from the fallback buckets while the shared store is left alone,
   * or from the shared store's own synchronous answer (a held lease). Otherwise undefined, and the
   * caller's `take` goes to the shared store under the timeout. Once the wait after a failure is
   * over, takes go the asynchronous way until one succeeds: only `take` can tell that the shared
   * store answers again (a held lease would keep answering and the outage would never end).
   */
  takeNow(refs: readonly BucketRef[], cost = 1): TakeOutcome | undefined {
    if (this.now() >= this.skipSharedUntil) return this.degraded ? undefined : this.shared.takeNow?.(refs, cost);
    this.failed(undefined);
    return this.options.policy === 'open' ? this.fallback.takeNow(refs, cost) : closedRefusal(refs);
  }

  /** Pauses go to both stores, so a pause outlives a switch between them. */
  async pause(refs: readonly BucketRef[], durationMs: number): Promise<void> {
    await this.fallback.pause(refs, durationMs);
    if (this.now() < this.skipSharedUntil) return;
    try {
      await withTimeout(this.shared.pause(refs, durationMs), this.options.timeoutMs);
    } catch (error) {
      this.failed(error);
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.shared.close(), this.fallback.close()]);
  }

  private failed(error: unknown): void {
    this.failures++;
    this.unloggedFailures++;
    const now = this.now();
    if (error !== undefined) this.skipSharedUntil = now + this.retryIntervalMs;
    if (!this.degraded || now - this.lastLogAt >= this.logIntervalMs) {
      const cause = error instanceof Error ? error.message : error === undefined ? 'still failing' : JSON.stringify(error);
      const meaning = this.options.policy === 'open' ? 'limiting per process (fail-open)' : 'refusing requests (fail-closed)';
      this.logger.warn(
        `rate limits: shared store unavailable (${cause}); ${meaning}; ${this.unloggedFailures} request(s) affected since last report`,
      );
      this.lastLogAt = now;
      this.unloggedFailures = 0;
    }
    this.degraded = true;
  }

  private recovered(): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.logger.warn(`rate limits: shared store answering again; ${this.unloggedFailures} more request(s) were affected`);
    this.unloggedFailures = 0;
  }
}

function closedRefusal(refs: readonly BucketRef[]): TakeOutcome {
  const buckets: BucketReading[] = refs.map(() => ({ tokens: 0, retryAfterMs: CLOSED_RETRY_MS }));
  return { allowed: false, buckets, retryAfterMs: CLOSED_RETRY_MS };
}

export class StoreTimeout extends Error {
  override readonly name = 'StoreTimeout';
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new StoreTimeout(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
