import type { Context } from 'hono';
import { OwnTime } from '../shared/own-time.js';
import { propagateOnly, type CallTrace, type CallTracer } from '../shared/trace-context.js';
import type { EndpointDefinition } from '../translators/kit/define.js';
import type { Credentials, V2CallObservation } from '../upstream/client.js';
import type { V1Error } from '../v1/errors.js';
import type { FailureKind } from '../../mappings/errors.js';
import type { DataType } from '../v1/serialize.js';
import type { Bindings } from './call-context.js';
import { requestIdOf } from './observe.js';
import type { V1Params } from './params.js';

/**
 * One v1 call as it goes through the facade's steps (read → authenticate → admit → dispatch →
 * render): what every step shares (the request, the answer's headers, the v2 calls counted), and
 * the answer or the error. What each step establishes is its result, typed for the next step
 * (`ReadCall` → `AuthenticatedCall` → `AdmittedCall`): one object of one shape per call, its fields
 * all set in the constructor.
 */
export class V1Call {
  /** The data_type asked for; until the params are read, an error answers in the query's (render.ts). */
  dataType: DataType | undefined = undefined;
  /** Answer headers gathered on the way (X-RateLimit-*), then the answer's own. */
  readonly headers: Record<string, string> = {};
  /** Set when the rest of the connection cannot be trusted (a broken body), or keep-alive is off. */
  closeConnection: boolean;
  /** v2 requests really sent (x-v2-calls). */
  upstreamCalls = 0;
  /**
   * The result of the furthest step the call got through (read.ts onward), for what follows a
   * failure at any step: the v1 error names the fields, the answer and the observers say the
   * endpoint. Steps never read it: each takes the previous step's result instead.
   */
  reached: Progress | undefined = undefined;
  /** The v1 answer object (the error envelope on failure). */
  answer: unknown = undefined;
  error: V1Error | undefined = undefined;
  /** What kind of failure `error` answers (its row in mappings/errors.ts). */
  failure: FailureKind | undefined = undefined;
  /** The error itself, when it is a bug of v1gate's (`internal`): its call line carries its stack. */
  fault: unknown = undefined;
  /** Only gathered when someone observes: the hot path pays nothing for it otherwise. */
  readonly v2Calls: V2CallObservation[] | undefined;
  /** When it arrived (for observers only). */
  readonly startedAt: Date | undefined;
  /** From when it arrived: v1gate's own time for it, the waits on v2 and on outbound tokens left out. */
  readonly ownTime = new OwnTime();
  readonly requestId: string;
  /** The call's trace, started on arrival: the client's `traceparent` continued, or a new trace. */
  readonly trace: CallTrace;
  /** The query string, without its `?`. */
  readonly search: string;

  constructor(
    readonly c: Context<{ Bindings: Bindings }>,
    /** The path as the client sent it. */
    readonly path: string,
    keepAlive: boolean,
    observed: boolean,
    /** Where the call's trace starts: spans recorded and exported, or (by default) only passed on. */
    tracer: CallTracer = propagateOnly,
  ) {
    this.search = searchOf(c.req.url);
    this.closeConnection = !keepAlive;
    this.v2Calls = observed ? [] : undefined;
    this.startedAt = observed ? new Date() : undefined;
    this.requestId = requestIdOf(headerOf(c, 'x-request-id'));
    this.trace = tracer.start(headerOf(c, 'traceparent'), headerOf(c, 'tracestate'));
  }

  /** A step's result, kept as the furthest the call got, and handed on to the next step. */
  reach<S extends ParamsRead>(stage: S): S {
    this.reached = stage;
    return stage;
  }
}

/*
 * What each step established, each the one before it and more: a step takes its predecessor's
 * result and returns its own, so no step can read what has not been established yet.
 */

/** read, first: the params, wherever the client put them (known even when the rest is refused). */
export interface ParamsRead {
  readonly call: V1Call;
  readonly params: V1Params;
}

/** read: the endpoint the path names (the data_type asked for is the call's, for render). */
export interface ReadCall extends ParamsRead {
  readonly endpoint: EndpointDefinition;
  /** The endpoint's canonical path (`/user/get`). */
  readonly endpointPath: string;
}

/** authenticate: the caller's pair, and its standing. */
export interface AuthenticatedCall extends ReadCall {
  readonly credentials: Credentials;
  /** v2 accepted this pair lately (authenticate.ts): it is limited and sent as its key's owner. */
  readonly proven: boolean;
}

/** admit: let through by the inbound limit (or there is none); dispatch takes nothing less. */
export interface AdmittedCall extends AuthenticatedCall {
  readonly admitted: true;
}

/** Any step's result, as read after a failure: what a later step would have added may be missing. */
export type Progress = ParamsRead & Partial<Omit<AdmittedCall, keyof ParamsRead>>;

/**
 * A request header, from the headers Node has already parsed where there are some. Asking the
 * adaptor's web Request instead builds a Headers object of every header the client sent, with
 * the web's checks on each, for the two headers the facade reads (2.4% of a /v1/meeting/get's CPU
 * at a steady 2,500 calls/s, `npm run bench:builds`).
 */
export function headerOf(c: Context<{ Bindings: Bindings }>, name: string): string | undefined {
  const incoming = c.env?.incoming;
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The query string of a request URL, without its `?` ('' when none). */
function searchOf(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return '';
  const hash = url.indexOf('#', at);
  return hash === -1 ? url.slice(at + 1) : url.slice(at + 1, hash);
}
