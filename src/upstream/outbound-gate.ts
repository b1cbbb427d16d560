import { requireFanOutWithin } from '../ratelimit/fan-out.js';
import type { OutboundLimiter, ScheduleOptions, V2Budget } from '../ratelimit/outbound-limiter.js';
import { chargeAccepted } from '../ratelimit/proof-budget.js';
import { nowOrLater } from '../shared/now-or-later.js';
import type { V2Route, V2Target } from '../v2-contract/v2-route.js';
import type { GateOptions, OutboundGate } from './client.js';
import type { Credentials } from './credentials.js';
import type { V2Budgets } from './outbound-budget.js';

/**
 * The v2 client's outbound gate over the outbound limiter: each call spends its v2 account's budget
 * (outbound-budget.ts) of the category its typed route declares, and what the service answers
 * about that budget (its 429s, its `X-RateLimit-Remaining`) corrects the same buckets.
 * `options` lets the caller add to each call's options (a shutdown's withdrawal).
 */
export function limiterGate(
  outbound: OutboundLimiter,
  budgets: V2Budgets,
  options: (given: GateOptions) => ScheduleOptions = (given) => given,
): OutboundGate {
  return {
    schedule: (credentials, target, task, given = {}) => {
      // No closure where the budget is known at once (most calls): `spending` would make one per call.
      const budget = budgets.of(credentials);
      if (budget instanceof Promise) return budget.then((found) => outbound.schedule(found, target.route.category, task, options(given)));
      return outbound.schedule(budget, target.route.category, task, options(given));
    },
    // The same, without a promise, for a call whose budget is known and whose token is taken now.
    admitNow: (credentials, target, given = {}) => {
      const budget = budgets.of(credentials);
      if (!(budget instanceof Promise)) return outbound.admitNow(budget, target.route.category, options(given));
      // Looked up again by `schedule`, which waits for it; this lookup is only let go.
      budget.catch(() => {});
      return undefined;
    },
    penalize: (credentials, target, retryAfterMs) =>
      absorbed(spending(budgets, credentials, (budget) => outbound.penalize(budget, target.route.category, retryAfterMs))),
    remaining: (credentials, target, remaining) =>
      absorbed(spending(budgets, credentials, (budget) => outbound.correct(budget, target.route.category, remaining))),
  };
}

/** `use` of the pair's budget: at once when it is known at once (a mapped key), else once looked up. */
function spending<T>(budgets: V2Budgets, credentials: Credentials, use: (budget: V2Budget) => T | Promise<T>): T | Promise<T> {
  return nowOrLater(budgets.of(credentials), use);
}

/** A correction that could not be made is only a correction missed: the next answer makes it again. */
function absorbed(done: void | Promise<void>): void {
  if (done) done.catch(() => {});
}

/**
 * Charges a call v2 accepted before its budget was known to spend (an unproven pair's proof) to
 * the account's buckets afterwards (chargeAccepted, proof-budget.ts).
 */
export function chargeTo(outbound: OutboundLimiter, budgets: V2Budgets): (credentials: Credentials, target: V2Target) => void {
  return (credentials, target) =>
    absorbed(spending(budgets, credentials, (budget) => chargeAccepted(outbound, budget, target.route.category)));
}

/**
 * The fan-out pre-check of a pair's v1 call (src/ratelimit/fan-out.ts): whether `calls` v2 calls
 * of the route's category fit within `waitMs` at the plan of the account the pair's calls spend,
 * the same plan that sizes the buckets they then wait on; throws the rate-limit refusal if not.
 */
export function fanOutCheck(
  outbound: OutboundLimiter,
  budgets: V2Budgets,
): (credentials: Credentials, route: V2Route<'GET'>, calls: number, waitMs: number) => void {
  return (credentials, route, calls, waitMs) =>
    requireFanOutWithin(outbound, { plan: budgets.planOf(credentials) }, route.category, calls, waitMs);
}
