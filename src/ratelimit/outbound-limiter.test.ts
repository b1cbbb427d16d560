import { describe, expect, it } from 'vitest';
import type { BucketRef, BucketStore, TakeOutcome } from './bucket-store.js';
import { RateLimitExceeded } from './errors.js';
import { MemoryBucketStore } from './memory-store.js';
import { OutboundLimiter, type OutboundLimiterOptions, type V2Budget } from './outbound-limiter.js';
import { leavingOf } from '../shared/leaving.js';
import { takeToken, type BucketState } from '../shared/token-bucket.js';
import { settlesBefore, timerChainMs } from '../../test/support/timing.js';

/** Counts the store's takes (and its readings, takes of nothing), to prove waiting sleeps instead of polling. */
class CountingStore implements BucketStore {
  takes = 0;
  readings = 0;
  readonly inner = new MemoryBucketStore();
  take(refs: readonly BucketRef[], cost?: number): Promise<TakeOutcome> {
    if (cost === 0) this.readings++;
    else this.takes++;
    return this.inner.take(refs, cost);
  }
  pause(refs: readonly BucketRef[], ms: number) {
    return this.inner.pause(refs, ms);
  }
  async close() {}
}

/** Pro's limits ×0.5 (Light 15/s, Heavy 5/s), without a margin unless asked: exact numbers. */
function limiter(options: Partial<OutboundLimiterOptions> = {}) {
  const store = new CountingStore();
  const outbound = new OutboundLimiter({ store, scale: 0.5, margin: { rateFactor: 1, jitterMs: 0 }, ...options });
  return { store, outbound };
}

/** An account on the Pro plan. */
const at = (account: string): V2Budget => ({ account, plan: 'pro' });

const noop = async () => 'done';

describe('OutboundLimiter', () => {
  it('runs calls at once while the category has tokens and returns what the task returns', async () => {
    const { outbound } = limiter();
    const all = Promise.all(Array.from({ length: 15 }, (_, i) => outbound.schedule(at('k'), 'light', async () => i)));
    // Paced instead, they would take a second: none waits for a timer, so all settle before one of 100 ms.
    expect(await settlesBefore(all, 100)).toBe(true);
    expect(await all).toEqual(Array.from({ length: 15 }, (_, i) => i));
  });

  it('spaces calls past the burst at the class rate, sleeping rather than polling', async () => {
    const { outbound, store } = limiter();
    const started = performance.now();
    // Heavy ×0.5 = 5/s, burst 5: 15 calls take 2 s. The control: ten waits of 200 ms one after
    // another, beside them on the same event loop (a busy machine makes both late alike).
    const [control] = await Promise.all([
      timerChainMs(10, 200),
      ...Array.from({ length: 15 }, () => outbound.schedule(at('k'), 'heavy', noop)),
    ]);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThan(1_900);
    expect(elapsed).toBeLessThan(control + 800);
    // One take per call, plus at most a couple of refused ones per wait; at most one reading of the
    // bucket before each, for the calls in flight (in-flight.ts).
    expect(store.takes).toBeLessThanOrEqual(15 + 2 * 10);
    expect(store.readings).toBeLessThanOrEqual(store.takes);
  });

  it('keeps FIFO order within a key and class', async () => {
    const { outbound } = limiter();
    const order: number[] = [];
    await Promise.all(Array.from({ length: 8 }, (_, i) => outbound.schedule(at('k'), 'heavy', async () => void order.push(i))));
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('refuses at once what cannot get a token before its deadline', async () => {
    const { outbound } = limiter({ maxWaitMs: 500 });
    const settled: string[] = [];
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () =>
        outbound.schedule(at('k'), 'heavy', noop).then(
          (value) => {
            settled.push('ran');
            return value;
          },
          (error: unknown) => {
            settled.push('refused');
            throw error;
          },
        ),
      ),
    );
    // Heavy ×0.5 = 5/s, burst 5: 5 at once, 2 more within 500 ms; the rest would wait longer.
    const fulfilled = results.filter((r) => r.status === 'fulfilled').length;
    expect(fulfilled).toBe(7);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason);
    for (const error of rejected) {
      expect(error).toBeInstanceOf(RateLimitExceeded);
      expect(error).toMatchObject({ reason: 'deadline', limitClass: 'heavy' });
      expect(error.message).toBe('Rate limit of heavy exceeded (deadline).'); // the v1 words come from the failure table
    }
    // At once: every refusal came before the first call that had to wait for its token.
    expect(settled.slice(-2)).toEqual(['ran', 'ran']);
  });

  it('honours an absolute deadline shared by a fan-out', async () => {
    const { outbound } = limiter({ maxWaitMs: 60_000 });
    const deadlineMs = Date.now() + 300;
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => outbound.schedule(at('k'), 'heavy', noop, { deadlineMs })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(6);
  });

  it('refuses with queue-full past the queue bound', async () => {
    const { outbound } = limiter({ maxQueue: 3, maxWaitMs: 60_000 });
    const calls = Array.from({ length: 10 }, () => outbound.schedule(at('k'), 'heavy', noop));
    const results = await Promise.allSettled(calls);
    const reasons = results.map((r) => (r.status === 'rejected' ? (r.reason as RateLimitExceeded).reason : 'ok'));
    expect(reasons.filter((r) => r === 'queue-full').length).toBeGreaterThan(0);
    expect(reasons.filter((r) => r === 'ok').length).toBeGreaterThanOrEqual(3);
  });

  it('a flood on one key does not delay another key', async () => {
    const { outbound } = limiter({ maxQueue: 1_000, maxWaitMs: 60_000 });
    const stopFlood = new AbortController();
    const flood = Array.from({ length: 300 }, () =>
      outbound.schedule(at('flooder'), 'light', noop, { leaving: leavingOf(stopFlood.signal) }).catch(() => {}),
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(outbound.waiting('flooder', 'light')).toBeGreaterThan(200);
    // Behind the flood they would wait 20 s; beside it they wait for no timer at all.
    expect(await settlesBefore(Promise.all(Array.from({ length: 10 }, () => outbound.schedule(at('quiet'), 'light', noop))), 100)).toBe(
      true,
    );
    expect(outbound.waiting('flooder', 'light')).toBeGreaterThan(200);
    stopFlood.abort();
    await Promise.all(flood);
  });

  it('keeps categories of one account apart: a Heavy queue does not hold back Light calls', async () => {
    const { outbound } = limiter({ maxWaitMs: 60_000 });
    const stop = new AbortController();
    const billing = Array.from({ length: 20 }, () =>
      outbound.schedule(at('k'), 'heavy', noop, { leaving: leavingOf(stop.signal) }).catch(() => {}),
    );
    // The next Heavy token is 200 ms away; a Light call waits for no timer.
    expect(await settlesBefore(outbound.schedule(at('k'), 'light', noop), 100)).toBe(true);
    stop.abort();
    await Promise.all(billing);
  });

  it("penalize holds the account's category back for the upstream's Retry-After", async () => {
    const { outbound } = limiter();
    // Timed from before the penalty: a busy machine may take a while to return from penalize, and
    // the pause runs from when it was set.
    const started = performance.now();
    await outbound.penalize(at('k'), 'light', 400);
    const held = outbound.schedule(at('k'), 'light', noop).then(() => performance.now() - started);
    // Other categories and accounts are not held back: they run while the held call still waits.
    const others = Promise.all([outbound.schedule(at('k'), 'heavy', noop), outbound.schedule(at('other'), 'light', noop)]);
    expect(await settlesBefore(others, 100)).toBe(true);
    expect(await settlesBefore(held, 0)).toBe(false);
    // A timer rounds to whole milliseconds: never more than 1 ms early.
    expect(await held).toBeGreaterThanOrEqual(399);
  });

  it('a call of a paused category waits no longer than its deadline', async () => {
    const { outbound } = limiter({ maxWaitMs: 200 });
    await outbound.penalize(at('k'), 'heavy', 2_000);
    await expect(outbound.schedule(at('k'), 'heavy', noop)).rejects.toMatchObject({ reason: 'deadline', limitClass: 'heavy' });
  });

  it("stops waiting when the caller aborts, with the caller's reason", async () => {
    const { outbound } = limiter({ maxWaitMs: 60_000 });
    await outbound.penalize(at('k'), 'light', 3_000);
    const controller = new AbortController();
    const pending = outbound.schedule(at('k'), 'light', noop, { leaving: leavingOf(controller.signal) });
    setTimeout(() => controller.abort(new Error('client went away')), 20);
    await expect(pending).rejects.toThrow('client went away');
  });

  it('runs calls straight through when off', async () => {
    const { outbound, store } = limiter({ enabled: false });
    await Promise.all(Array.from({ length: 100 }, () => outbound.schedule(at('k'), 'heavy', noop)));
    expect(store.takes).toBe(0);
  });

  it('reports queues by account and category and refusals by category and reason, whatever characters an account holds', async () => {
    // 20 queued per account, well past Heavy's burst, so some are still waiting a moment later; 20 refused.
    const { outbound } = limiter({ maxQueue: 20, maxWaitMs: 60_000 });
    const keys = ['plain', 'line\nbreak', 'nul\u0000byte'];
    const stop = new AbortController();
    const calls = keys.flatMap((key) =>
      Array.from({ length: 40 }, () =>
        outbound.schedule(at(key), 'heavy', noop, { leaving: leavingOf(stop.signal) }).then(
          () => 'ok',
          (error: unknown) => (error instanceof RateLimitExceeded ? error.reason : 'other'),
        ),
      ),
    );
    await new Promise((r) => setTimeout(r, 20));
    const stats = outbound.stats();
    expect(stats.busiest.map((lane) => lane.account).sort()).toEqual([...keys].sort());
    expect(stats.busiest.every((lane) => lane.limitClass === 'heavy' && lane.waiting > 0)).toBe(true);
    expect(outbound.waiting('line\nbreak', 'heavy')).toBeGreaterThan(0);
    expect(outbound.laneCount).toBe(3);
    stop.abort();
    const reasons = await Promise.all(calls);
    const queueFull = reasons.filter((r) => r === 'queue-full').length;
    expect(queueFull).toBeGreaterThan(0);
    expect(outbound.stats().refusals).toContainEqual({ limitClass: 'heavy', reason: 'queue-full', count: queueFull });
    await new Promise((r) => setTimeout(r, 10));
    expect(outbound.laneCount).toBe(0);
    expect(outbound.stats().busiest).toEqual([]);
  });

  it('drops idle queues, so many accounts do not grow memory', async () => {
    const { outbound } = limiter();
    await Promise.all(Array.from({ length: 500 }, (_, i) => outbound.schedule(at(`key-${i}`), 'light', noop)));
    await new Promise((r) => setTimeout(r, 10));
    expect(outbound.laneCount).toBe(0);
  });

  it("applies the safety margin by default: 1% under the plan's rate, the whole 300 ms of jitter absorbed before any answer", () => {
    const outbound = new OutboundLimiter({ store: new MemoryBucketStore() });
    expect(outbound.jitterMs).toBe(300);
    // Pro: Light 30/s holds back ceil(29.7 × 0.3) = 9 tokens, Heavy 10/s 3; Business Light 80/s, 24.
    expect(outbound.specsOf('pro', 'light')).toEqual([{ ratePerSecond: 30 * 0.99, burst: 21 }]);
    expect(outbound.specsOf('business', 'light')).toEqual([{ ratePerSecond: 80 * 0.99, burst: 56 }]);
    expect(outbound.specsOf('pro', 'heavy')).toEqual([
      { ratePerSecond: 10 * 0.99, burst: 7 },
      { ratePerSecond: (30_000 / 86_400) * 0.99, burst: 29_999 },
    ]);
    expect(outbound.specsOf('pro', 'resource-intensive')[0]).toEqual({ ratePerSecond: (10 / 60) * 0.99, burst: 9 });
  });

  it('absorbs the jitter the answers measure once they come, and the whole allowance again after an upstream 429', async () => {
    const outbound = new OutboundLimiter({ store: new MemoryBucketStore() });
    const quick = () => new Promise((resolve) => setTimeout(resolve, 1));
    for (let i = 0; i < 5; i++) await outbound.schedule(at('k'), 'light', quick);
    // Answers within a few ms: the least allowance (10 ms, or the next 5 ms step on a slow machine).
    expect(outbound.jitterMs).toBeLessThanOrEqual(50);
    expect(outbound.specsOf('pro', 'heavy')[0]).toEqual({ ratePerSecond: 9.9, burst: 9 });
    // A call still unanswered counts with its age: it may yet arrive late.
    let answer = () => {};
    const slow = outbound.schedule(at('k'), 'light', () => new Promise<void>((resolve) => (answer = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(outbound.jitterMs).toBeGreaterThanOrEqual(120);
    expect(outbound.specsOf('pro', 'heavy')[0]!.burst).toBeLessThan(9);
    answer();
    await slow;
    await outbound.penalize(at('k'), 'light', 10);
    expect(outbound.jitterMs).toBe(300);
    expect(outbound.specsOf('pro', 'heavy')[0]).toEqual({ ratePerSecond: 9.9, burst: 7 });
  });

  it('keeps a fixed margin when the least allowance is the whole one', async () => {
    const outbound = new OutboundLimiter({ store: new MemoryBucketStore(), minJitterMs: 300 });
    for (let i = 0; i < 5; i++) await outbound.schedule(at('k'), 'light', noop);
    expect(outbound.jitterMs).toBe(300);
  });

  it("lets an undo take the next token ahead of every waiter, on its own budget after the call's deadline", async () => {
    const { outbound } = limiter();
    const order: string[] = [];
    // Heavy ×0.5 = 5/s, burst 5: the burst goes at once, then 3 waiters queue.
    const waiters = Array.from({ length: 8 }, (_, i) => outbound.schedule(at('k'), 'heavy', async () => void order.push(`call ${i}`)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const spentDeadline = Date.now() - 1;
    const undo = outbound.schedule(at('k'), 'heavy', async () => void order.push('undo'), {
      priority: 'undo',
      deadlineMs: undefined,
    });
    await Promise.all([...waiters, undo]);
    // Only the waiter already taking its token (call 5) goes before it.
    expect(order.indexOf('undo')).toBe(6);
    // A normal call with a spent deadline is refused; an undo never carries one (its own maxWaitMs applies).
    await expect(outbound.schedule(at('k'), 'heavy', noop, { deadlineMs: spentDeadline })).rejects.toBeInstanceOf(RateLimitExceeded);
  });

  it('never refuses an undo for a full queue', async () => {
    // This store answers asynchronously, so every call queues: five take the burst, the sixth waits, the seventh is one too many.
    const { outbound } = limiter({ maxQueue: 6 });
    const burst = Array.from({ length: 5 }, () => outbound.schedule(at('k'), 'heavy', noop));
    const queued = outbound.schedule(at('k'), 'heavy', noop);
    await expect(outbound.schedule(at('k'), 'heavy', noop)).rejects.toMatchObject({ reason: 'queue-full' });
    await expect(outbound.schedule(at('k'), 'heavy', noop, { priority: 'undo' })).resolves.toBe('done');
    await Promise.all([...burst, queued]);
  });

  it('refuses at once a call of a paused category instead of holding it to its deadline, and caps the pause', async () => {
    const { outbound } = limiter();
    await outbound.penalize(at('k'), 'heavy', 30_000);
    const refused = outbound.schedule(at('k'), 'heavy', noop, { deadlineMs: Date.now() + 60_000 });
    // At once: before any timer, where holding it would take the 30 s pause.
    expect(await settlesBefore(refused, 100)).toBe(true);
    await expect(refused).rejects.toMatchObject({ reason: 'paused' });
    // Another category of the account runs.
    await expect(outbound.schedule(at('k'), 'light', noop)).resolves.toBe('done');
  });

  it('withdraws a waiting call whose signal fires before its token comes: the task never runs', async () => {
    const { outbound } = limiter();
    let ran = 0;
    const burst = Array.from({ length: 5 }, () => outbound.schedule(at('k'), 'heavy', async () => void ran++));
    const gone = new AbortController();
    const withdrawn = outbound.schedule(at('k'), 'heavy', async () => void ran++, { leaving: leavingOf(gone.signal) });
    gone.abort(new Error('client left'));
    await expect(withdrawn).rejects.toThrow('client left');
    await Promise.all(burst);
    expect(ran).toBe(5);
  });

  it("counts a category's backlog at its per-second rate, not the daily Heavy cap's (which still has most of its day left)", async () => {
    // Heavy ×0.5 = 5/s and 15 000 a day; this store answers asynchronously, so all 8 queue: 1.6 s of work, not 8 × 8.6 s.
    const { outbound } = limiter({ maxBacklogMs: 2_000 });
    const running = Array.from({ length: 8 }, () => outbound.schedule(at('k'), 'heavy', noop));
    await expect(outbound.schedule(at('k'), 'heavy', noop, { opensCall: true })).resolves.toBe('done');
    await Promise.all(running);
  });

  it('refuses a call that opens a v1 call once its category has more than maxBacklogMs queued, but never a call of a v1 call already running', async () => {
    // Heavy ×0.5 = 5/s: 200 ms of backlog is one queued call.
    const { outbound } = limiter({ maxBacklogMs: 200 });
    const running = Array.from({ length: 8 }, () => outbound.schedule(at('k'), 'heavy', noop));
    await expect(outbound.schedule(at('k'), 'heavy', noop, { opensCall: true })).rejects.toMatchObject({
      reason: 'queue-full',
    });
    await expect(outbound.schedule(at('k'), 'heavy', noop)).resolves.toBe('done');
    await Promise.all(running);
    // Drained: a new v1 call gets in again.
    await expect(outbound.schedule(at('k'), 'heavy', noop, { opensCall: true })).resolves.toBe('done');
  });
});

/**
 * Calls later than the margin: a gateway whose sends reach the upstream a second late (a starved
 * event loop, connections opening together) against the upstream's own bucket, on one clock that
 * moves only when told. Pro Light: the upstream holds 30 and refills 30/s; ours, after the margin, 21.
 */
function lateArrivals() {
  let nowMs = 1_000_000;
  const now = () => nowMs;
  const outbound = new OutboundLimiter({ store: new MemoryBucketStore({ now }), now });
  const upstreamSpec = { ratePerSecond: 30, burst: 30 };
  let upstream: BucketState | undefined;
  /** Calls sent and not yet arrived, then arrived and not yet answered: each its answer. */
  const onTheWay: (() => void)[] = [];
  const arrived: (() => void)[] = [];
  let refused = 0;
  return {
    later: (ms: number) => void (nowMs += ms),
    /** Tries `n` calls now; those not admitted at once are refused (no wait): how many were sent. */
    async send(n: number): Promise<number> {
      let sent = 0;
      const turnedAway: Promise<unknown>[] = [];
      for (let i = 0; i < n; i++) {
        let ran = false;
        const call = outbound.schedule(
          at('a'),
          'light',
          () => {
            ran = true;
            return new Promise<void>((answer) => onTheWay.push(answer));
          },
          { maxWaitMs: 0 },
        );
        if (ran) sent++;
        else turnedAway.push(call);
      }
      await Promise.allSettled(turnedAway);
      return sent;
    },
    /** Every call on its way arrives now: the upstream takes one token each, or refuses it. */
    arriveAll(): void {
      for (const answer of onTheWay.splice(0)) {
        const taken = takeToken(upstream, upstreamSpec, nowMs);
        if (taken.allowed) upstream = taken.state;
        else refused++;
        arrived.push(answer);
      }
    },
    async answerAll(): Promise<void> {
      for (const answer of arrived.splice(0)) answer();
      await new Promise((resolve) => setImmediate(resolve));
    },
    get refused() {
      return refused;
    },
  };
}

describe('calls later than the margin', () => {
  it("holds the bucket to the upstream's burst less the calls in flight: a backlog arriving at once finds its tokens", async () => {
    const v2 = lateArrivals();
    expect(await v2.send(30)).toBe(21);
    // A second on, none has arrived: ours has refilled, but 21 may still land together with what it sends.
    v2.later(1_000);
    expect(await v2.send(30)).toBe(30 - 21);
    v2.arriveAll();
    expect(v2.refused).toBe(0);
  });

  it('keeps the cap while the calls are out: answered after a stall, they leave the bucket where their arrival left the upstream', async () => {
    const v2 = lateArrivals();
    expect(await v2.send(30)).toBe(21);
    // A second with no take: the 21 arrive late and together, spending the upstream's refill, then are answered.
    v2.later(1_000);
    v2.arriveAll();
    await v2.answerAll();
    expect(await v2.send(30)).toBe(30 - 21);
    v2.arriveAll();
    expect(v2.refused).toBe(0);
  });
});
