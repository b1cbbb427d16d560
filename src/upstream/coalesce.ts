import type { Credentials, Query } from './credentials.js';
import { copyOfAnswer } from './answer-copies.js';
import { CallWithdrawn } from './errors.js';
import { queryString } from './exchange.js';
import { pairProofOf } from './pair-proof.js';

/** A GET in flight that identical ones may join: its outcome, and once it came, the answer's text (for the waiters' copies). */
export interface SharedGet {
  readonly outcome: Promise<unknown>;
  readonly text: string | undefined;
}

/**
 * Identical v2 GETs in flight at once become one v2 call: the same api_key and secret (so no
 * caller ever gets an answer its own secret did not earn), the same path and query. Each waiter
 * gets the same answer or the same error as the call that was sent; only that one is "sent" (its
 * v1 call counts it in x-v2-calls), the others cost nothing.
 *
 * Reads never join a GET that was in flight when the same key wrote (a write sent or finished
 * through this client): a read after a write sees the write, as it would without coalescing.
 */
export class GetCoalescer {
  /** api_key → (pair proof + path + query → the shared call). Calls are in it only while in flight. */
  private readonly inFlight = new Map<string, Map<string, SharedGet>>();

  /** The identical GET in flight under `key` (requestKey), if any: join it with `joined`. */
  find(apiKey: string, key: string): SharedGet | undefined {
    return this.inFlight.get(apiKey)?.get(key);
  }

  /**
   * A GET about to be sent, offered to the identical ones made while it is in flight; its sender
   * calls `forget` when it is over (no promise is chained to it here: that cost two per GET).
   */
  offer(apiKey: string, key: string, shared: SharedGet): void {
    let calls = this.inFlight.get(apiKey);
    if (!calls) this.inFlight.set(apiKey, (calls = new Map<string, SharedGet>()));
    calls.set(key, shared);
  }

  /**
   * The GET offered under `key` is over: no later one joins it (a newer one offered under the same
   * key stays). A key's map left empty stays for its next GET, while few keys have one: made and
   * dropped with each GET (one in flight at a time, as most keys have) it cost ~0.3 µs a GET. Past
   * KEPT_EMPTY keys, an emptied map goes, so many keys seen once leave at most that many behind.
   */
  forget(apiKey: string, key: string, shared: SharedGet): void {
    const current = this.inFlight.get(apiKey);
    if (current?.get(key) !== shared) return;
    current.delete(key);
    if (current.size === 0 && this.inFlight.size > KEPT_EMPTY) this.inFlight.delete(apiKey);
  }

  /** The key writes: no later read may join a GET sent before the write. */
  wrote(apiKey: string): void {
    this.inFlight.delete(apiKey);
  }

  /** GETs in flight that others may join (tests). */
  get size(): number {
    let n = 0;
    for (const calls of this.inFlight.values()) n += calls.size;
    return n;
  }
}

/** The api_keys whose map of GETs in flight stays when it empties (an empty map is ~200 bytes). */
const KEPT_EMPTY = 1_024;

/**
 * A waiter's outcome: its own copy of the shared answer, or the shared error, except the sender's
 * own withdrawal (its client left before a token came): that says nothing of this waiter, who
 * sends its own call instead.
 */
export function joined<T>(shared: SharedGet, send: () => Promise<T>): Promise<T> {
  return shared.outcome.then(
    (answer) => copyOfAnswer(answer as T, shared.text),
    (error: unknown) => {
      if (error instanceof CallWithdrawn) return send();
      throw error;
    },
  );
}

/**
 * The pair's proof (a hash: no secret kept as text), the path and the query in a stable order.
 * `search` is the query as sent (exchange.ts, `queryString`): with one field or none, as most reads
 * have, it is already in its one order and is the key's as it is; only more fields are sorted.
 */
export function requestKey(credentials: Credentials, path: string, query: Query | undefined, search: string): string {
  return `${pairProofOf(credentials)} ${path}${query !== undefined && hasFields(query, 2) ? sortedSearch(query) : search}`;
}

/** Whether the query has at least `n` fields that are sent (not undefined). */
function hasFields(query: Query, n: number): boolean {
  let found = 0;
  for (const name in query) if (query[name] !== undefined && ++found >= n) return true;
  return false;
}

/** The query as sent, its fields in name order: two queries of the same fields make one key, however each was written. */
function sortedSearch(query: Query): string {
  const sorted: Query = {};
  for (const name of Object.keys(query).sort()) sorted[name] = query[name];
  return queryString(sorted);
}
