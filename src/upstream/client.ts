import { setTimeout as sleep } from 'node:timers/promises';
import { isUserDailyLimit } from '../ratelimit/user-daily-limit.js';
import type { V2AttemptTrace } from '../shared/trace-context.js';
import { parseAnswer } from './answer-copies.js';
import type { Credentials } from './credentials.js';
import { GetCoalescer } from './coalesce.js';
import { CallWithdrawn, SHUTTING_DOWN_UNSENT, UpstreamUnavailable, V2Error } from './errors.js';
import type { V2Authorizer } from './auth/authorizer.js';
import type { Grant } from './auth/oauth-tokens.js';
import { DEFAULT_MAX_BODY_BYTES, connectUpstream, exchange, qpsRemaining, queryString, readCapped, type Upstream } from './exchange.js';
import { toV2Failure } from './v2-failure.js';
import { openGate, type GateOptions, type OutboundGate, type V2Request } from './v2-request.js';

/**
 * The v2 client: one keep-alive connection pool to the v2 service, a fresh-enough JWT per call,
 * timeouts, the outbound rate limit, safe retries, and every failure turned into a typed error.
 */

// What callers of the client read with it, declared beside it (v2-request.ts).
export type { Credentials, Query } from './credentials.js';
export type { V2Request, V2CallObservation, GateOptions, OutboundGate } from './v2-request.js';
export { openGate } from './v2-request.js';

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
  /**
   * Where an OAuth token's calls go when its answer names an `api_url` (its account's data region):
   * the base URL to send them to, or undefined for the configured one (auth/api-url.ts,
   * `regionalBase`, with V2_FOLLOW_API_URL). Unset: always the configured one.
   */
  apiUrlBase?: (configuredBase: string, apiUrl: string) => string | undefined;
}

/** More API hosts than the service has data regions: `api_url`s past these are not followed. */
const MAX_REGIONS = 32;

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
  /** Each `api_url` seen, and the base it sends to (null: the configured one). */
  private readonly regionalBases = new Map<string, string | null>();
  /** The pools of the regions calls went to, by base URL: the calls' and the undos', as the configured service's two. */
  private readonly regions = { calls: new Map<string, Upstream>(), undos: new Map<string, Upstream>() };

  constructor(private readonly options: V2ClientOptions) {
    if (typeof options.baseUrl === 'string') this.upstream = this.connect(options.baseUrl);
    this.gate = options.gate ?? openGate;
  }

  private connect(baseUrl: string, connections = this.options.connections): Upstream {
    return connectUpstream(baseUrl, Math.min(connections, this.options.connections), this.options.timeoutMs);
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
   * The pool a call with this token goes through: the configured service's, or, when the token's
   * answer named another host of the same service (its account's data region, auth/api-url.ts),
   * that host's. One pool per region and kind, made on its first call; the regions are as many as
   * the API hosts the credential map's accounts live on, and at most MAX_REGIONS are kept.
   */
  private upstreamOf(grant: Grant, undo: boolean): Upstream {
    const configured = undo ? this.undoService : this.service;
    const { apiUrlBase } = this.options;
    if (grant.apiUrl === undefined || !apiUrlBase) return configured;
    let base = this.regionalBases.get(grant.apiUrl);
    if (base === undefined) {
      if (this.regionalBases.size >= MAX_REGIONS) return configured;
      base = apiUrlBase(this.baseUrl(), grant.apiUrl) ?? null;
      this.regionalBases.set(grant.apiUrl, base);
    }
    if (base === null) return configured;
    const pools = undo ? this.regions.undos : this.regions.calls;
    let regional = pools.get(base);
    if (!regional) {
      regional = this.connect(base, undo ? UNDO_CONNECTIONS : this.options.connections);
      pools.set(base, regional);
    }
    return regional;
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
    const { route } = request.target;
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
        return await this.gate.schedule(credentials, request.target, send, failure === undefined ? request : retryOptions(request, budget));
      } catch (error) {
        if (!sent) ownTime?.resume();
        if (!sent && failure !== undefined) throw failure;
        const retryInMs = this.retryDelay(error, attempt, attempts);
        // A user's daily cap is that user's alone: pausing the account's calls for it would stall every other user.
        if (error instanceof V2Error && error.status === 429 && !isUserDailyLimit(error)) {
          this.gate.penalize(credentials, request.target, error.retryAfterMs ?? 1000);
        }
        if (retryInMs === undefined || (budget.endsAt !== undefined && Date.now() + retryInMs >= budget.endsAt)) throw error;
        failure = error as Error;
        await (ownTime ? ownTime.waitFor(sleep(retryInMs)) : sleep(retryInMs));
      }
    }
  }

  async close(): Promise<void> {
    await Promise.all([
      this.upstream?.pool.close(),
      this.undoUpstream?.pool.close(),
      ...[...this.regions.calls.values(), ...this.regions.undos.values()].map((r) => r.pool.close()),
    ]);
  }

  /**
   * A shutdown past its grace: every call not yet sent is withdrawn (answered as not applied), and
   * every call in flight fails now, as a connection that failed (a write may have been applied).
   * Undo calls go on, on their own pool, so a rollback in progress can finish: until abortUndos.
   */
  async abort(): Promise<void> {
    this.stopped.calls = true;
    await this.destroyPools(this.upstream, this.regions.calls);
  }

  /** The end of a shutdown's time for rollbacks: undos not yet sent are withdrawn, those in flight fail. */
  async abortUndos(): Promise<void> {
    this.stopped.undos = true;
    await this.destroyPools(this.undoUpstream, this.regions.undos);
  }

  /** Fails every request of the configured pool and of the regions' pools of the same kind (calls, or undos). */
  private async destroyPools(configured: Upstream | undefined, regional: ReadonlyMap<string, Upstream>): Promise<void> {
    const pools = [...(configured ? [configured] : []), ...regional.values()].map((upstream) => upstream.pool);
    await Promise.all(pools.map((pool) => pool.destroy(new UpstreamUnavailable('unreachable', SHUT_DOWN_IN_FLIGHT, true))));
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
    const grant = await authorizer.grantFor(credentials);
    try {
      return await this.sendWith<T>(credentials, grant, request, trace, endsAt, onStatus);
    } catch (error) {
      // An access token v2 refused (revoked, or ended before its time) is replaced once, within the
      // same time budget. A 401 is answered before v2 acts on anything, so any call, a write too,
      // may be sent again.
      if (!(error instanceof V2Error && error.status === 401) || !authorizer.renewable(credentials, grant.token)) throw error;
      return this.sendWith<T>(credentials, await authorizer.grantFor(credentials), request, trace, endsAt, onStatus);
    }
  }

  private async sendWith<T>(
    credentials: Credentials,
    grant: Grant,
    request: V2Request,
    trace: V2AttemptTrace | undefined,
    endsAt: number,
    onStatus?: (status: number) => void,
  ): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${grant.token}`, accept: 'application/json' };
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
    const upstream = this.upstreamOf(grant, request.priority === 'undo');
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
    const remaining = qpsRemaining(response.headers);
    if (remaining !== undefined) this.gate.remaining?.(credentials, request.target, remaining);
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

/** When one v2 call's time is up (epoch ms): set when it is first sent, shared by its attempts. */
interface CallBudget {
  endsAt: number | undefined;
}

/** A retry waits for its token no longer than the call's budget (nor the v1 call's deadline). */
function retryOptions(request: V2Request, budget: CallBudget): GateOptions {
  const deadlineMs = Math.min(request.deadlineMs ?? Infinity, budget.endsAt ?? Infinity);
  return { ...request, deadlineMs: deadlineMs === Infinity ? undefined : deadlineMs };
}
