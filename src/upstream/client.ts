import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import { v2FailureKind } from '../../mappings/errors.js';
import type { Leaving } from '../shared/leaving.js';
import type { V2Method, V2Route, V2Target } from '../shared/v2-route.js';
import { isUserDailyLimit } from '../ratelimit/user-daily-limit.js';
import { parseRetryAfter } from '../shared/retry-after.js';
import type { OwnTime } from '../shared/own-time.js';
import type { V2AttemptTrace, V2Tracing } from '../shared/trace-context.js';
import { parseAnswer } from './answer-copies.js';
import type { Credentials, Query } from './credentials.js';
import { GetCoalescer } from './coalesce.js';
import { CallWithdrawn, SHUTTING_DOWN_UNSENT, UpstreamUnavailable, V2Error, type V2FieldError } from './errors.js';
import type { V2Authorizer } from './auth/authorizer.js';

/**
 * The v2 client: one keep-alive connection pool to the v2 service, a fresh-enough JWT per call,
 * timeouts, the outbound rate limit, safe retries, and every failure turned into a typed error.
 */

export type { Credentials, Query } from './credentials.js';

export interface V2Request {
  /** The route and its path (`V2.users.get.at(id)`, src/shared/v2-routes.ts): the method is the route's. */
  target: V2Target;
  query?: Query;
  /** JSON body. */
  body?: unknown;
  /** Multipart body (picture upload). */
  form?: FormData;
  /**
   * When the v1 call this belongs to gives up waiting for outbound tokens (epoch ms): one v1 call
   * fanning out into many v2 calls shares one deadline instead of each waiting its own.
   */
  deadlineMs?: number;
  /**
   * `undo`: a compensating call (a rollback's delete or restore). It goes to the front of the
   * outbound queue and waits on its own budget, not the v1 call's deadline: an undo that the
   * call's spent deadline refused would leave half-done work behind.
   */
  priority?: 'undo';
  /** The first v2 call of a v1 call: refused at once when its key and class have too much queued already. */
  opensCall?: boolean;
  /**
   * The v1 client has gone (its connection closed): a call still waiting for an outbound token is
   * withdrawn, never sent, so no write starts after the client left. Undo calls carry none.
   */
  leaving?: Leaving;
  /**
   * Sent without taking the key's outbound tokens (the gate is told): the first call of a pair v2
   * has not accepted lately, admitted by the proof budget instead, so a wrong secret spends none of
   * the key's tokens (the prover charges an accepted one to them afterwards, src/upstream/pair-proof.ts).
   */
  unmetered?: boolean;
  /** Called each time the request is really sent (not when refused by the limiter): for x-v2-calls. */
  onSend?: () => void;
  /** Called when a sent request has an outcome (an answer or a failure): for logs and metrics. */
  onResult?: (observation: V2CallObservation) => void;
  /** Passed on to v2 as `X-Request-Id`, so one v1 call can be followed through both services. */
  requestId?: string;
  /** The v1 call's trace: each attempt sends a `traceparent` of it (and the `tracestate`), and ends its span where one is recorded. */
  trace?: V2Tracing;
  /** The v1 call's own-time clock: told of each wait here (an outbound token, the exchange, a retry's pause, a shared GET). */
  ownTime?: OwnTime;
}

/** One v2 request that was sent, and how it ended. */
export interface V2CallObservation {
  /** The route it went to: what metrics label it with, and what the declared-calls test checks. */
  route: V2Route;
  method: V2Method;
  /** The path as sent, relative to the v2 base, without the query string. */
  path: string;
  /** A compensating call (`priority: 'undo'`), sent by a rollback. */
  undo: boolean;
  /** The HTTP status, or 0 when no answer came (timeout, reset, refused). */
  status: number;
  ms: number;
}

/**
 * Admits outbound calls within the v2 limits (src/ratelimit provides the real one). `schedule`
 * runs `task` when a token of the call's v2 class is there, or rejects past its deadline.
 */
export interface GateOptions {
  deadlineMs?: number;
  priority?: 'undo';
  opensCall?: boolean;
  leaving?: Leaving;
  /** Run without taking the key's outbound tokens (an unproven pair's proof, V2Request.unmetered); every other rule of the gate still applies. */
  unmetered?: boolean;
}

export interface OutboundGate {
  schedule<T>(apiKey: string, method: string, path: string, task: () => Promise<T>, options?: GateOptions): Promise<T>;
  /** The service answered 429: hold this key's class back for `retryAfterMs`. */
  penalize(apiKey: string, method: string, path: string, retryAfterMs: number): void;
}

export const openGate: OutboundGate = {
  schedule: (_key, _method, _path, task) => task(),
  penalize: () => {},
};

export interface V2ClientOptions {
  /**
   * e.g. `http://127.0.0.1:8080/v2` or `https://api.example.com/v2`; or a function read at the first
   * call, for a URL known only once the server listens (the embedded sandbox on an ephemeral port).
   */
  baseUrl: string | (() => string);
  /** The bearer token of each call: the pair's own JWT, or the v2 app the credential map names. */
  authorizer: V2Authorizer;
  gate?: OutboundGate;
  /** Keep-alive connections to the service. */
  connections: number;
  /**
   * One v2 call's whole time, from when it is let through the outbound limiter: the wait for a
   * pooled connection, connecting, sending, the answer and its body, and any retry.
   */
  timeoutMs: number;
  /** Attempts for calls safe to repeat (GET) on network errors, 502/503/504 and 429. */
  maxAttempts: number;
  /** The largest v2 answer read (bytes); a larger one is an upstream error, read no further. */
  maxBodyBytes?: number;
}

/** Enough for the rollbacks in progress at once (each undoes its steps one at a time). */
const UNDO_CONNECTIONS = 16;
const SHUT_DOWN_IN_FLIGHT = 'v1gate is shutting down and stopped waiting for the v2 service.';

/** The longest Retry-After a GET waits out before trying again, rather than answering the v1 rate-limit error. */
const MAX_429_RETRY_WAIT_MS = 2_000;

export class V2Client {
  /** The pool and path prefix of the base URL, made when it is first known. */
  private upstream: Upstream | undefined;
  /** Undo calls (a rollback's) have a pool of their own, made on the first: it outlives a shutdown's abort() of the other. */
  private undoUpstream: Upstream | undefined;
  /** Past a shutdown's grace: calls (then undos) not yet sent are withdrawn instead. */
  private readonly stopped = { calls: false, undos: false };
  private readonly gate: OutboundGate;
  /** Identical GETs in flight at once are sent once (coalesce.ts). */
  private readonly coalescer = new GetCoalescer();

  constructor(private readonly options: V2ClientOptions) {
    if (typeof options.baseUrl === 'string') this.upstream = this.connect(options.baseUrl);
    this.gate = options.gate ?? openGate;
  }

  private connect(baseUrl: string, connections = this.options.connections): Upstream {
    const url = new URL(baseUrl);
    const { options } = this;
    const size = Math.min(connections, options.connections);
    const connectTimeoutMs = Math.min(options.timeoutMs, 5_000);
    const pool = new Pool(url.origin, {
      connections: size,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 600_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: { timeout: connectTimeoutMs },
    });
    return { pool, basePath: url.pathname.replace(/\/+$/, ''), connections: size, connectTimeoutMs, inFlight: 0 };
  }

  private get service(): Upstream {
    return (this.upstream ??= this.connect(this.baseUrl()));
  }

  private get undoService(): Upstream {
    return (this.undoUpstream ??= this.connect(this.baseUrl(), UNDO_CONNECTIONS));
  }

  private baseUrl(): string {
    return typeof this.options.baseUrl === 'string' ? this.options.baseUrl : this.options.baseUrl();
  }

  /**
   * Make one v2 call; resolves to the parsed JSON answer (undefined for 204). A GET identical to
   * one in flight waits for that one's outcome instead of being sent (only the sent one calls
   * `onSend`); a write first stops the key's GETs in flight from being joined, and again when done.
   */
  call<T>(credentials: Credentials, request: V2Request): Promise<T> {
    if (request.target.route.reads && !request.form) {
      let sent = false;
      const shared = this.coalescer.run(credentials, request.target.path, request.query, () => {
        sent = true;
        return this.attempts<T>(credentials, request);
      });
      // Joined to an identical GET in flight: all of it is a wait on that one's answer.
      return sent || !request.ownTime ? shared : request.ownTime.waitFor(shared);
    }
    this.coalescer.wrote(credentials.apiKey);
    const written = this.attempts<T>(credentials, request);
    const done = () => this.coalescer.wrote(credentials.apiKey);
    written.then(done, done);
    return written;
  }

  /**
   * The call's attempts, all within one budget: UPSTREAM_TIMEOUT_MS from when it is first sent
   * (its token in hand), whatever it then waits for in the connection pool, so a service that
   * hangs fails the call at the end of it. A retry is made only while the budget lasts, and waits
   * for its token no longer than that; one the limiter refuses is answered with the failure that
   * made it, never as a rate limit the upstream's failure caused.
   */
  private async attempts<T>(credentials: Credentials, request: V2Request): Promise<T> {
    const { route, path } = request.target;
    const attempts = route.reads ? this.options.maxAttempts : 1;
    const budget: CallBudget = { endsAt: undefined };
    /** The failure a retry follows (only a V2Error or UpstreamUnavailable is retried). */
    let failure: Error | undefined;
    const { ownTime } = request;
    for (let attempt = 1; ; attempt++) {
      let sent = false;
      const send = () => {
        sent = true;
        ownTime?.resume();
        return this.send<T>(credentials, request, attempt, budget);
      };
      // The wait for an outbound token is not v1gate's own time.
      ownTime?.wait();
      try {
        return await this.gate.schedule(
          credentials.apiKey,
          route.method,
          path,
          send,
          failure === undefined ? request : retryOptions(request, budget),
        );
      } catch (error) {
        if (!sent) ownTime?.resume();
        if (!sent && failure !== undefined) throw failure;
        const retryInMs = this.retryDelay(error, attempt, attempts);
        // A user's daily cap is that user's alone: pausing the account's calls for it would stall every other user.
        if (error instanceof V2Error && error.status === 429 && !isUserDailyLimit(error)) {
          this.gate.penalize(credentials.apiKey, route.method, path, error.retryAfterMs ?? 1000);
        }
        if (retryInMs === undefined || (budget.endsAt !== undefined && Date.now() + retryInMs >= budget.endsAt)) throw error;
        failure = error as Error;
        await (ownTime ? ownTime.waitFor(sleep(retryInMs)) : sleep(retryInMs));
      }
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.upstream?.pool.close(), this.undoUpstream?.pool.close()]);
  }

  /**
   * A shutdown past its grace: every call not yet sent is withdrawn (answered as not applied), and
   * every call in flight fails now, as a connection that failed (a write may have been applied).
   * Undo calls go on, on their own pool, so a rollback in progress can finish: until abortUndos.
   */
  async abort(): Promise<void> {
    this.stopped.calls = true;
    await this.upstream?.pool.destroy(new UpstreamUnavailable('unreachable', SHUT_DOWN_IN_FLIGHT, true));
  }

  /** The end of a shutdown's time for rollbacks: undos not yet sent are withdrawn, those in flight fail. */
  async abortUndos(): Promise<void> {
    this.stopped.undos = true;
    await this.undoUpstream?.pool.destroy(new UpstreamUnavailable('unreachable', SHUT_DOWN_IN_FLIGHT, true));
  }

  /** How long to wait before trying again, or undefined to give up. */
  private retryDelay(error: unknown, attempt: number, attempts: number): number | undefined {
    if (attempt >= attempts) {
      // A refused connection never reached the service: any method may try once more.
      return error instanceof UpstreamUnavailable && error.reason === 'unreachable' && !error.mayHaveApplied && attempt < 2
        ? 50
        : undefined;
    }
    if (error instanceof V2Error) {
      // A short Retry-After (a per-second limit) is worth waiting for; a long one (a daily quota, a
      // storm) answers now, and the class's pause (the gate's penalize) refuses the next ones early.
      if (error.status === 429) return (error.retryAfterMs ?? 1000) <= MAX_429_RETRY_WAIT_MS ? (error.retryAfterMs ?? 1000) : undefined;
      if (error.status === 502 || error.status === 503 || error.status === 504) return 100 * attempt;
      return undefined;
    }
    if (error instanceof UpstreamUnavailable) return 50 * attempt;
    return undefined;
  }

  private async send<T>(credentials: Credentials, request: V2Request, attempt: number, budget: CallBudget): Promise<T> {
    if (request.priority === 'undo' ? this.stopped.undos : this.stopped.calls) throw new CallWithdrawn(SHUTTING_DOWN_UNSENT);
    const endsAt = (budget.endsAt ??= Date.now() + this.options.timeoutMs);
    const { onResult } = request;
    const trace = request.trace?.attempt(request.target.route, attempt, request.priority === 'undo');
    const finish = trace?.finish;
    if (!onResult && !finish) return this.sendOnce<T>(credentials, request, trace, endsAt);
    const started = performance.now();
    let status = 0;
    try {
      return await this.sendOnce<T>(credentials, request, trace, endsAt, (s) => (status = s));
    } finally {
      finish?.(status);
      const { route, path } = request.target;
      onResult?.({ route, method: route.method, path, undo: request.priority === 'undo', status, ms: performance.now() - started });
    }
  }

  private async sendOnce<T>(
    credentials: Credentials,
    request: V2Request,
    trace: V2AttemptTrace | undefined,
    endsAt: number,
    onStatus?: (status: number) => void,
  ): Promise<T> {
    const { authorizer } = this.options;
    const token = await authorizer.tokenFor(credentials);
    try {
      return await this.sendWith<T>(token, request, trace, endsAt, onStatus);
    } catch (error) {
      // An access token v2 refused (revoked, or ended before its time) is replaced once, within the
      // same time budget. A 401 is answered before v2 acts on anything, so any call, a write too,
      // may be sent again.
      if (!(error instanceof V2Error && error.status === 401) || !authorizer.renewable(credentials, token)) throw error;
      return this.sendWith<T>(await authorizer.tokenFor(credentials), request, trace, endsAt, onStatus);
    }
  }

  private async sendWith<T>(
    token: string,
    request: V2Request,
    trace: V2AttemptTrace | undefined,
    endsAt: number,
    onStatus?: (status: number) => void,
  ): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    if (request.requestId !== undefined) headers['x-request-id'] = request.requestId;
    if (trace) {
      headers.traceparent = trace.traceparent;
      if (trace.tracestate !== undefined) headers.tracestate = trace.tracestate;
    }
    let body: string | Buffer | undefined;
    if (request.form) {
      // Serialise the multipart body (boundary included) with the platform's own encoder.
      const encoded = new Response(request.form);
      headers['content-type'] = encoded.headers.get('content-type') ?? 'multipart/form-data';
      body = Buffer.from(await encoded.arrayBuffer());
    } else if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    const { route, path } = request.target;
    const upstream = request.priority === 'undo' ? this.undoService : this.service;
    // Counted when it really leaves: not while its token is fetched (a token endpoint's failure sends nothing).
    request.onSend?.();
    const exchanged = exchange(
      upstream,
      { method: route.method, path: upstream.basePath + path + queryString(request.query), headers, body },
      endsAt,
      (answer) => {
        onStatus?.(answer.statusCode);
        return readCapped(answer.body, this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, !route.reads);
      },
      !route.reads,
    );
    // From the request's first byte to the answer's last, the time is v2's (and the network's).
    const response = await (request.ownTime ? request.ownTime.waitFor(exchanged) : exchanged);
    const text = response.text;
    if (response.statusCode >= 200 && response.statusCode < 300) {
      if (text === '') return undefined as T;
      let parsed: unknown;
      try {
        parsed = parseAnswer(text);
      } catch {
        throw new UpstreamUnavailable('bad-response', 'The v2 service answered with a body that is not JSON.', !route.reads);
      }
      // Every v2 answer is a JSON object: a `[]` or a string where one is due is no answer at all,
      // never a success with nothing in it.
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new UpstreamUnavailable('bad-response', 'The v2 service answered with something that is not a v2 answer.', !route.reads);
      }
      return parsed as T;
    }
    throw toV2Failure(route, response.statusCode, text, response.headers['retry-after']);
  }
}

/** The v2 service's connection pool, and how many of its requests undici holds (sent, or waiting for a connection). */
interface Upstream {
  pool: Pool;
  basePath: string;
  connections: number;
  connectTimeoutMs: number;
  inFlight: number;
}

/**
 * One request through the pool, its answer's body read by `read`, all by `endsAt`: the wait for a
 * connection, the request, the answer and its body. When time is up the call fails at once, and an
 * answer that comes after all is let go unread, freeing its connection.
 *
 * A request that may wait for a connection carries an abort signal, so that undici drops it unsent
 * when its time is up (undici settles an aborted request only once a connection takes it up: the
 * call does not wait for that). One that a free connection, or a new one made within its time, takes
 * at once goes without: it is sent before its time is up, and its connection is freed by undici's
 * own headers and body timeouts, or here when its answer comes late. A signal on every request
 * cost 7.5% of a one-call read's CPU (`npm run bench:builds`).
 */
function exchange(
  upstream: Upstream,
  options: Omit<Dispatcher.RequestOptions, 'signal'>,
  endsAt: number,
  read: (answer: Dispatcher.ResponseData) => Promise<string>,
  mayHaveApplied: boolean,
): Promise<{ statusCode: number; headers: Dispatcher.ResponseData['headers']; text: string }> {
  const leftMs = Math.max(0, endsAt - Date.now());
  const mayWait = upstream.inFlight >= upstream.connections || leftMs < upstream.connectTimeoutMs;
  const deadline = mayWait ? new Deadline() : undefined;
  upstream.inFlight++;
  return new Promise((resolve, reject) => {
    let settled = false;
    let answer: Dispatcher.ResponseData | undefined;
    const timer = setTimeout(() => {
      settled = true;
      const expired = new UpstreamUnavailable('timeout', 'The v2 service did not answer in time.', mayHaveApplied);
      deadline?.expire(expired);
      answer?.body.destroy();
      reject(expired);
    }, leftMs);
    const done = () => upstream.inFlight--;
    upstream.pool
      .request(deadline ? { ...options, signal: deadline } : options)
      .then((received) => {
        if (settled) {
          received.body.destroy();
          return undefined;
        }
        answer = received;
        return read(received).then((text) => ({ statusCode: received.statusCode, headers: received.headers, text }));
      })
      .then(
        (exchanged) => {
          done();
          if (settled || exchanged === undefined) return;
          settled = true;
          clearTimeout(timer);
          resolve(exchanged);
        },
        (error: unknown) => {
          done();
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reject(toUnavailable(error));
        },
      );
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

/** When one v2 call's time is up (epoch ms): set when it is first sent, shared by its attempts. */
interface CallBudget {
  endsAt: number | undefined;
}

/** A retry waits for its token no longer than the call's budget (nor the v1 call's deadline). */
function retryOptions(request: V2Request, budget: CallBudget): GateOptions {
  const deadlineMs = Math.min(request.deadlineMs ?? Infinity, budget.endsAt ?? Infinity);
  return { ...request, deadlineMs: deadlineMs === Infinity ? undefined : deadlineMs };
}

/** 8 MiB: the largest v2 answer (a 300-item page of full meetings) is a small fraction of it. */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * The answer's text, reading no more than `maxBytes`: a huge answer must not take the process's
 * memory. Read from the stream's events rather than `for await`: its async iterator (a generator, a
 * promise per chunk, an end-of-stream watcher) cost 12.6 µs of CPU per /meeting/create under load,
 * this 2.3 µs (perf's on-CPU samples of the gateway, attributed to their JS frames).
 */
function readCapped(body: Readable, maxBytes: number, mayHaveApplied: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        fail(new UpstreamUnavailable('bad-response', `The v2 service answered more than ${maxBytes} bytes.`, mayHaveApplied));
        body.destroy();
        return;
      }
      chunks.push(chunk);
    });
    body.once('end', () => {
      settled = true;
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    });
    body.once('error', (error: unknown) => fail(toUnavailable(error)));
    // Closed with neither 'end' nor 'error': what `for await` reported as a premature close, never a wait forever.
    body.once('close', () => {
      if (!settled) fail(toUnavailable(Object.assign(new Error('The v2 answer ended early.'), { code: 'ERR_STREAM_PREMATURE_CLOSE' })));
    });
  });
}

function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * A v2 error status → the typed failure. No raw HTTP status ever becomes a v1 code: a 5xx (the
 * service failed, maybe after applying a write) and a 4xx without a v2 error body (a proxy's page,
 * a 431 from a load balancer) are "unavailable", saying whether a write may have happened; the
 * statuses v1 has its own answers for (401, 403, 429) and v2's coded errors stay V2Errors.
 */
function toV2Failure(
  route: V2Route,
  status: number,
  text: string,
  retryAfter: string | string[] | undefined,
): V2Error | UpstreamUnavailable {
  const error = toV2Error(status, text, retryAfter);
  // The failure table's own reading of a status decides which kind of error this is.
  const kind = v2FailureKind(status, error.hasV2Code, error.fieldErrors.length > 0);
  if (kind === 'v2-failed') return new UpstreamUnavailable('failed', `The v2 service failed (HTTP ${status}).`, !route.reads);
  if (kind === 'v2-refused-uncoded')
    return new UpstreamUnavailable('refused', `The v2 service answered HTTP ${status} without a v2 error.`, false);
  return error;
}

function toV2Error(status: number, text: string, retryAfter: string | string[] | undefined): V2Error & { hasV2Code: boolean } {
  let body: { code?: unknown; message?: unknown; errors?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Proxies in front of the service may answer HTML; keep the status, invent nothing.
  }
  const code = typeof body.code === 'number' ? body.code : status;
  const message = typeof body.message === 'string' ? body.message : `The v2 service answered HTTP ${status}.`;
  const fieldErrors = Array.isArray(body.errors)
    ? (body.errors as unknown[]).filter((e): e is V2FieldError => {
        const item = e as Partial<V2FieldError> | null;
        return typeof item?.field === 'string' && typeof item?.message === 'string';
      })
    : [];
  return Object.assign(new V2Error(status, code, message, fieldErrors, parseRetryAfter(retryAfter)), {
    hasV2Code: typeof body.code === 'number',
  });
}

function toUnavailable(error: unknown): UpstreamUnavailable {
  if (error instanceof UpstreamUnavailable) return error;
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return new UpstreamUnavailable('timeout', 'The v2 service did not answer in time.', true);
  }
  if (error instanceof undiciErrors.ConnectTimeoutError) {
    return new UpstreamUnavailable('timeout', 'Could not connect to the v2 service in time.', false);
  }
  const code = (error as { code?: string }).code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new UpstreamUnavailable('unreachable', 'The v2 service could not be reached.', false);
  }
  return new UpstreamUnavailable('unreachable', `The v2 service connection failed (${code ?? 'unknown error'}).`, true);
}
