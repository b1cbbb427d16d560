import PQueue from 'p-queue';
import { setTimeout as sleep } from 'node:timers/promises';
import { ArrivalSpread } from './arrival-spread.js';
import { CallsInFlight, lowerTo, tokensAllowed } from './in-flight.js';
import { DEFAULT_MIN_JITTER_MS, DEFAULT_SAFETY_MARGIN, type SafetyMargin } from './bucket-specs.js';
import type { BucketRef, BucketStore } from './bucket-store.js';
import type { Leaving } from '../shared/leaving.js';
import { RateLimitExceeded } from './errors.js';
import type { BucketSpec } from '../shared/token-bucket.js';
import type { RateLimitCategory } from '../v2-contract/v2-route.js';
import type { RateLimitPlan } from '../v2-contract/rate-limit-plans.js';
import { upstreamSpecsOf, type PlanSpecs } from './plan-specs.js';

/**
 * The v2 outbound limits, as the service counts them today: per v2 account (every app and key of
 * it together), per category of endpoint (each typed route declares its own), sized by the
 * account's plan (src/v2-contract/rate-limit-plans.ts, the table the sandbox enforces too). One v1 call
 * may fan out into several v2 calls; each waits here for a token of its account and category, in
 * a bounded FIFO queue per account and category, and gives up with RateLimitExceeded past its
 * deadline instead of piling up.
 *
 * - Only waiting for the token is queued (one waiter per account and category at a time, so a long
 *   queue costs one store round trip per token, not one per waiter); the v2 call itself runs
 *   outside the queue, so a slow upstream answer does not hold back the next token.
 * - A waiter sleeps until the time the store names, it does not poll.
 * - Each account and category has its own queue and buckets: one account's flood never delays another's.
 * - Heavy and Resource-intensive calls also spend the account's daily Heavy cap, a bucket of its own.
 * - Buckets run at the upstream's limits minus a safety margin (bucket-specs.ts), so jitter
 *   between our send and the upstream's arrival never turns into an upstream 429. The jitter the
 *   margin absorbs is measured from the calls' own send→answer spreads (arrival-spread.ts), within
 *   [minJitterMs, margin.jitterMs], so the margin costs only what the upstream's answers show it must.
 * - Calls later than any margin are covered too: a bucket holds at most the upstream's burst less
 *   the calls of its account and category still unanswered, which may all arrive at once (in-flight.ts).
 * - What the upstream answers corrects the buckets: its `X-RateLimit-Remaining` lowers an account's
 *   bucket that holds more than the upstream has left (another gateway, or another app of the
 *   account, spent the difference), and a 429's `Retry-After` pauses it.
 */

/** Whose v2 budgets a call spends: the account it acts as toward v2, and that account's plan. */
export interface V2Budget {
  readonly account: string;
  readonly plan: RateLimitPlan;
}

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
  /** Calls waiting per account and category beyond which new ones are refused at once. */
  maxQueue?: number;
  /** Default longest wait for a token (ms). */
  maxWaitMs?: number;
  /**
   * A call that opens a v1 call is refused at once when its account and category already have more
   * than this much work queued (ms at the category's rate): v1 admission never outruns what can be
   * sent, so callers sending a little faster than v2 allows get quick refusals, not ever longer waits.
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
   * `undo`: a compensating call. It takes the next token of its account and category ahead of every
   * waiter, is never refused for a full queue, and waits on its own budget (`maxWaitMs`), since
   * the v1 call it undoes has usually spent its deadline already.
   */
  priority?: 'undo';
  /** The first v2 call of a v1 call: held to `maxBacklogMs` (the v1 call's later calls are not). */
  opensCall?: boolean;
  /** Run without a token: an unproven pair's proof, admitted by the proof budget instead (proof-budget.ts), takes none of the account's. */
  unmetered?: boolean;
}

interface Lane {
  category: RateLimitCategory;
  plan: RateLimitPlan;
  queue: PQueue;
}

/** Each account's bucket refs, by plan and category. */
type AccountRefs = Partial<Record<RateLimitPlan, Partial<Record<RateLimitCategory, BucketRef[]>>>>;

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
  /** Calls with their token and no answer yet, by account and category. */
  private readonly inFlight = new CallsInFlight();
  /** Every plan's buckets for each jitter value met so far (the spread moves in 5 ms steps, so few). */
  private readonly specsByJitter = new Map<number, PlanSpecs>();
  /** Each account's buckets, built once for the specs they were built from (`refsSpecs`). */
  private readonly refsByAccount = new Map<string, AccountRefs>();
  private refsSpecs: PlanSpecs | undefined;
  /** The live queues: by account, then by category. */
  private readonly lanes = new Map<string, Map<RateLimitCategory, Lane>>();

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

  /** The buckets an account's calls of this category are held to now (after scale and safety margin). */
  specsOf(plan: RateLimitPlan, category: RateLimitCategory): readonly BucketSpec[] {
    return this.planSpecs()[plan][category].specs;
  }

  /** The arrival jitter the margin absorbs now (ms). */
  get jitterMs(): number {
    return this.spread.currentMs();
  }

  private planSpecs(): PlanSpecs {
    const jitterMs = this.spread.currentMs();
    let specs = this.specsByJitter.get(jitterMs);
    if (!specs) {
      specs = upstreamSpecsOf(this.scale, { rateFactor: this.margin.rateFactor, jitterMs });
      this.specsByJitter.set(jitterMs, specs);
    }
    return specs;
  }

  /**
   * Wait for a token of the account's category, then run `task` and return what it returns. Not an
   * async function: a call admitted at once returns its task's own promise, with no promise around it.
   */
  schedule<T>(budget: V2Budget, category: RateLimitCategory, task: () => T | Promise<T>, options: ScheduleOptions = {}): Promise<T> {
    if (!this.enabled || options.unmetered) return run(task);
    const atOnce = this.takeAtOnce(budget, category, options);
    // Admitted without waiting: run the call now, no queue hop.
    if (atOnce === true) return this.timed(budget, category, task);
    const queued = () =>
      this.counted(category, this.waitInQueue(budget, category, options)).then(() => {
        options.leaving?.signal.throwIfAborted(); // withdrawn while its token came: the token is spent, the call never sent
        return this.timed(budget, category, task);
      });
    if (atOnce === undefined)
      return this.takeDirect(budget, category).then((taken) => (taken ? this.timed(budget, category, task) : queued()));
    return queued();
  }

  /**
   * `schedule`'s way through without a promise, for a call it would run at once: the limits off, an
   * unproven pair's proof (no token), or a token taken now with nobody of its account and category
   * waiting (`takeAtOnce`, the very check `schedule` makes first). Gives what the caller must call
   * when the call has its outcome (as `timed` does for a task), or undefined when nothing was taken:
   * the caller then goes through `schedule`, which queues, waits or refuses.
   */
  admitNow(budget: V2Budget, category: RateLimitCategory, options: ScheduleOptions = {}): (() => void) | undefined {
    if (!this.enabled || options.unmetered) return NOT_TIMED;
    return this.takeAtOnce(budget, category, options) === true ? this.sending(budget, category) : undefined;
  }

  /** Run a call that has its token, its send→answer spread measured for the margin, counted in flight until its outcome. */
  private timed<T>(budget: V2Budget, category: RateLimitCategory, task: () => T | Promise<T>): Promise<T> {
    const answered = this.sending(budget, category);
    const result = run(task);
    result.then(answered, answered);
    return result;
  }

  /** A call with its token is being sent: its spread measured and counted in flight; what to call at its outcome. */
  private sending(budget: V2Budget, category: RateLimitCategory): () => void {
    const measured = this.spread.sent();
    this.inFlight.sent(budget.account, category);
    return () => {
      measured();
      // The cap as it stood while the call was out, before the answer raises it.
      void this.capToInFlight(budget, category);
      this.inFlight.answered(budget.account, category);
    };
  }

  /** Lowers the account's bucket of the category to what its calls in flight leave it (in-flight.ts). */
  private capToInFlight(budget: V2Budget, category: RateLimitCategory): void | Promise<void> {
    const inFlight = this.inFlight.of(budget.account, category);
    if (inFlight === 0) return;
    const { upstream, specs } = this.planSpecs()[budget.plan][category];
    const allowed = tokensAllowed(upstream[0]!.burst, specs[0]!.burst, inFlight);
    if (allowed === undefined) return;
    return lowerTo(this.store, this.refsFor(budget, category).slice(0, 1), allowed);
  }

  /**
   * One asynchronous take outside the queue, for a call that found nobody waiting but a store that
   * could not answer at once (a lease running out): queueing it would make every later call of
   * the account and category queue behind it (FIFO) while calls keep coming, so the lane would never
   * go back to the synchronous path. Refused: the caller queues as before.
   */
  private async takeDirect(budget: V2Budget, category: RateLimitCategory): Promise<boolean> {
    await this.capToInFlight(budget, category);
    return (await this.store.take(this.refsFor(budget, category))).allowed;
  }

  /** The slow path: wait in the account and category's FIFO queue for a token, until the deadline. */
  private async waitInQueue(budget: V2Budget, category: RateLimitCategory, options: ScheduleOptions): Promise<void> {
    const lane = this.laneFor(budget, category);
    const now = this.now();
    const undo = options.priority === 'undo';
    const deadline = Math.min(options.deadlineMs ?? Infinity, now + (options.maxWaitMs ?? this.maxWaitMs));
    const ahead = undo ? lane.queue.pending : lane.queue.size + lane.queue.pending;
    const earliestMs = this.earliestWaitMs(lane, ahead);
    if (!undo && ahead >= this.maxQueue) throw new RateLimitExceeded('queue-full', category, earliestMs);
    if (options.opensCall) {
      const backlogMs = this.backlogMs(lane, ahead);
      if (backlogMs > this.maxBacklogMs) throw new RateLimitExceeded('queue-full', category, backlogMs);
    }
    // Even with every bucket full, the calls ahead use tokens first: refuse now what cannot make it.
    if (now + earliestMs > deadline) throw new RateLimitExceeded('deadline', category, earliestMs);

    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new RateLimitExceeded('deadline', category, this.earliestWaitMs(lane, lane.queue.size))),
      Math.max(0, deadline - now),
    );
    const signal = options.leaving ? AbortSignal.any([timeout.signal, options.leaving.signal]) : timeout.signal;
    try {
      await lane.queue.add(() => this.waitForToken(budget, lane, deadline, signal), { signal, priority: undo ? 1 : 0 });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The upstream answered 429: hold back this account's calls of that category for `retryAfterMs`
   * (shared through the store, so every gateway process holds back). A store failure is absorbed
   * (a later 429 would pause again).
   */
  async penalize(budget: V2Budget, category: RateLimitCategory, retryAfterMs: number): Promise<void> {
    if (!this.enabled) return;
    this.spread.upstreamRefused();
    try {
      await this.store.pause(this.refsFor(budget, category).slice(0, 1), Math.min(retryAfterMs, MAX_PAUSE_MS));
    } catch {
      // The store's failure policy has logged it; a lost pause only means a later 429 re-pauses.
    }
  }

  /**
   * The upstream's answer said `remaining` calls of this category are left in the account's bucket
   * (`X-RateLimit-Remaining` of a QPS answer). Ours holds back the margin's reserve from the same
   * budget, so it may hold at most `remaining − reserve`: what it holds beyond that (less one
   * token, for the upstream's rounding down) was spent by someone v1gate does not see (another app
   * of the account, a gateway on another store), and is taken out. Never raises a bucket: the
   * answer is already old when it arrives, and the upstream refilled meanwhile.
   */
  async correct(budget: V2Budget, category: RateLimitCategory, remaining: number): Promise<void> {
    if (!this.enabled || !Number.isFinite(remaining) || remaining < 0) return;
    const { upstream, specs } = this.planSpecs()[budget.plan][category];
    const allowed = remaining - (upstream[0]!.burst - specs[0]!.burst);
    if (allowed + 1 >= specs[0]!.burst) return;
    const ref = this.refsFor(budget, category).slice(0, 1);
    try {
      const reading = this.store.takeNow?.(ref, 0) ?? (await this.store.take(ref, 0));
      const excess = Math.floor(reading.buckets[0]!.tokens - Math.max(0, allowed) - 1);
      if (excess < 1) return;
      if (!this.store.takeNow?.(ref, excess)) await this.store.take(ref, excess);
      this.corrections++;
    } catch {
      // As for a pause: the store's failure policy has logged it, and the next answer corrects again.
    }
  }

  /** Buckets lowered by an upstream's answer since start. */
  corrections = 0;

  /** Calls waiting (or taking their token) for this account and category. */
  waiting(account: string, category: RateLimitCategory): number {
    const lane = this.lanes.get(account)?.get(category);
    return lane ? lane.queue.size + lane.queue.pending : 0;
  }

  // Read-only statistics for metrics and the status page.
  private readonly waitStats = new Map<RateLimitCategory, { waits: number; waitedMs: number }>();
  /** Refusals by category, then by reason. */
  private readonly refusalStats = new Map<RateLimitCategory, Map<string, number>>();

  /** Counts a queued wait: its time when it got a token, its reason when refused. */
  private async counted(category: RateLimitCategory, wait: Promise<void>): Promise<void> {
    const started = this.now();
    try {
      await wait;
      const stat = this.waitStats.get(category) ?? { waits: 0, waitedMs: 0 };
      stat.waits++;
      stat.waitedMs += this.now() - started;
      this.waitStats.set(category, stat);
    } catch (error) {
      if (error instanceof RateLimitExceeded) {
        let byReason = this.refusalStats.get(category);
        if (!byReason) this.refusalStats.set(category, (byReason = new Map<string, number>()));
        byReason.set(error.reason, (byReason.get(error.reason) ?? 0) + 1);
      }
      throw error;
    }
  }

  /** Totals since start, queue depth per category, and the `top` deepest account-and-category queues. */
  stats(top = 10): OutboundLimiterStats {
    const depthByCategory = new Map<RateLimitCategory, number>();
    const lanes: { account: string; limitClass: RateLimitCategory; waiting: number }[] = [];
    for (const [account, byCategory] of this.lanes) {
      for (const [category, lane] of byCategory) {
        const waiting = lane.queue.size + lane.queue.pending;
        depthByCategory.set(category, (depthByCategory.get(category) ?? 0) + waiting);
        if (waiting > 0) lanes.push({ account, limitClass: category, waiting });
      }
    }
    return {
      queueDepth: [...depthByCategory].map(([limitClass, waiting]) => ({ limitClass, waiting })),
      waits: [...this.waitStats].map(([limitClass, w]) => ({ limitClass, ...w })),
      refusals: [...this.refusalStats].flatMap(([limitClass, byReason]) =>
        [...byReason].map(([reason, count]) => ({ limitClass, reason, count })),
      ),
      busiest: lanes.sort((a, b) => b.waiting - a.waiting).slice(0, top),
    };
  }

  /** Account-and-category queues alive (they go when idle, so this stays small under many accounts). */
  get laneCount(): number {
    let count = 0;
    for (const byCategory of this.lanes.values()) count += byCategory.size;
    return count;
  }

  private async waitForToken(budget: V2Budget, lane: Lane, deadline: number, signal: AbortSignal): Promise<void> {
    for (;;) {
      signal.throwIfAborted();
      await this.capToInFlight(budget, lane.category);
      const outcome = await this.store.take(this.refsFor(budget, lane.category));
      if (outcome.allowed) return;
      const waitMs = Math.max(1, outcome.retryAfterMs);
      if (waitMs > MAX_SINGLE_WAIT_MS) throw new RateLimitExceeded('paused', lane.category, waitMs);
      if (this.now() + waitMs > deadline) throw new RateLimitExceeded('deadline', lane.category, waitMs);
      await sleep(waitMs, undefined, { signal });
    }
  }

  /**
   * The fast path: with nobody of this account and category waiting (so FIFO order cannot be jumped), the
   * deadline not yet passed, and a store that answers synchronously (memory, a held lease), take
   * the token at once. True: taken. False: nothing taken (the store takes all or none); the caller queues as
   * before, and the queued take decides (refuses, waits, or meets the deadline).
   */
  private takeAtOnce(budget: V2Budget, category: RateLimitCategory, options: ScheduleOptions): boolean | undefined {
    if (!this.store.takeNow || this.maxQueue <= 0) return false;
    if (options.leaving?.left) return false;
    if ((options.deadlineMs !== undefined && options.deadlineMs < this.now()) || (options.maxWaitMs ?? this.maxWaitMs) < 0) return false;
    const lane = this.lanes.get(budget.account)?.get(category);
    if (lane && options.priority !== 'undo' && lane.queue.size + lane.queue.pending > 0) return false;
    // A store that cannot lower the bucket at once: the queued take lowers it first.
    if (this.capToInFlight(budget, category)) return false;
    return this.store.takeNow(this.refsFor(budget, category))?.allowed;
  }

  /**
   * The work queued ahead, as time. A lane backs up at its fastest-refilling bucket (the per-second
   * one), which is then empty: `ahead` calls take ahead / rate there. A slower bucket of the same
   * class (the daily Heavy cap) is usually far from empty and spends its burst first; counting it as
   * empty made one call queued ahead look like 44 s of backlog, so every second v1 report call was
   * refused.
   */
  private backlogMs(lane: Lane, ahead: number): number {
    const specs = this.specsOf(lane.plan, lane.category);
    const fastest = Math.max(...specs.map((s) => s.ratePerSecond));
    return Math.max(
      0,
      ...specs.map((s) => Math.ceil((Math.max(0, s.ratePerSecond === fastest ? ahead : ahead - s.burst) * 1000) / s.ratePerSecond)),
    );
  }

  /** A lower bound of the wait for a call with `ahead` calls before it: buckets full, every call ahead served first. */
  private earliestWaitMs(lane: Lane, ahead: number): number {
    return Math.max(0, ...this.specsOf(lane.plan, lane.category).map((s) => Math.ceil(((ahead + 1 - s.burst) * 1000) / s.ratePerSecond)));
  }

  private laneFor(budget: V2Budget, category: RateLimitCategory): Lane {
    let byCategory = this.lanes.get(budget.account);
    if (!byCategory) this.lanes.set(budget.account, (byCategory = new Map<RateLimitCategory, Lane>()));
    let lane = byCategory.get(category);
    if (!lane) {
      const queue = new PQueue({ concurrency: 1 });
      const created: Lane = { category, plan: budget.plan, queue };
      queue.on('idle', () => this.dropIfIdle(budget.account, created));
      byCategory.set(category, created);
      lane = created;
    }
    return lane;
  }

  /** An idle lane goes, and its account's map with its last lane: many accounts seen once leave nothing behind. */
  private dropIfIdle(account: string, lane: Lane): void {
    const byCategory = this.lanes.get(account);
    if (byCategory?.get(lane.category) !== lane || lane.queue.size > 0 || lane.queue.pending > 0) return;
    byCategory.delete(lane.category);
    if (byCategory.size === 0) this.lanes.delete(account);
  }

  /** The account's buckets of a category, as the specs are now (a change of the measured jitter builds them again). */
  private refsFor(budget: V2Budget, category: RateLimitCategory): BucketRef[] {
    const planSpecs = this.planSpecs();
    if (planSpecs !== this.refsSpecs || this.refsByAccount.size >= MAX_CACHED_ACCOUNTS) {
      this.refsByAccount.clear();
      this.refsSpecs = planSpecs;
    }
    let byPlan = this.refsByAccount.get(budget.account);
    if (!byPlan) this.refsByAccount.set(budget.account, (byPlan = {}));
    const byCategory = (byPlan[budget.plan] ??= {});
    let refs = byCategory[category];
    if (!refs) {
      const { names, specs } = planSpecs[budget.plan][category];
      // One hash tag per account: a take of a category and the daily cap is one Redis slot.
      refs = specs.map((spec, i) => ({ key: `out:{${budget.account}}:${names[i]}`, spec }));
      byCategory[category] = refs;
    }
    return refs;
  }
}

/** Accounts whose bucket keys are kept built; past it the memory starts again. */
const MAX_CACHED_ACCOUNTS = 10_000;
/**
 * The longest a 429's Retry-After holds an account's category back. A daily quota may say hours; past this
 * the next call probes the upstream again (one call, answered 429 again if still exhausted), so a
 * wrong or hostile Retry-After cannot silence an account for a day.
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

/** What a call `schedule` runs untimed (limits off, a proof) is told at its end: nothing. */
const NOT_TIMED = (): void => {};

/** A task's outcome as a promise, its synchronous throw included. */
function run<T>(task: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(task());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** By category (`limitClass`: today's category is what the v2 class was). */
export interface OutboundLimiterStats {
  queueDepth: { limitClass: RateLimitCategory; waiting: number }[];
  waits: { limitClass: RateLimitCategory; waits: number; waitedMs: number }[];
  refusals: { limitClass: RateLimitCategory; reason: string; count: number }[];
  /** The v2 account is raw here: whoever exposes it hashes it. */
  busiest: { account: string; limitClass: RateLimitCategory; waiting: number }[];
}
