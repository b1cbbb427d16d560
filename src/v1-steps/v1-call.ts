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
 * A request as the steps every way in that reads v1 fields shares (readFields, authenticate,
 * admit) see it: the request, its query string, the headers gathered for its answer, and whether
 * its connection may carry another request. The SDK signer's call is one; the facade's V1Call is
 * one with more.
 */
export class RequestCall {
  /** Answer headers gathered on the way (X-RateLimit-*), then the answer's own. */
  readonly headers: Record<string, string> = {};
  /** Set when the rest of the connection cannot be trusted (a broken body), or keep-alive is off. */
  closeConnection: boolean;
  /** The query string, without its `?`. */
  readonly search: string;

  constructor(
    /** The request, of any app: the facade's, or the SDK signer's (its Node request where there is one). */
    readonly c: Context,
    keepAlive = true,
  ) {
    this.search = searchOf(c.req.url);
    this.closeConnection = !keepAlive;
  }
}

/**
 * One v1 call as it goes through the facade's steps (read → authenticate → admit → dispatch →
 * render): what every step shares (the request, the answer's headers, the v2 calls counted), and
 * the answer or the error. What each step establishes is its result, typed for the next step
 * (`ReadCall` → `AuthenticatedCall` → `AdmittedCall`): one object of one shape per call, its fields
 * all set in the constructor.
 */
export class V1Call extends RequestCall {
  declare readonly c: Context<{ Bindings: Bindings }>;
  /** The data_type asked for; until the params are read, an error answers in the query's (render.ts). */
  dataType: DataType | undefined = undefined;
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

  constructor(
    c: Context<{ Bindings: Bindings }>,
    /** The path as the client sent it. */
    readonly path: string,
    keepAlive: boolean,
    observed: boolean,
    /** Where the call's trace starts: spans recorded and exported, or (by default) only passed on. */
    tracer: CallTracer = propagateOnly,
  ) {
    super(c, keepAlive);
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
 * result and returns its own, so no step can read what has not been established yet. The shared
 * steps (authenticate, admit) are generic over what came before them: the facade's ReadCall, or
 * the SDK signer's fields and path, each handed on with what the step adds.
 */

/** What any way in has read before authenticate: the fields, wherever the client put them. */
export interface FieldsRead {
  readonly params: Readonly<Record<string, unknown>>;
}

/** read, first: the params, wherever the client put them (known even when the rest is refused). */
export interface ParamsRead extends FieldsRead {
  readonly call: V1Call;
  readonly params: V1Params;
}

/** read: the endpoint the path names (the data_type asked for is the call's, for render). */
export interface ReadCall extends ParamsRead {
  readonly endpoint: EndpointDefinition;
  /** The endpoint's canonical path (`/user/get`). */
  readonly endpointPath: string;
}

/** What authenticate adds: the caller's pair, and its standing. */
export interface Standing {
  readonly credentials: Credentials;
  /** v2 accepted this pair lately (authenticate.ts): it is limited and sent as its key's owner. */
  readonly proven: boolean;
}

/** authenticate, in the facade. */
export interface AuthenticatedCall extends ReadCall, Standing {}

/** What admit reads: the call (its answer takes the limit's headers), the path it is counted under, the pair's standing. */
export interface Admissible extends Standing {
  readonly call: RequestCall;
  readonly endpointPath: string;
}

/** What admit adds: let through by the inbound limit (or there is none). */
export interface Admission {
  readonly admitted: true;
}

/** admit, in the facade: dispatch takes nothing less. */
export interface AdmittedCall extends AuthenticatedCall, Admission {}

/** Any step's result, as read after a failure: what a later step would have added may be missing. */
export type Progress = ParamsRead & Partial<Omit<AdmittedCall, keyof ParamsRead>>;

/**
 * The one object the facade's steps hand on, each writing what it establishes (read the endpoint,
 * authenticate the pair and its standing, admit its admission): every field is there from its
 * making, so each step's writes keep its one shape, and no step copies what the one before left.
 * Typed at each step by what that step established (ReadCall, AuthenticatedCall, AdmittedCall).
 */
export class StepsOfCall implements Progress {
  endpoint: EndpointDefinition | undefined = undefined;
  endpointPath: string | undefined = undefined;
  credentials: Credentials | undefined = undefined;
  proven: boolean | undefined = undefined;
  admitted: true | undefined = undefined;

  constructor(
    readonly call: V1Call,
    readonly params: V1Params,
  ) {}

  /** read's result: the endpoint the path names, written on. */
  read(endpoint: EndpointDefinition, endpointPath: string): ReadCall {
    this.endpoint = endpoint;
    this.endpointPath = endpointPath;
    return this as ReadCall;
  }
}

/**
 * A request header, from the headers Node has already parsed where there are some. Asking the
 * adaptor's web Request instead builds a Headers object of every header the client sent, with
 * the web's checks on each, for the two headers the facade reads (2.4% of a /v1/meeting/get's CPU
 * at a steady 2,500 calls/s, `npm run bench:builds`).
 */
export function headerOf(c: Context, name: string): string | undefined {
  // Any app's request (the signer's app declares no bindings): Node's where @hono/node-server gave one.
  const incoming = (c.env as Bindings | undefined)?.incoming;
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
