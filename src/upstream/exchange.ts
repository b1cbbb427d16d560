import { Pool, util as undiciUtil, type Dispatcher } from 'undici';
import type { OwnTime } from '../shared/own-time.js';
import type { Query } from './credentials.js';
import { UpstreamUnavailable } from './errors.js';
import { toUnavailable, type AnswerHeaders } from './v2-failure.js';

/** One request over the v2 service's pool, its answer read within a byte cap and a deadline. */

/** The v2 service's connection pool, and the path its base URL puts before every route's. */
export interface Upstream {
  pool: Pool;
  basePath: string;
}

/** A keep-alive pool of `connections` to the service at `baseUrl`, each request's headers and body within `timeoutMs`. */
export function connectUpstream(baseUrl: string, connections: number, timeoutMs: number): Upstream {
  const url = new URL(baseUrl);
  const connectTimeoutMs = Math.min(timeoutMs, 5_000);
  const pool = new Pool(url.origin, {
    connections,
    pipelining: 1,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 600_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: connectTimeoutMs },
  });
  return { pool, basePath: url.pathname.replace(/\/+$/, '') };
}

/** How one exchange reads its answer, and where it tells the answer's status once it comes (0 until then). */
export interface Reading {
  /** The largest answer read (bytes): a larger one fails the exchange, read no further. */
  readonly maxBytes: number;
  /** Whether the request may have changed something when it fails (a write's). */
  readonly mayHaveApplied: boolean;
  /** The call's own-time clock: the exchange is a wait on v2, from its start until it settles. */
  readonly ownTime?: OwnTime | undefined;
  status: number;
}

export interface Exchanged {
  statusCode: number;
  /** Every header, by lower-case name, as undici's `parseHeaders` makes them: made when first read (a failure's). */
  readonly headers: AnswerHeaders;
  /** One header's value as `headers` would hold it (an array when it came more than once), without making the rest. */
  header(name: string): AnswerHeaders[string];
  text: string;
}

/** 8 MiB: the largest v2 answer (a 300-item page of full meetings) is a small fraction of it. */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/** Where an exchange tells how it ended: once, its answer or its failure (a connection's, the deadline's, the byte cap's). */
export interface ExchangeOutcome {
  answered(exchanged: Exchanged): void;
  failed(error: UpstreamUnavailable): void;
}

/**
 * One request through the pool, its answer's body read within `reading.maxBytes`, all by `endsAt`:
 * the wait for a connection, the request, the answer and its body. When time is up the call fails at
 * once and the request is aborted: one still waiting for a connection is dropped unsent (undici
 * drops it when a connection takes it up, without the call waiting for that), one sent is cut off,
 * its connection closed, and an answer coming after all is never read. `outcome` is told once, from
 * undici's callbacks (or the deadline's timer): the v2 client's attempt makes no promise of its own
 * per exchange, it settles the one of its attempt from there (client.ts).
 */
export function dispatchExchange(
  upstream: Upstream,
  options: Dispatcher.DispatchOptions,
  endsAt: number,
  reading: Reading,
  outcome: ExchangeOutcome,
): void {
  upstream.pool.dispatch(options, new ExchangeHandler(reading, outcome, Math.max(0, endsAt - Date.now())));
}

/**
 * One exchange as undici's dispatch handler: the request's abort, the answer's status, headers and
 * text, the deadline, all in one object per exchange. `pool.request` made for each a handler of its
 * own, an async resource and a Readable of the body read back by four listeners, with a promise
 * and six closures around them: about 4 KiB allocated per v2 call, which this does without
 * (`npm run bench:profile`, heap KiB per call by area).
 *
 * undici calls `onConnect` once a connection takes the request up, then `onHeaders`, `onData` for
 * each chunk and `onComplete`, or `onError` instead at any point (its own headers and body timeouts,
 * a reset, an abort): exactly one of `onComplete` and `onError` ends every request.
 */
class ExchangeHandler implements Exchanged {
  statusCode = 0;
  text = '';
  /** The answer's header names and values as undici read them, kept to read what is asked for. */
  private raw: Buffer[] = NO_CHUNKS;
  private parsed: AnswerHeaders | undefined = undefined;
  private chunks: Buffer[] = [];
  private size = 0;
  /** Told once: the answer, the failure, or the deadline, whichever comes first. */
  private settled = false;
  /** undici's abort of this request, once a connection took it up. */
  private abort: ((reason: Error) => void) | undefined = undefined;
  /** Why the request is to be aborted (its time is up, its answer too large): applied as soon as there is an abort. */
  private reason: UpstreamUnavailable | undefined = undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly reading: Reading,
    private readonly outcome: ExchangeOutcome,
    leftMs: number,
  ) {
    reading.ownTime?.wait();
    this.timer = setTimeout(expire, leftMs, this);
  }

  onConnect(abort: (reason: Error) => void): void {
    if (this.reason) return abort(this.reason);
    this.abort = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    // An interim answer (100 Continue): the answer itself follows.
    if (statusCode < 200) return true;
    this.statusCode = statusCode;
    this.reading.status = statusCode;
    // Views of the socket's chunks, which undici never reuses: read when asked, most never are.
    this.raw = rawHeaders;
    return true;
  }

  /** The same object of lower-case names `pool.request` gave. */
  get headers(): AnswerHeaders {
    return (this.parsed ??= this.raw.length === 0 ? NO_HEADERS : undiciUtil.parseHeaders(this.raw));
  }

  header(name: string): AnswerHeaders[string] {
    return this.parsed ? this.parsed[name] : headerIn(this.raw, name);
  }

  onData(chunk: Buffer): boolean {
    if (this.settled) return true;
    this.size += chunk.length;
    if (this.size > this.reading.maxBytes) {
      const { maxBytes, mayHaveApplied } = this.reading;
      this.cutOff(new UpstreamUnavailable('bad-response', `The v2 service answered more than ${maxBytes} bytes.`, mayHaveApplied));
      return true;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.settled) return;
    const { chunks } = this;
    // Made before the outcome is told: a throw here (a text past V8's longest string, 512 MiB, which
    // UPSTREAM_MAX_BODY_BYTES's ceiling of 256 MiB now keeps out) goes to onError, which must find the
    // exchange still to be told, or its call would wait for ever.
    this.text = chunks.length === 0 ? '' : chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
    this.settle();
    this.chunks = NO_CHUNKS;
    this.outcome.answered(this);
  }

  onError(error: Error): void {
    if (this.settle()) this.outcome.failed(toUnavailable(error));
  }

  /** Time is up: the call fails now, and the request is aborted where it stands. */
  expired(): void {
    this.cutOff(new UpstreamUnavailable('timeout', 'The v2 service did not answer in time.', this.reading.mayHaveApplied));
  }

  /** Fails the exchange with `reason` and aborts its request, now or as soon as a connection takes it up. */
  private cutOff(reason: UpstreamUnavailable): void {
    if (!this.settle()) return;
    this.chunks = NO_CHUNKS;
    this.reason = reason;
    this.outcome.failed(reason);
    this.abort?.(reason);
  }

  /** Whether the outcome is still to be told (and from now on it is not): the deadline is cleared, the wait on v2 over. */
  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    clearTimeout(this.timer);
    this.reading.ownTime?.resume();
    return true;
  }
}

/** The timer's callback, one for every exchange (a closure per exchange would be allocated with it). */
const expire = (handler: ExchangeHandler) => handler.expired();
const NO_HEADERS: AnswerHeaders = Object.freeze({});
const NO_CHUNKS: Buffer[] = [];

/**
 * The value of the header `name` (lower case) among undici's raw header names and values, as
 * `parseHeaders` would give it: the value as latin1 text, all of them in order when it came more
 * than once, undefined when it did not come. A name is matched in any letter case (ASCII: a header
 * name is an HTTP token). `exchange.test.ts` holds it to `parseHeaders` over generated headers.
 */
export function headerIn(raw: readonly Buffer[], name: string): AnswerHeaders[string] {
  let found: string | string[] | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    if (!named(raw[i]!, name)) continue;
    const value = raw[i + 1]!.toString('latin1');
    if (found === undefined) found = value;
    else if (typeof found === 'string') found = [found, value];
    else found.push(value);
  }
  return found;
}

function named(bytes: Buffer, name: string): boolean {
  if (bytes.length !== name.length) return false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if ((c >= 0x41 && c <= 0x5a ? c | 0x20 : c) !== name.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * The query as sent, `?name=value&...` in the query's own order (empty for none), each name and
 * value percent-encoded: the same string is the coalescing key's query (coalesce.ts, `requestKey`).
 */
export function queryString(query: Query | undefined): string {
  let search = '';
  for (const name in query) {
    const value = query[name];
    if (value !== undefined) search += `${search ? '&' : '?'}${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`;
  }
  return search;
}

/**
 * The calls left in the account's budget of the call's category, as a QPS answer states it; a
 * Daily-limit answer's count is a day's (a user's meeting writes, the Heavy cap), not the bucket's.
 */
export function qpsRemaining(answer: Pick<Exchanged, 'header'>): number | undefined {
  const value = answer.header('x-ratelimit-remaining');
  if (typeof value !== 'string' || answer.header('x-ratelimit-type') !== 'QPS' || !/^\d{1,9}$/.test(value)) return undefined;
  return Number(value);
}
