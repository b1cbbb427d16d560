import { keyHash } from './key-hash.js';

/**
 * Which api_keys get a metric series of their own: the N busiest keys whose pair was proven (v2
 * accepted the secret, or it was verified locally), every other call under one `other` label. So
 * per-key series stay at most N+1 however many keys, real or made up, the gateway sees.
 *
 * Each call is counted once, at the time it is made, on the series of its key if that key holds a
 * slot now, else on `other`: every series only ever grows, as a Prometheus counter must. A proven
 * key takes a free slot at once; once the slots are full, the keys that were busiest over the last
 * window take them at the next rebalance, and a key that loses its slot has its series removed
 * (it starts from zero if it wins one back, which `rate()` reads as a counter reset).
 */

export interface BusiestKeysOptions {
  /** N: the keys with a series of their own. */
  slots: number;
  /** How often the slots go to the keys busiest since the last rebalance (default one minute). */
  windowMs?: number;
  /** Proven keys without a slot whose calls are counted for the next rebalance (default 4N, at least 50). */
  candidates?: number;
  now?: () => number;
}

/** The label hashes of the keys that lost and won a slot at one rebalance. */
export type SlotListener = (change: { lost: string[]; won: string[] }) => void;

/** The label of every call that is not a slot holder's. */
export const OTHER_KEYS = 'other';

export class BusiestKeys {
  /** api_key → calls in this window, for the keys holding a slot. */
  private readonly holders = new Map<string, number>();
  /** api_key → calls in this window (an upper bound, Space-Saving), for proven keys without a slot. */
  private readonly contenders = new Map<string, number>();
  private readonly slots: number;
  private readonly windowMs: number;
  private readonly maxContenders: number;
  private readonly now: () => number;
  private windowStart: number;
  private readonly listeners: SlotListener[] = [];

  constructor(options: BusiestKeysOptions) {
    this.slots = options.slots;
    this.windowMs = options.windowMs ?? 60_000;
    this.maxContenders = options.candidates ?? Math.max(50, 4 * options.slots);
    this.now = options.now ?? Date.now;
    this.windowStart = this.now();
  }

  /** Told, at each rebalance, the label hashes of the keys that lost a slot (remove their series) and won one (start theirs at 0). */
  onRebalance(listener: SlotListener): void {
    this.listeners.push(listener);
  }

  /**
   * The label of one call: its key's hash when the key holds a slot, else `other`. A call whose
   * pair was proven may win its key a slot; an unproven one never does.
   */
  callLabel(apiKey: string | undefined, proven: boolean): string {
    this.rebalanceIfDue();
    if (apiKey === undefined) return OTHER_KEYS;
    const held = this.holders.get(apiKey);
    if (held !== undefined) {
      this.holders.set(apiKey, held + 1);
      return keyHash(apiKey);
    }
    if (!proven) return OTHER_KEYS;
    if (this.holders.size < this.slots) {
      this.holders.set(apiKey, 1);
      this.contenders.delete(apiKey);
      return keyHash(apiKey);
    }
    this.countContender(apiKey);
    return OTHER_KEYS;
  }

  /** The label of a key elsewhere (a limiter queue): its hash while it holds a slot, else `other`. */
  labelOf(apiKey: string): string {
    return this.holders.has(apiKey) ? keyHash(apiKey) : OTHER_KEYS;
  }

  /** The keys holding a slot now (tests and the status page read their number). */
  get holderCount(): number {
    return this.holders.size;
  }

  /** Scrapes call it too, so a quiet gateway still hands its slots on. */
  rebalanceIfDue(): void {
    if (this.now() - this.windowStart < this.windowMs) return;
    this.windowStart = this.now();
    if (this.contenders.size === 0) {
      for (const key of this.holders.keys()) this.holders.set(key, 0);
      return;
    }
    // Holders first in the sort's input: at equal counts the sort (stable) keeps them, so slots do not flap.
    const ranked = [...this.holders, ...this.contenders].sort((a, b) => b[1] - a[1]);
    const winners = new Set(ranked.slice(0, this.slots).map(([key]) => key));
    const lost = [...this.holders.keys()].filter((key) => !winners.has(key));
    const won = [...winners].filter((key) => !this.holders.has(key));
    for (const key of lost) this.holders.delete(key);
    for (const key of winners) this.holders.set(key, 0);
    this.contenders.clear();
    const change = { lost: lost.map(keyHash), won: won.map(keyHash) };
    for (const listener of this.listeners) listener(change);
  }

  /** Space-Saving: a new key, the table full, replaces the least counted one and inherits its count (an upper bound of its own). */
  private countContender(apiKey: string): void {
    const count = this.contenders.get(apiKey);
    if (count !== undefined) {
      this.contenders.set(apiKey, count + 1);
      return;
    }
    if (this.contenders.size < this.maxContenders) {
      this.contenders.set(apiKey, 1);
      return;
    }
    let leastKey: string | undefined;
    let least = Infinity;
    for (const [key, calls] of this.contenders) {
      if (calls < least) {
        least = calls;
        leastKey = key;
      }
    }
    this.contenders.delete(leastKey!);
    this.contenders.set(apiKey, least + 1);
  }
}
