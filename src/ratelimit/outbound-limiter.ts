import PQueue from 'p-queue';
import { setTimeout as sleep } from 'node:timers/promises';
import { V2_LIMIT_CLASSES, type V2LimitClassName } from '../../mappings/rate-limits.js';
import { ArrivalSpread } from './arrival-spread.js';
import { DEFAULT_MIN_JITTER_MS, DEFAULT_SAFETY_MARGIN, bucketSpecOf, withSafetyMargin, type SafetyMargin } from './bucket-specs.js';
import type { BucketRef, BucketStore } from './bucket-store.js';
import { classifyV2Call, remembered } from './classify.js';
import type { Leaving } from '../shared/leaving.js';
import { RateLimitExceeded } from './errors.js';
import type { BucketSpec } from '../shared/token-bucket.js';

/**
 * The v2 outbound limits. One v1 call may fan out into several v2 calls; each waits here for a
 * token of its v2 class (per api_key), in a bounded FIFO queue per key and class, and gives up
 * with RateLimitExceeded past its deadline instead of piling up.
 *
 * - Only waiting for the token is queued (one waiter per key and class at a time, so a long queue
 *   costs one store round trip per token, not one per waiter); the v2 call itself runs outside
 *   the queue, so a slow upstream answer does not hold back the next token.
 * - A waiter sleeps until the time the store names, it does not poll.
 * - Each key and class has its own queue and buckets: one key's flood never delays another key.
 * - Buckets run at the upstream's limits minus a safety margin (bucket-specs.ts), so jitter
 *   between our send and the upstream's arrival never turns into an upstream 429. The jitter the
 *   margin absorbs is measured from the calls' own send→answer spreads (arrival-spread.ts), within
 *   [minJitterMs, margin.jitterMs], so the margin costs only what the upstream's answers show it must.
 */

export interface OutboundLimiterOptions {
  store: BucketStore;
  /** False: calls run at once and nothing is stored (V2_RATE_LIMITS=off). */
  enabled?: boolean;
  /** Multiplies every v2 limit (RATE_LIMIT_SCALE); must match the upstream's real limits. */
  scale?: number;
  /** Rate factor, and the most arrival jitter absorbed (before any answer, and after an upstream 429). */
  margin?: SafetyMargin;
  /** The least arrival jitter absorbed, whatever the answers measure (ms); `margin.jitterMs` or more: a fixed margin. */
  minJitterMs?: number;
  /** Calls waiting per key and class beyond which new ones are refused at once. */
  maxQueue?: number;
  /** Default longest wait for a token (ms). */
  maxWaitMs?: number;
  /**
   * A call that opens a v1 call is refused at once when its key and class already have more than
   * this much work queued (ms at the class's rate): v1 admission never outruns what can be sent,
   * so a key sending a little faster than v2 allows gets quick refusals, not ever longer waits.
   */
  maxBacklogMs?: number;
  now?: () => number;
}

export interface ScheduleOptions {
  /** Give up at this time (epoch ms, as Date.now()); one deadline can cover a whole fan-out. */
  deadlineMs?: number;
  /** Give up after waiting this long (ms); defaults to the limiter's maxWaitMs. The earlier of the two applies. */
  maxWaitMs?: number;
  /** Stop waiting when the caller leaves (rejects with its signal's reason); a call whose caller has left is never run. */
  leaving?: Leaving;
  /**
   * `undo`: a compensating call. It takes the next token of its key and class ahead of every
   * waiter, is never refused for a full queue, and waits on its own budget (`maxWaitMs`), since
   * the v1 call it undoes has usually spent its deadline already.
   */
  priority?: 'undo';
  /** The first v2 call of a v1 call: held to `maxBacklogMs` (the v1 call's later calls are not). */
  opensCall?: boolean;
  /** Run without a token: an unproven pair's proof, admitted by the proof budget instead (proof-budget.ts), takes none of the key's. */
  unmetered?: boolean;
}

interface Lane {
  limitClass: V2LimitClassName;
  queue: PQueue;
}

type ClassSpecs = Map<V2LimitClassName, { windows: string[]; specs: BucketSpec[] }>;

export class OutboundLimiter {
  private readonly store: BucketStore;
  private readonly enabled: boolean;
  private readonly maxQueue: number;
  private readonly maxWaitMs: number;
  private readonly maxBacklogMs: number;
  private readonly now: () => number;
  private readonly scale: number;
  private readonly margin: SafetyMargin;
  /** The jitter the margin absorbs now, from the calls' own spreads. */
  private readonly spread: ArrivalSpread;
  /** Every class's buckets for each jitter value met so far (the spread moves in 5 ms steps, so few). */
  private readonly specsByJitter = new Map<number, ClassSpecs>();
  /** A call's class, classified once per distinct method and path. */
  private readonly classOf = remembered((call: string) => {
    const space = call.indexOf(' ');
    return classifyV2Call(call.slice(0, space), call.slice(space + 1)).name;
  });
  /** Each key's buckets by class, built once for the specs they were built from (`refsSpecs`). */
  private readonly refsByKey = new Map<string, Map<V2LimitClassName, BucketRef[]>>();
  private refsSpecs: ClassSpecs | undefined;
  /** The live queues: by api_key, then by class. */
  private readonly lanes = new Map<string, Map<V2LimitClassName, Lane>>();

  constructor(options: OutboundLimiterOptions) {
    this.store = options.store;
    this.enabled = options.enabled ?? true;
    this.maxQueue = options.maxQueue ?? 1_000;
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_OUTBOUND_MAX_WAIT_MS;
    this.maxBacklogMs = options.maxBacklogMs ?? Infinity;
    this.now = options.now ?? Date.now;
    this.scale = options.scale ?? 1;
    this.margin = options.margin ?? DEFAULT_SAFETY_MARGIN;
    this.spread = new ArrivalSpread({
      ceilingMs: this.margin.jitterMs,
      floorMs: options.minJitterMs ?? DEFAULT_MIN_JITTER_MS,
      now: this.now,
    });
  }

  /** The buckets a key's calls of this class are held to now (after scale and safety margin). */
  specsOf(limitClass: V2LimitClassName): readonly BucketSpec[] {
    return this.classSpecs().get(limitClass)!.specs;
  }

  /** The arrival jitter the margin absorbs now (ms). */
  get jitterMs(): number {
    return this.spread.currentMs();
  }

  private classSpecs(): ClassSpecs {
    const jitterMs = this.spread.currentMs();
    let specs = this.specsByJitter.get(jitterMs);
    if (!specs) {
      const margin = { rateFactor: this.margin.rateFactor, jitterMs };
      specs = new Map(
        V2_LIMIT_CLASSES.map((c) => [
          c.name,
          { windows: c.limits.map((l) => l.per), specs: c.limits.map((l) => withSafetyMargin(bucketSpecOf(l, this.scale), margin)) },
        ]),
      );
      this.specsByJitter.set(jitterMs, specs);
    }
    return specs;
  }

  /**
   * Wait for a token of the call's v2 class, then run `task` and return what it returns. Not an
   * async function: a call admitted at once returns its task's own promise, with no promise around it.
   */
  schedule<T>(apiKey: string, method: string, path: string, task: () => T | Promise<T>, options: ScheduleOptions = {}): Promise<T> {
    if (!this.enabled || options.unmetered) return run(task);
    let limitClass: V2LimitClassName;
    try {
      limitClass = this.classOf(`${method} ${path}`);
    } catch (error) {
      return Promise.reject(error);
    }
    const atOnce = this.takeAtOnce(apiKey, limitClass, options);
    // Admitted without waiting: run the call now, no queue hop.
    if (atOnce === true) return this.timed(task);
    const queued = () =>
      this.counted(limitClass, this.waitInQueue(apiKey, limitClass, options)).then(() => {
        options.leaving?.signal.throwIfAborted(); // withdrawn while its token came: the token is spent, the call never sent
        return this.timed(task);
      });
    if (atOnce === undefined) return this.takeDirect(apiKey, limitClass).then((taken) => (taken ? this.timed(task) : queued()));
    return queued();
  }

  /** Run a call that has its token, its send→answer spread measured for the margin. */
  private timed<T>(task: () => T | Promise<T>): Promise<T> {
    const answered = this.spread.sent();
    const result = run(task);
    result.then(answered, answered);
    return result;
  }

  /**
   * One asynchronous take outside the queue, for a call that found nobody waiting but a store that
   * could not answer at once (a lease running out): queueing it would make every later call of
   * the key and class queue behind it (FIFO) while calls keep coming, so the lane would never go
   * back to the synchronous path. Refused: the caller queues as before.
   */
  private async takeDirect(apiKey: string, limitClass: V2LimitClassName): Promise<boolean> {
    return (await this.store.take(this.refsFor(apiKey, limitClass))).allowed;
  }

  /** The slow path: wait in the key and class's FIFO queue for a token, until the deadline. */
  private async waitInQueue(apiKey: string, limitClass: V2LimitClassName, options: ScheduleOptions): Promise<void> {
    const lane = this.laneFor(apiKey, limitClass);
    const now = this.now();
    const undo = options.priority === 'undo';
    const deadline = Math.min(options.deadlineMs ?? Infinity, now + (options.maxWaitMs ?? this.maxWaitMs));
    const ahead = undo ? lane.queue.pending : lane.queue.size + lane.queue.pending;
    const earliestMs = this.earliestWaitMs(lane, ahead);
    if (!undo && ahead >= this.maxQueue) throw new RateLimitExceeded('queue-full', lane.limitClass, earliestMs);
    if (options.opensCall) {
      const backlogMs = this.backlogMs(lane, ahead);
      if (backlogMs > this.maxBacklogMs) throw new RateLimitExceeded('queue-full', lane.limitClass, backlogMs);
    }
    // Even with every bucket full, the calls ahead use tokens first: refuse now what cannot make it.
    if (now + earliestMs > deadline) throw new RateLimitExceeded('deadline', lane.limitClass, earliestMs);

    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new RateLimitExceeded('deadline', lane.limitClass, this.earliestWaitMs(lane, lane.queue.size))),
      Math.max(0, deadline - now),
    );
    const signal = options.leaving ? AbortSignal.any([timeout.signal, options.leaving.signal]) : timeout.signal;
    try {
      await lane.queue.add(() => this.waitForToken(apiKey, lane, deadline, signal), { signal, priority: undo ? 1 : 0 });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The upstream answered 429: hold back this key's calls of that class for `retryAfterMs`
   * (shared through the store, so every gateway process holds back). Rejects only for an
   * unknown class name; a store failure is absorbed (a later 429 would pause again).
   */
  penalize(apiKey: string, limitClass: V2LimitClassName, retryAfterMs: number): Promise<void>;
  penalize(apiKey: string, method: string, path: string, retryAfterMs: number): Promise<void>;
  async penalize(apiKey: string, classOrMethod: string, pathOrMs: string | number, maybeMs?: number): Promise<void> {
    if (!this.enabled) return;
    const limitClass = typeof pathOrMs === 'number' ? (classOrMethod as V2LimitClassName) : classifyV2Call(classOrMethod, pathOrMs).name;
    const retryAfterMs = typeof pathOrMs === 'number' ? pathOrMs : (maybeMs ?? 1_000);
    if (!V2_LIMIT_CLASSES.some((c) => c.name === limitClass)) throw new TypeError(`No v2 limit class named ${limitClass}`);
    this.spread.upstreamRefused();
    try {
      await this.store.pause(this.refsFor(apiKey, limitClass), Math.min(retryAfterMs, MAX_PAUSE_MS));
    } catch {
      // The store's failure policy has logged it; a lost pause only means a later 429 re-pauses.
    }
  }

  /** Calls waiting (or taking their token) for this key and class. */
  waiting(apiKey: string, limitClass: V2LimitClassName): number {
    const lane = this.lanes.get(apiKey)?.get(limitClass);
    return lane ? lane.queue.size + lane.queue.pending : 0;
  }

  // Read-only statistics for metrics and the status page.
  private readonly waitStats = new Map<V2LimitClassName, { waits: number; waitedMs: number }>();
  /** Refusals by class, then by reason. */
  private readonly refusalStats = new Map<V2LimitClassName, Map<string, number>>();

  /** Counts a queued wait: its time when it got a token, its reason when refused. */
  private async counted(limitClass: V2LimitClassName, wait: Promise<void>): Promise<void> {
    const started = this.now();
    try {
      await wait;
      const stat = this.waitStats.get(limitClass) ?? { waits: 0, waitedMs: 0 };
      stat.waits++;
      stat.waitedMs += this.now() - started;
      this.waitStats.set(limitClass, stat);
    } catch (error) {
      if (error instanceof RateLimitExceeded) {
        let byReason = this.refusalStats.get(limitClass);
        if (!byReason) this.refusalStats.set(limitClass, (byReason = new Map<string, number>()));
        byReason.set(error.reason, (byReason.get(error.reason) ?? 0) + 1);
      }
      throw error;
    }
  }

  /** Totals since start, queue depth per class, and the `top` deepest key-and-class queues. */
  stats(top = 10): OutboundLimiterStats {
    const depthByClass = new Map<V2LimitClassName, number>();
    const lanes: { apiKey: string; limitClass: V2LimitClassName; waiting: number }[] = [];
    for (const [apiKey, byClass] of this.lanes) {
      for (const [limitClass, lane] of byClass) {
        const waiting = lane.queue.size + lane.queue.pending;
        depthByClass.set(limitClass, (depthByClass.get(limitClass) ?? 0) + waiting);
        if (waiting > 0) lanes.push({ apiKey, limitClass, waiting });
      }
    }
    return {
      queueDepth: [...depthByClass].map(([limitClass, waiting]) => ({ limitClass, waiting })),
      waits: [...this.waitStats].map(([limitClass, w]) => ({ limitClass, ...w })),
      refusals: [...this.refusalStats].flatMap(([limitClass, byReason]) =>
        [...byReason].map(([reason, count]) => ({ limitClass, reason, count })),
      ),
      busiest: lanes.sort((a, b) => b.waiting - a.waiting).slice(0, top),
    };
  }

  /** Key-and-class queues alive (they go when idle, so this stays small under many keys). */
  get laneCount(): number {
    let count = 0;
    for (const byClass of this.lanes.values()) count += byClass.size;
    return count;
  }

  private async waitForToken(apiKey: string, lane: Lane, deadline: number, signal: AbortSignal): Promise<void> {
    for (;;) {
      signal.throwIfAborted();
      const outcome = await this.store.take(this.refsFor(apiKey, lane.limitClass));
      if (outcome.allowed) return;
      const waitMs = Math.max(1, outcome.retryAfterMs);
      if (waitMs > MAX_SINGLE_WAIT_MS) throw new RateLimitExceeded('paused', lane.limitClass, waitMs);
      if (this.now() + waitMs > deadline) throw new RateLimitExceeded('deadline', lane.limitClass, waitMs);
      await sleep(waitMs, undefined, { signal });
    }
  }

  /**
   * The fast path: with nobody of this key and class waiting (so FIFO order cannot be jumped), the
   * deadline not yet passed, and a store that answers synchronously (memory, a held lease), take
   * the token at once. True: taken. False: nothing taken (the store takes all or none); the caller queues as
   * before, and the queued take decides (refuses, waits, or meets the deadline).
   */
  private takeAtOnce(apiKey: string, limitClass: V2LimitClassName, options: ScheduleOptions): boolean | undefined {
    if (!this.store.takeNow || this.maxQueue <= 0) return false;
    if (options.leaving?.left) return false;
    if ((options.deadlineMs !== undefined && options.deadlineMs < this.now()) || (options.maxWaitMs ?? this.maxWaitMs) < 0) return false;
    const lane = this.lanes.get(apiKey)?.get(limitClass);
    if (lane && options.priority !== 'undo' && lane.queue.size + lane.queue.pending > 0) return false;
    return this.store.takeNow(this.refsFor(apiKey, limitClass))?.allowed;
  }

  /**
   * The work queued ahead, as time. A lane backs up at its fastest-refilling bucket (the per-second
   * one), which is then empty: `ahead` calls take ahead / rate there. A slower bucket of the same
   * class (report's 2000 a day) is usually far from empty and spends its burst first; counting it as
   * empty made one call queued ahead look like 44 s of backlog, so every second v1 report call was
   * refused.
   */
  private backlogMs(lane: Lane, ahead: number): number {
    const specs = this.specsOf(lane.limitClass);
    const fastest = Math.max(...specs.map((s) => s.ratePerSecond));
    return Math.max(
      0,
      ...specs.map((s) => Math.ceil((Math.max(0, s.ratePerSecond === fastest ? ahead : ahead - s.burst) * 1000) / s.ratePerSecond)),
    );
  }

  /** A lower bound of the wait for a call with `ahead` calls before it: buckets full, every call ahead served first. */
  private earliestWaitMs(lane: Lane, ahead: number): number {
    return Math.max(0, ...this.specsOf(lane.limitClass).map((s) => Math.ceil(((ahead + 1 - s.burst) * 1000) / s.ratePerSecond)));
  }

  private laneFor(apiKey: string, limitClass: V2LimitClassName): Lane {
    let byClass = this.lanes.get(apiKey);
    if (!byClass) this.lanes.set(apiKey, (byClass = new Map<V2LimitClassName, Lane>()));
    let lane = byClass.get(limitClass);
    if (!lane) {
      const queue = new PQueue({ concurrency: 1 });
      const created: Lane = { limitClass, queue };
      queue.on('idle', () => this.dropIfIdle(apiKey, created));
      byClass.set(limitClass, created);
      lane = created;
    }
    return lane;
  }

  /** An idle lane goes, and its key's map with its last lane: many keys seen once leave nothing behind. */
  private dropIfIdle(apiKey: string, lane: Lane): void {
    const byClass = this.lanes.get(apiKey);
    if (byClass?.get(lane.limitClass) !== lane || lane.queue.size > 0 || lane.queue.pending > 0) return;
    byClass.delete(lane.limitClass);
    if (byClass.size === 0) this.lanes.delete(apiKey);
  }

  /** The key's buckets of a class, as the specs are now (a change of the measured jitter builds them again). */
  private refsFor(apiKey: string, limitClass: V2LimitClassName): BucketRef[] {
    const classSpecs = this.classSpecs();
    if (classSpecs !== this.refsSpecs || this.refsByKey.size >= MAX_CACHED_KEYS) {
      this.refsByKey.clear();
      this.refsSpecs = classSpecs;
    }
    let byClass = this.refsByKey.get(apiKey);
    if (!byClass) this.refsByKey.set(apiKey, (byClass = new Map<V2LimitClassName, BucketRef[]>()));
    let refs = byClass.get(limitClass);
    if (!refs) {
      const { windows, specs } = classSpecs.get(limitClass)!;
      refs = specs.map((spec, i) => ({ key: `out:{${apiKey}:${limitClass}}:${windows[i]}`, spec }));
      byClass.set(limitClass, refs);
    }
    return refs;
  }
}

/** api_keys whose bucket keys are kept built; past it the memory starts again. */
const MAX_CACHED_KEYS = 10_000;

/**
 * The longest a 429's Retry-After holds a key's class back. A daily quota may say hours; past this
 * the next call probes the upstream again (one call, answered 429 again if still exhausted), so a
 * wrong or hostile Retry-After cannot silence a key for a day.
 */
export const MAX_PAUSE_MS = 60_000;

/**
 * A refill never takes longer than this for one token (the slowest class gives one per 1.3 s); a
 * longer wait for a single token means the class is paused or its day is spent. Such a call is
 * refused at once with the v1 rate-limit error and its Retry-After, instead of holding the v1
 * client until its deadline. Long waits of fan-outs are many short ones and are not affected.
 */
export const MAX_SINGLE_WAIT_MS = 5_000;

/** How long one v1 call's v2 calls may wait for outbound tokens, unless OUTBOUND_MAX_WAIT_MS says otherwise: the one default. */
export const DEFAULT_OUTBOUND_MAX_WAIT_MS = 30_000;

/** A task's outcome as a promise, its synchronous throw included. */
function run<T>(task: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(task());
  } catch (error) {
    return Promise.reject(error);
  }
}

export interface OutboundLimiterStats {
  queueDepth: { limitClass: V2LimitClassName; waiting: number }[];
  waits: { limitClass: V2LimitClassName; waits: number; waitedMs: number }[];
  refusals: { limitClass: V2LimitClassName; reason: string; count: number }[];
  /** The api_key is raw here: whoever exposes it hashes it. */
  busiest: { apiKey: string; limitClass: V2LimitClassName; waiting: number }[];
}
