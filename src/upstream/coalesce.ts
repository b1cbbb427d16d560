import type { Credentials, Query } from './credentials.js';
import { copyOfAnswer } from './answer-copies.js';
import { CallWithdrawn } from './errors.js';
import { pairProofOf } from './pair-proof.js';

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
  /** api_key → (pair proof + path + query → the shared call). Entries live only while in flight. */
  private readonly inFlight = new Map<string, Map<string, Promise<unknown>>>();

  /**
   * `send` for this GET: shared with an identical one in flight, else sent and offered to others.
   * A waiter receives its own copy of the answer (a translator may change the object it got).
   */
  run<T>(credentials: Credentials, path: string, query: Query | undefined, send: () => Promise<T>): Promise<T> {
    const key = requestKey(credentials, path, query);
    let calls = this.inFlight.get(credentials.apiKey);
    const pending = calls?.get(key);
    if (pending) return joined(pending as Promise<T>, send);
    const shared = send();
    if (!calls) this.inFlight.set(credentials.apiKey, (calls = new Map<string, Promise<unknown>>()));
    calls.set(key, shared);
    const forget = () => {
      const current = this.inFlight.get(credentials.apiKey);
      if (current?.get(key) !== shared) return;
      current.delete(key);
      if (current.size === 0) this.inFlight.delete(credentials.apiKey);
    };
    shared.then(forget, forget);
    return shared;
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

/**
 * A waiter's outcome: the shared answer (copied), or the shared error, except the sender's own
 * withdrawal (its client left before a token came): that says nothing of this waiter, who sends
 * its own call instead.
 */
function joined<T>(shared: Promise<T>, send: () => Promise<T>): Promise<T> {
  return shared.then(
    (answer) => copyOfAnswer(answer),
    (error: unknown) => {
      if (error instanceof CallWithdrawn) return send();
      throw error;
    },
  );
}

/** The pair's proof (a hash: no secret kept as text), the path and the query in a stable order. */
function requestKey(credentials: Credentials, path: string, query: Query | undefined): string {
  const proof = pairProofOf(credentials);
  if (!query) return `${proof} ${path}`;
  const entries = Object.entries(query)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return `${proof} ${path}?${entries.join('&')}`;
}
