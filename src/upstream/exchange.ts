import type { Readable } from 'node:stream';
import { Pool, type Dispatcher } from 'undici';
import type { Query } from './credentials.js';
import { UpstreamUnavailable } from './errors.js';
import { toUnavailable } from './v2-failure.js';
import { abandon } from '../shared/abandon.js';

/** One request over the v2 service's pool, its answer read within a byte cap and a deadline. */

/** The v2 service's connection pool, and how many of its requests undici holds (sent, or waiting for a connection). */
export interface Upstream {
  pool: Pool;
  basePath: string;
  connections: number;
  connectTimeoutMs: number;
  inFlight: number;
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
  return { pool, basePath: url.pathname.replace(/\/+$/, ''), connections, connectTimeoutMs, inFlight: 0 };
}

/** How one exchange reads its answer, and where it tells the answer's status once it comes (0 until then). */
export interface Reading {
  /** The largest answer read (bytes): a larger one fails the exchange, read no further. */
  readonly maxBytes: number;
  /** Whether the request may have changed something when it fails (a write's). */
  readonly mayHaveApplied: boolean;
  status: number;
}

export interface Exchanged {
  statusCode: number;
  headers: Dispatcher.ResponseData['headers'];
  text: string;
}

/**
 * One request through the pool, its answer's body read within `reading.maxBytes`, all by `endsAt`:
 * the wait for a connection, the request, the answer and its body. When time is up the call fails at
 * once, and an answer that comes after all is let go unread, freeing its connection.
 *
 * A request that may wait for a connection carries an abort signal, so that undici drops it unsent
 * when its time is up (undici settles an aborted request only once a connection takes it up: the
 * call does not wait for that). One that a free connection, or a new one made within its time, takes
 * at once goes without: it is sent before its time is up, and its connection is freed by undici's
 * own headers and body timeouts, or here when its answer comes late. A signal on every request
 * cost 7.5% of a one-call read's CPU (`npm run bench:builds`).
 *
 * One promise per exchange: undici's request is taken with a callback, and the body read by events
 * into the same promise (bench/v2-exchange.ts measures what the chain of three before it cost).
 */
export function exchange(
  upstream: Upstream,
  options: Omit<Dispatcher.RequestOptions, 'signal'>,
  endsAt: number,
  reading: Reading,
): Promise<Exchanged> {
  const leftMs = Math.max(0, endsAt - Date.now());
  const mayWait = upstream.inFlight >= upstream.connections || leftMs < upstream.connectTimeoutMs;
  const deadline = mayWait ? new Deadline() : undefined;
  upstream.inFlight++;
  return new Promise((resolve, reject) => {
    let settled = false;
    let answer: Dispatcher.ResponseData | undefined;
    const timer = setTimeout(() => {
      settled = true;
      const expired = new UpstreamUnavailable('timeout', 'The v2 service did not answer in time.', reading.mayHaveApplied);
      deadline?.expire(expired);
      if (answer) abandon(answer.body);
      reject(expired);
    }, leftMs);
    /** The request is over (its connection's slot given back); whether its outcome is still to be told. */
    const ended = () => {
      upstream.inFlight--;
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      return true;
    };
    const fail = (error: unknown) => {
      if (ended()) reject(toUnavailable(error));
    };
    const read = (text: string) => {
      if (ended()) resolve({ statusCode: answer!.statusCode, headers: answer!.headers, text });
    };
    upstream.pool.request(deadline ? { ...options, signal: deadline } : options, (error, received) => {
      if (error) return fail(error);
      if (settled) {
        upstream.inFlight--;
        abandon(received.body);
        return;
      }
      answer = received;
      reading.status = received.statusCode;
      readBody(received.body, reading.maxBytes, reading.mayHaveApplied, read, fail);
    });
  });
}

/**
 * One exchange's deadline, as the abort signal undici takes (an object with `aborted`, `reason`
 * and an abort listener): an AbortController per v2 call, with its EventTarget and AbortSignal,
 * cost more CPU than the rest of the exchange's own code (`npm run bench:profile`). undici listens
 * with one listener and removes it when the answer has been read.
 */
class Deadline {
  aborted = false;
  reason: unknown = undefined;
  private listener: (() => void) | undefined;

  addEventListener(_type: 'abort', listener: () => void): void {
    this.listener = listener;
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    if (this.listener === listener) this.listener = undefined;
  }

  /** Time is up: undici drops the request, or lets its answer go. */
  expire(reason: unknown): void {
    this.aborted = true;
    this.reason = reason;
    const listener = this.listener;
    this.listener = undefined;
    listener?.();
  }
}

/** 8 MiB: the largest v2 answer (a 300-item page of full meetings) is a small fraction of it. */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * The answer's text, reading no more than `maxBytes`: a huge answer must not take the process's
 * memory. Read from the stream's events rather than `for await`: its async iterator (a generator, a
 * promise per chunk, an end-of-stream watcher) cost 12.6 µs of CPU per /meeting/create under load,
 * this 2.3 µs (perf's on-CPU samples of the gateway, attributed to their JS frames). Exactly one of
 * `done` and `fail` is called.
 */
function readBody(
  body: Readable,
  maxBytes: number,
  mayHaveApplied: boolean,
  done: (text: string) => void,
  fail: (error: unknown) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const failOnce = (error: unknown) => {
    if (settled) return;
    settled = true;
    fail(error);
  };
  body.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) {
      failOnce(new UpstreamUnavailable('bad-response', `The v2 service answered more than ${maxBytes} bytes.`, mayHaveApplied));
      abandon(body);
      return;
    }
    chunks.push(chunk);
  });
  body.once('end', () => {
    if (settled) return;
    settled = true;
    done(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
  });
  body.once('error', (error: unknown) => failOnce(error));
  // Closed with neither 'end' nor 'error': what `for await` reported as a premature close, never a wait forever.
  body.once('close', () => {
    // Only then is the error made: every answer closes, and an error's stack is dear.
    if (!settled) failOnce(Object.assign(new Error('The v2 answer ended early.'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
  });
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
export function qpsRemaining(headers: Dispatcher.ResponseData['headers']): number | undefined {
  const value = headers['x-ratelimit-remaining'];
  if (typeof value !== 'string' || headers['x-ratelimit-type'] !== 'QPS' || !/^\d{1,9}$/.test(value)) return undefined;
  return Number(value);
}
