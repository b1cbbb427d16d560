import { setTimeout as sleep } from 'node:timers/promises';
import { gatewayUserAgent } from '../shared/package-version.js';
import type { Credentials } from './credentials.js';
import { GetCoalescer, joined, requestKey } from './coalesce.js';
import { CallWithdrawn, SHUTTING_DOWN_UNSENT, UpstreamUnavailable, V2Error } from './errors.js';
import type { V2Authorizer } from './auth/authorizer.js';
import type { Grant } from './auth/oauth-tokens.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  connectUpstream,
  dispatchExchange,
  qpsRemaining,
  queryString,
  type Exchanged,
  type Upstream,
} from './exchange.js';
import { toV2Failure, trackingIdOf } from './v2-failure.js';
import { openGate, type OutboundGate, type V2Request } from './v2-request.js';
import { MAX_429_RETRY_WAIT_MS, retryDelay } from './retry-delays.js';
import { attemptOf, Call, retryOptions, type AttemptEnds } from './v2-call.js';

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
  /** Where each call's exchanges end (Call.answered, Call.failed): made once, not per call. */
  private readonly ends: AttemptEnds = {
    answered: (call, exchanged) => this.answered(call, exchanged),
    failed: (call, error) => this.failed(call, error),
  };

  constructor(private readonly options: V2ClientOptions) {
    if (typeof options.baseUrl === 'string') this.upstream = this.connect(options.baseUrl);
    this.gate = options.gate ?? openGate;
  }

  /**
   * The token the calls of `credentials` would be made with, and the scopes its answer listed: the
   * one held, or fetched once for every caller. A v1 call reads its scopes before its first v2 call.
   */
  grantOf(credentials: Credentials): Grant | Promise<Grant> {
    return this.options.authorizer.grantFor(credentials);
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
    const search = queryString(request.query);
    if (request.target.route.reads && !request.form) {
      const key = requestKey(credentials, request.target.path, request.query, search);
      const shared = this.coalescer.find(credentials.apiKey, key);
      if (shared) {
        const waited = joined<T>(shared, () => this.attempts<T>(this.callOf(credentials, request, search)));
        // Joined to an identical GET in flight: all of it is a wait on that one's answer.
        return request.ownTime ? request.ownTime.waitFor(waited) : waited;
      }
      const call = this.callOf(credentials, request, search);
      // Offered before its attempts start, so that their end (attempts' `finally`) finds it to forget.
      call.key = key;
      this.coalescer.offer(credentials.apiKey, key, call);
      const outcome = this.attempts<T>(call);
      call.outcome = outcome;
      return outcome;
    }
    this.coalescer.wrote(credentials.apiKey);
    return this.attempts<T>(this.callOf(credentials, request, search));
  }

  private callOf(credentials: Credentials, request: V2Request, search: string): Call {
    return new Call(this.ends, credentials, request, search, this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  }

  /**
   * The call's attempts, all within one budget: UPSTREAM_TIMEOUT_MS from when it is first sent
   * (its token in hand), whatever it then waits for in the connection pool, so a service that
   * hangs fails the call at the end of it. A retry is made only while the budget lasts, and waits
   * for its token no longer than that; one the limiter refuses is answered with the failure that
   * made it, never as a rate limit the upstream's failure caused.
   */
  /**
   * The call is over, with whatever outcome: a GET offered to identical ones is forgotten (no later
   * one joins it), a write stops the key's GETs sent before it from being joined, once more now it is done.
   */
  private over(call: Call): void {
    if (call.key !== undefined) this.coalescer.forget(call.credentials.apiKey, call.key, call);
    else if (call.mayHaveApplied || call.request.form) this.coalescer.wrote(call.credentials.apiKey);
  }

  private async attempts<T>(call: Call): Promise<T> {
    const { credentials, request } = call;
    const attempts = request.target.route.reads ? this.options.maxAttempts : 1;
    /** The failure a retry follows (only a V2Error or UpstreamUnavailable is retried). */
    let failure: Error | undefined;
    const { ownTime } = request;
    // One task for all the attempts: the one it sends is the call's current one.
    const send = () => {
      call.sent = true;
      ownTime?.resume();
      return this.send<T>(call);
    };
    try {
      for (;;) {
        call.attempt++;
        call.sent = false;
        // The wait for an outbound token is not v1gate's own time.
        ownTime?.wait();
        try {
          return await this.gate.schedule(credentials, request.target, send, failure === undefined ? request : retryOptions(call));
        } catch (error) {
          if (!call.sent) ownTime?.resume();
          if (!call.sent && failure !== undefined) throw failure;
          const retryInMs = retryDelay(error, call.attempt, attempts);
          if (error instanceof V2Error && error.status === 429) this.holdBack(credentials, request, error);
          if (retryInMs === undefined || (call.endsAt !== undefined && Date.now() + retryInMs >= call.endsAt)) throw error;
          failure = error as Error;
          await (ownTime ? ownTime.waitFor(sleep(retryInMs)) : sleep(retryInMs));
        }
      }
    } finally {
      this.over(call);
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

  /**
   * What a 429 holds back, by whose limit it met (src/ratelimit/limit-kind.ts): the account's
   * category, in every process, only for the account's own limit. A user's daily cap, a resource's
   * limit and a concurrency refusal are one user's or one resource's: pausing the category for
   * them would stall every other user. A text not known pauses the category only for a short
   * Retry-After of its own (a per-second limit's), never past it, and nothing without one.
   */
  private holdBack(credentials: Credentials, request: V2Request, error: V2Error): void {
    const kind = error.limitKind;
    if (kind === 'account') this.gate.penalize(credentials, request.target, error.retryAfterMs ?? 1000);
    else if (kind === 'unknown' && error.retryAfterMs !== undefined && error.retryAfterMs <= MAX_429_RETRY_WAIT_MS) {
      this.gate.penalize(credentials, request.target, error.retryAfterMs);
    }
  }

  /**
   * One attempt: its token, the exchange, and on a 401 of a token that may be renewed, the same
   * once more with a new one. One promise per attempt, settled from the exchange's own callbacks
   * (dispatchExchange): no async function, no promise per exchange, and a token held is taken at once.
   */
  private send<T>(call: Call): Promise<T> {
    const { request } = call;
    if (request.priority === 'undo' ? this.stopped.undos : this.stopped.calls)
      return Promise.reject(new CallWithdrawn(SHUTTING_DOWN_UNSENT));
    call.endsAt ??= Date.now() + this.options.timeoutMs;
    const trace = request.trace?.attempt(request.target.route, call.attempt, request.priority === 'undo');
    call.trace = trace;
    call.started = request.onResult || trace?.finish ? performance.now() : 0;
    call.status = 0;
    call.trackingId = undefined;
    call.limitKind = undefined;
    call.renewed = false;
    const attempt = attemptOf<T>(call);
    this.granted(call);
    return attempt;
  }

  /** The attempt's token, at once when it is held, then its exchange; a failure to get one ends the attempt. */
  private granted(call: Call): void {
    let granted: Grant | Promise<Grant>;
    try {
      granted = this.options.authorizer.grantFor(call.credentials);
    } catch (error) {
      return this.ended(call, error);
    }
    if (granted instanceof Promise)
      granted.then(
        (grant) => this.sendWith(call, grant),
        (error: unknown) => this.ended(call, error),
      );
    else this.sendWith(call, granted);
  }

  private sendWith(call: Call, grant: Grant): void {
    const { request } = call;
    call.grant = grant;
    if (request.form) {
      // Serialise the multipart body (boundary included) with the platform's own encoder.
      const encoded = new Response(request.form);
      const type = encoded.headers.get('content-type') ?? 'multipart/form-data';
      encoded.arrayBuffer().then(
        (bytes) => this.exchangeOf(call, grant, Buffer.from(bytes), type),
        (error: unknown) => this.ended(call, error),
      );
      return;
    }
    let body: string | undefined;
    try {
      body = request.body === undefined ? undefined : JSON.stringify(request.body);
    } catch (error) {
      return this.ended(call, error);
    }
    this.exchangeOf(call, grant, body, 'application/json');
  }

  private exchangeOf(call: Call, grant: Grant, body: string | Buffer | undefined, contentType: string): void {
    const { request, trace } = call;
    // A flat list, as undici keeps them: an object's keys would be listed on every call.
    const headers = ['authorization', grant.authorization, 'accept', 'application/json', 'user-agent', gatewayUserAgent()];
    if (body !== undefined) headers.push('content-type', contentType);
    if (request.requestId !== undefined) headers.push('x-request-id', request.requestId);
    if (trace) {
      headers.push('traceparent', trace.traceparent);
      if (trace.tracestate !== undefined) headers.push('tracestate', trace.tracestate);
    }
    const { route, path } = request.target;
    let upstream: Upstream;
    try {
      upstream = this.upstreamOf(grant, request.priority === 'undo');
    } catch (error) {
      return this.ended(call, error);
    }
    // Counted when it really leaves: not while its token is fetched (a token endpoint's failure sends nothing).
    request.onSend?.();
    // From the request's first byte to the answer's last, the time is v2's (and the network's): the
    // exchange tells the call's own-time clock (`call.ownTime`), then the call (its `answered` or `failed`).
    const options = { method: route.method, path: upstream.basePath + path + call.search, headers, body };
    dispatchExchange(upstream, options, call.endsAt ?? Date.now() + this.options.timeoutMs, call, call);
  }

  /** The exchange's answer came: the attempt's value, or its failure (a 401 may send it once more). */
  private answered(call: Call, response: Exchanged): void {
    let value: unknown;
    try {
      value = this.answerOf(call, response);
    } catch (error) {
      return this.failed(call, error);
    }
    this.settle(call, true, value);
  }

  /**
   * The exchange failed. An access token v2 refused (revoked, or ended before its time) is replaced
   * once, within the same time budget. A 401 is answered before v2 acts on anything, so any call,
   * a write too, may be sent again.
   */
  private failed(call: Call, error: unknown): void {
    const grant = call.grant;
    if (!call.renewed && grant && error instanceof V2Error && error.status === 401) {
      let renewable: boolean;
      try {
        renewable = this.options.authorizer.renewable(call.credentials, grant.token);
      } catch (thrown) {
        return this.ended(call, thrown);
      }
      if (renewable) {
        call.renewed = true;
        return this.granted(call);
      }
    }
    this.ended(call, error);
  }

  /** The attempt failed: told to its trace and observers, then to whoever waits on it. */
  private ended(call: Call, error: unknown): void {
    this.settle(call, false, error);
  }

  /** The attempt's outcome, after its observation; an observer's throw fails the attempt, as a `finally` that throws would. */
  private settle(call: Call, answered: boolean, outcome: unknown): void {
    try {
      this.observe(call);
    } catch (thrown) {
      return call.reject(thrown);
    }
    if (answered) call.resolve(outcome);
    else call.reject(outcome);
  }

  /** The attempt's end, told to its span and to `onResult` (logs, metrics) before its outcome. */
  private observe(call: Call): void {
    const { request, trace } = call;
    const { onResult } = request;
    const finish = trace?.finish;
    if (!onResult && !finish) return;
    finish?.(call.status);
    const { route, path } = request.target;
    const ms = performance.now() - call.started;
    const { trackingId, limitKind } = call;
    onResult?.({
      route,
      method: route.method,
      path,
      ...(request.query === undefined ? {} : { query: request.query }),
      undo: request.priority === 'undo',
      status: call.status,
      ms,
      trackingId,
      limitKind,
    });
  }

  /** The exchange's answer: a v2 JSON object, or the typed failure its status and body make. */
  private answerOf<T>(call: Call, response: Exchanged): T {
    const { credentials, request } = call;
    const { route } = request.target;
    const remaining = qpsRemaining(response);
    if (remaining !== undefined) this.gate.remaining?.(credentials, request.target, remaining);
    const { statusCode, text } = response;
    call.trackingId = trackingIdOf(response.header('x-zm-trackingid'));
    if (statusCode < 200 || statusCode >= 300) {
      const failure = toV2Failure(route, statusCode, text, response.headers);
      if (failure instanceof V2Error) call.limitKind = failure.limitKind;
      throw failure;
    }
    if (text === '') return undefined as T;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new UpstreamUnavailable('bad-response', 'The v2 service answered with a body that is not JSON.', !route.reads);
    }
    // Every v2 answer is a JSON object: a `[]` or a string where one is due is no answer at all,
    // never a success with nothing in it.
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new UpstreamUnavailable('bad-response', 'The v2 service answered with something that is not a v2 answer.', !route.reads);
    }
    // Kept for the copies of the GETs that joined this one (coalesce.ts); a plain field, read only by them.
    call.text = text;
    return parsed as T;
  }
}
