import { setTimeout as sleep } from 'node:timers/promises';
import { gatewayUserAgent } from '../shared/package-version.js';
import type { Credentials } from './credentials.js';
import { GetCoalescer, joined, requestKey } from './coalesce.js';
import { CallWithdrawn, SHUTTING_DOWN_UNSENT, UpstreamUnavailable, V2Error } from './errors.js';
import type { V2Authorizer } from './auth/authorizer.js';
import type { Grant } from './auth/oauth-tokens.js';
import { DEFAULT_MAX_BODY_BYTES, connectUpstream, dispatchExchange, queryString, type Exchanged, type Upstream } from './exchange.js';
import { answerOf, observe } from './attempt-end.js';
import { openGate, type OutboundGate, type V2Request } from './v2-request.js';
import { MAX_429_RETRY_WAIT_MS, retryDelay } from './retry-delays.js';
import { attemptOf, Call, outcomeOf, retryOptions, type AttemptEnds } from './v2-call.js';

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
/** What the open gate asks to be told of an attempt it admitted: nothing. */
const admittedOpen = (): void => {};

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
        const waited = joined<T>(shared, () => this.started<T>(this.callOf(credentials, request, search)));
        // Joined to an identical GET in flight: all of it is a wait on that one's answer.
        return request.ownTime ? request.ownTime.waitFor(waited) : waited;
      }
      const call = this.callOf(credentials, request, search);
      // Offered with its outcome before its attempts start, so that their end (`finish`) finds it to forget.
      call.key = key;
      const outcome = outcomeOf<T>(call);
      this.coalescer.offer(credentials.apiKey, key, call);
      this.attempt(call);
      return outcome;
    }
    this.coalescer.wrote(credentials.apiKey);
    return this.started<T>(this.callOf(credentials, request, search));
  }

  private callOf(credentials: Credentials, request: V2Request, search: string): Call {
    return new Call(this.ends, credentials, request, search, this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  }

  /** The call's promise, its first attempt begun. */
  private started<T>(call: Call): Promise<T> {
    const outcome = outcomeOf<T>(call);
    this.attempt(call);
    return outcome;
  }

  /**
   * The call's attempts, all within one budget: UPSTREAM_TIMEOUT_MS from when it is first sent
   * (its token in hand), whatever it then waits for in the connection pool, so a service that
   * hangs fails the call at the end of it. A retry is made only while the budget lasts, and waits
   * for its token no longer than that; one the limiter refuses is answered with the failure that
   * made it, never as a rate limit the upstream's failure caused.
   *
   * An attempt the gate admits at once (no limits, or a token at hand with nobody waiting before
   * it) is sent now, and its end is told to the call directly (`deliver`): no promise but the call's
   * own. Any other goes through the gate's `schedule`, whose promise says when it was let through
   * and how it ended. `test/upstream/gate-paths.test.ts` holds the two to the same outcomes.
   */
  private attempt(call: Call): void {
    const { credentials, request } = call;
    call.attempt++;
    call.sent = false;
    const options = call.failure === undefined ? request : retryOptions(call);
    try {
      const admitted = this.gate === openGate ? admittedOpen : this.gate.admitNow?.(credentials, request.target, options);
      if (admitted !== undefined) {
        call.sent = true;
        call.viaGate = false;
        call.admitted = admitted;
        return this.send(call);
      }
      // The wait for an outbound token is not v1gate's own time.
      request.ownTime?.wait();
      call.gateWait = true;
      call.viaGate = true;
      this.gate
        .schedule(credentials, request.target, () => this.scheduled(call), options)
        .then(
          (value) => this.finish(call, true, value),
          (error: unknown) => this.attemptFailed(call, error),
        );
    } catch (error) {
      // Thrown before an exchange was made (the gate's, a tracer's): the attempt is over.
      call.open = false;
      this.attemptFailed(call, error);
    }
  }

  /** The attempt the gate lets through: sent, its promise (settled by `deliver`) handed back to the gate. */
  private scheduled<T>(call: Call): Promise<T> {
    call.sent = true;
    if (call.gateWait) {
      call.gateWait = false;
      call.request.ownTime?.resume();
    }
    const attempt = attemptOf<T>(call);
    this.send(call);
    return attempt;
  }

  /**
   * The attempt failed (or was refused by the gate): sent again after the failure's delay while
   * the call's time lasts, else the call fails. A retry the gate refused fails with the failure
   * it followed. A 429 holds back the budget the call spends first.
   */
  private attemptFailed(call: Call, error: unknown): void {
    const { credentials, request } = call;
    let retryInMs: number | undefined;
    try {
      if (call.gateWait) {
        call.gateWait = false;
        request.ownTime?.resume();
      }
      if (!call.sent && call.failure !== undefined) return this.finish(call, false, call.failure);
      retryInMs = retryDelay(error, call.attempt, request.target.route.reads ? this.options.maxAttempts : 1);
      if (error instanceof V2Error && error.status === 429) this.holdBack(credentials, request, error);
    } catch (thrown) {
      return this.finish(call, false, thrown);
    }
    if (retryInMs === undefined || (call.endsAt !== undefined && Date.now() + retryInMs >= call.endsAt))
      return this.finish(call, false, error);
    call.failure = error as Error;
    const pause = sleep(retryInMs);
    void (request.ownTime ? request.ownTime.waitFor(pause) : pause).then(() => this.attempt(call));
  }

  /** The call is over: forgotten by the coalescer (`over`), then its promise settled. */
  private finish(call: Call, answered: boolean, outcome: unknown): void {
    this.over(call);
    if (answered) call.fulfil(outcome);
    else call.fail(outcome);
  }

  /**
   * The call is over, with whatever outcome: a GET offered to identical ones is forgotten (no later
   * one joins it), a write stops the key's GETs sent before it from being joined, once more now it is done.
   */
  private over(call: Call): void {
    if (call.key !== undefined) this.coalescer.forget(call.credentials.apiKey, call.key, call);
    else if (call.mayHaveApplied || call.request.form) this.coalescer.wrote(call.credentials.apiKey);
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
   * once more with a new one. Its end comes from the exchange's own callbacks (dispatchExchange)
   * to `settle`: no async function, no promise per exchange, and a token held is taken at once.
   */
  private send(call: Call): void {
    const { request } = call;
    call.open = true;
    try {
      if (request.priority === 'undo' ? this.stopped.undos : this.stopped.calls) throw new CallWithdrawn(SHUTTING_DOWN_UNSENT);
      call.endsAt ??= Date.now() + this.options.timeoutMs;
      const trace = request.trace?.attempt(request.target.route, call.attempt, request.priority === 'undo');
      call.trace = trace;
      call.started = request.onResult || trace?.finish ? performance.now() : 0;
      call.status = 0;
      call.trackingId = undefined;
      call.limitKind = undefined;
      call.renewed = false;
      this.granted(call);
    } catch (error) {
      // Thrown before its exchange began (a withdrawal, a tracer's throw): the attempt ends unobserved.
      if (call.open) {
        call.open = false;
        this.deliver(call, false, error);
      }
    }
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
      value = answerOf(call, response, this.gate);
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
    if (!call.open) return;
    call.open = false;
    try {
      observe(call);
    } catch (thrown) {
      return this.deliver(call, false, thrown);
    }
    this.deliver(call, answered, outcome);
  }

  /**
   * The attempt's end, to whoever waits on it: the gate, through the attempt's promise, when the gate
   * scheduled it; else the gate's `admitted` callback, then the call's next step (its end, or a retry).
   */
  private deliver(call: Call, answered: boolean, outcome: unknown): void {
    if (call.viaGate) {
      if (answered) call.resolve(outcome);
      else call.reject(outcome);
      return;
    }
    const { admitted } = call;
    call.admitted = undefined;
    admitted?.();
    if (answered) this.finish(call, true, outcome);
    else this.attemptFailed(call, outcome);
  }
}
