import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryBucketStore } from './memory-store.js';
import { OutboundLimiter, type ScheduleOptions, type V2Budget } from './outbound-limiter.js';
import { leavingOf } from '../shared/leaving.js';
import { limiterGate } from '../upstream/outbound-gate.js';
import type { V2Budgets } from '../upstream/outbound-budget.js';
import { V2 } from '../v2-contract/v2-routes.js';
import type { RateLimitCategory } from '../v2-contract/v2-route.js';

/**
 * `admitNow` is `schedule`'s way through without a promise (the v2 client's usual call): it must let
 * through exactly the calls `schedule` would run at once, take a token only then, and never pass
 * a call of an account and category with someone waiting before it.
 */

const at: V2Budget = { account: 'k', plan: 'pro' };
/** Pro's limits ×0.5 (Light 15/s, Heavy 5/s), no margin: exact numbers, on a clock the test moves. */
function limiter(clock: { ms: number }, maxWaitMs = 0) {
  const now = () => clock.ms;
  return new OutboundLimiter({ store: new MemoryBucketStore({ now }), scale: 0.5, margin: { rateFactor: 1, jitterMs: 0 }, maxWaitMs, now });
}
const inFlight = (outbound: OutboundLimiter) =>
  (outbound as unknown as { inFlight: { of(a: string, c: string): number } }).inFlight.of('k', 'light');

/** How one call went: let through synchronously, and then answered or refused (and why). */
async function outcomeOf(started: boolean, pending: Promise<unknown>) {
  return {
    started,
    ended: await pending.then(
      () => 'answered',
      (error: Error & { reason?: string }) => error.reason ?? error.message,
    ),
  };
}

const options = fc.record<ScheduleOptions & { left: boolean; ms: number }>({
  ms: fc.integer({ min: 0, max: 400 }),
  left: fc.boolean(),
  deadlineMs: fc.option(fc.integer({ min: -50, max: 500 }), { nil: undefined }),
  priority: fc.option(fc.constant('undo' as const), { nil: undefined }),
  opensCall: fc.boolean(),
  unmetered: fc.boolean(),
});

describe('OutboundLimiter.admitNow', () => {
  it('lets through exactly the calls schedule runs at once, and leaves the buckets as schedule does', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<RateLimitCategory>('light', 'heavy'),
        fc.array(options, { maxLength: 25 }),
        async (category, calls) => {
          const [clockA, clockB] = [{ ms: 1_000_000 }, { ms: 1_000_000 }];
          const [a, b] = [limiter(clockA), limiter(clockB)];
          for (const call of calls) {
            clockA.ms += call.ms;
            clockB.ms += call.ms;
            const given: ScheduleOptions = {
              ...(call.deadlineMs === undefined ? {} : { deadlineMs: clockA.ms + call.deadlineMs }),
              ...(call.priority ? { priority: call.priority } : {}),
              opensCall: call.opensCall,
              unmetered: call.unmetered,
              ...(call.left ? { leaving: leavingOf(AbortSignal.abort(new Error('left'))) } : {}),
            };
            // A: as the v2 client does, admitNow, and schedule when nothing was taken.
            const done = a.admitNow(at, category, given);
            const viaA = done ? Promise.resolve().then(done) : a.schedule(at, category, async () => 'sent', given);
            // B: schedule alone; a task it runs before returning was let through at once.
            let ran = false;
            const viaB = b.schedule(at, category, async () => ((ran = true), 'sent'), given);
            expect(await outcomeOf(done !== undefined, viaA)).toEqual(await outcomeOf(ran, viaB));
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('never passes a call with one of its account and category waiting, whatever tokens the bucket holds', async () => {
    const clock = { ms: 1_000_000 };
    const outbound = limiter(clock, 10_000);
    // Heavy ×0.5: a burst of 5. Spent, the sixth call waits in the queue for the next token.
    const sent = Array.from({ length: 5 }, () => outbound.admitNow(at, 'heavy'));
    expect(sent.every((done) => done !== undefined)).toBe(true);
    expect(outbound.admitNow(at, 'heavy')).toBeUndefined();
    let waiterSent = false;
    const waiter = outbound.schedule(at, 'heavy', async () => void (waiterSent = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(outbound.waiting('k', 'heavy')).toBe(1);
    // The five are answered and the bucket refills while the waiter sleeps: the token is the waiter's, not the newcomer's.
    for (const done of sent) done?.();
    clock.ms += 5_000;
    expect(outbound.admitNow(at, 'heavy')).toBeUndefined();
    await waiter;
    expect(waiterSent).toBe(true);
    // Nobody waiting any more: the next token is taken at once.
    expect(outbound.admitNow(at, 'heavy')).toBeDefined();
  });

  it('counts a call let through in flight until it is told its end', () => {
    const outbound = limiter({ ms: 1_000_000 });
    const done = outbound.admitNow(at, 'light');
    expect(inFlight(outbound)).toBe(1);
    done?.();
    expect(inFlight(outbound)).toBe(0);
  });

  it('through the gate: a budget still to be looked up takes nothing now, and leaves the call to schedule', () => {
    const outbound = limiter({ ms: 1_000_000 });
    const lookup = Promise.resolve(at);
    const budgets = { of: () => lookup } as unknown as V2Budgets;
    const gate = limiterGate(outbound, budgets);
    expect(gate.admitNow?.({ apiKey: 'k', apiSecret: 's' }, V2.users.emailTaken.at())).toBeUndefined();
    expect(inFlight(outbound)).toBe(0);
    const known = limiterGate(outbound, { of: () => at } as unknown as V2Budgets);
    expect(known.admitNow?.({ apiKey: 'k', apiSecret: 's' }, V2.users.emailTaken.at())).toBeDefined();
  });
});
