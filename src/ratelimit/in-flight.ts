import type { BucketRef, BucketStore } from './bucket-store.js';
import type { RateLimitCategory } from '../v2-contract/v2-route.js';

/**
 * The calls of each account and category that have their token and no answer yet, and what they
 * allow the outbound buckets to hold.
 *
 * The upstream counts a call when it arrives; we count it when we take its token. An answered
 * call has arrived; an unanswered one may not have yet, and every one of them may arrive at once
 * (a backlog on a starved event loop draining, new connections opening together). The margin's
 * jitter (arrival-spread.ts) covers arrivals up to its ceiling late; this covers the rest without
 * any assumption about how late: ours holds at most the upstream's burst less the calls in flight.
 * Then, whatever the delays, the upstream holds at least our tokens plus the calls still on their
 * way (each take moves one from ours to the way, each arrival one from the way off the upstream's,
 * and a refill adds at least as much there as here, or finds the upstream full, where the cap
 * keeps ours that far below it), so a call sent on our token always finds one there.
 *
 * The cap is kept before every take and before an answer lowers the count, the only moments it
 * can bind: between them the count, and so the cap, stay put. It binds only while more calls are
 * in flight than the margin holds back (a quick upstream never meets it), and it counts this
 * process's calls: gateways sharing buckets through Redis each keep their own.
 */
export class CallsInFlight {
  private readonly counts = new Map<string, Partial<Record<RateLimitCategory, number>>>();

  of(account: string, category: RateLimitCategory): number {
    return this.counts.get(account)?.[category] ?? 0;
  }

  sent(account: string, category: RateLimitCategory): void {
    let byCategory = this.counts.get(account);
    if (!byCategory) this.counts.set(account, (byCategory = {}));
    byCategory[category] = (byCategory[category] ?? 0) + 1;
  }

  /** An answer (or a failure) came: the account's entry goes with its last call, so many accounts leave nothing behind. */
  answered(account: string, category: RateLimitCategory): void {
    const byCategory = this.counts.get(account);
    const count = byCategory?.[category];
    if (!byCategory || count === undefined) return;
    if (count > 1) byCategory[category] = count - 1;
    else delete byCategory[category];
    if (Object.keys(byCategory).length === 0) this.counts.delete(account);
  }

  /** Accounts with a call in flight (for tests of memory staying flat). */
  get accounts(): number {
    return this.counts.size;
  }
}

/**
 * The most tokens ours may hold with `inFlight` calls unanswered (`upstreamBurst` less them, never
 * below none), or undefined where our burst is that low anyway and nothing need be read.
 */
export function tokensAllowed(upstreamBurst: number, ourBurst: number, inFlight: number): number | undefined {
  const allowed = upstreamBurst - inFlight;
  return ourBurst <= allowed ? undefined : Math.max(0, allowed);
}

/**
 * Takes from the bucket what it holds beyond `allowed`: at once where the store answers at once,
 * else the promise of it. A store's failure is absorbed: its policy has logged it, and the next
 * take lowers the bucket again.
 */
export function lowerTo(store: BucketStore, ref: readonly BucketRef[], allowed: number): void | Promise<void> {
  const drain = (tokens: number): void | Promise<void> => {
    if (tokens <= allowed || store.takeNow?.(ref, tokens - allowed)) return;
    return store.take(ref, tokens - allowed).then(() => {});
  };
  const reading = store.takeNow?.(ref, 0);
  const drained = reading ? drain(reading.buckets[0]!.tokens) : store.take(ref, 0).then((read) => drain(read.buckets[0]!.tokens));
  return drained?.catch(() => {});
}
