import type { Leaving } from '../shared/leaving.js';
import type { V2Method, V2Route, V2Target } from '../v2-contract/v2-route.js';
import type { OwnTime } from '../shared/own-time.js';
import type { V2Tracing } from '../shared/trace-context.js';
import type { Credentials, Query } from './credentials.js';
import type { V2LimitKind } from '../ratelimit/limit-kind.js';

/** What a v2 call is asked with, what it reports, and the outbound gate it passes (src/upstream/client.ts sends it). */

export interface V2Request {
  /** The route and its path (`V2.users.get.at(id)`, src/v2-contract/v2-routes.ts): the method is the route's. */
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
  /** The query string's fields as sent (the request's `query`), for the call recorder: what a rewrite against v2 sends. */
  query?: Readonly<Query>;
  /** A compensating call (`priority: 'undo'`), sent by a rollback. */
  undo: boolean;
  /** The HTTP status, or 0 when no answer came (timeout, reset, refused). */
  status: number;
  ms: number;
  /** The answer's `x-zm-trackingid`: the id the service's support asks for. */
  trackingId?: string;
  /** Whose limit a 429 met (src/ratelimit/limit-kind.ts). */
  limitKind?: V2LimitKind;
}

/**
 * Admits outbound calls within the v2 limits (src/ratelimit provides the real one). `schedule`
 * runs `task` when a token of the budget the call spends (its v2 account's, of its route's
 * category) is there, or rejects past its deadline.
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
  schedule<T>(credentials: Credentials, target: V2Target, task: () => Promise<T>, options?: GateOptions): Promise<T>;
  /**
   * The way through without a promise, for a call the gate admits now (its token taken at once,
   * nobody waiting before it): what to call when its attempt ends, or undefined when nothing was
   * taken and the call must go through `schedule`. Every rule `schedule` applies holds here too.
   * A gate made by spreading another's members must leave this out (or say it itself): else
   * the fast path skips the `schedule` it replaced.
   */
  admitNow?(credentials: Credentials, target: V2Target, options?: GateOptions): (() => void) | undefined;
  /** The service answered 429: hold back the budget the call spends for `retryAfterMs`. */
  penalize(credentials: Credentials, target: V2Target, retryAfterMs: number): void;
  /** The service's answer said `remaining` calls are left in the budget the call spends (`X-RateLimit-Remaining`). */
  remaining?(credentials: Credentials, target: V2Target, remaining: number): void;
}

/**
 * No limits: every call is let through at once. The client sends a call past this very gate
 * without a promise; a gate spread from it (tests replace its `schedule`) is one of its own.
 */
export const openGate: OutboundGate = {
  schedule: (_credentials, _target, task) => task(),
  penalize: () => {},
};
