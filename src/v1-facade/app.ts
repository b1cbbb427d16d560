import { Hono, type Context } from 'hono';
import { pairProofOf } from '../upstream/pair-proof.js';
import { LRUCache } from 'lru-cache';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { V1Code } from '../v1/errors.js';
import { isoSeconds } from '../shared/iso-time.js';
import type { CallMemo, EndpointDefinition, TranslatorContext, V2Api } from '../translators/kit/define.js';
import { buildRegistry, canonicalPath } from '../translators/kit/registry.js';
import type { Credentials, Query, V2CallObservation, V2Client, V2Request } from '../upstream/client.js';
import { CallWithdrawn, V2Error } from '../upstream/errors.js';
import { DotSegmentValue } from '../shared/v2-path.js';
import { Departure, type Leaving } from '../shared/leaving.js';
import { DEFAULT_OUTBOUND_MAX_WAIT_MS } from '../ratelimit/outbound-limiter.js';
import { toV1Error } from '../translators/kit/failures.js';
import { checkedAnswer } from '../translators/kit/answer-shape.js';
import type { z } from 'zod';
import { V1Error, invalidParameter, missingParameter, rateLimited } from '../v1/errors.js';
import { paramsWithoutCredentials, requestIdOf, type CallObserver } from './observe.js';
import { ParamDecodeError, readParams, withoutBlankFields, type V1Params } from './params.js';
import { BodyReadError, readRawBody, type BodyLimits } from './raw-body.js';
import { KeyMemo } from './key-memo.js';
import { CONTENT_TYPE, dataTypeOf, serialize, type DataType } from './serialize.js';

/**
 * The v1 facade: `POST /v1/<area>/<action>` in any letter case, with or without a trailing slash.
 * Reads the params wherever the client put them, checks the credentials and the inbound limit,
 * parses the params with the endpoint's schema, runs its translator and answers the v1 object or
 * the v1 error envelope (HTTP 200, as v1 did), in JSON or XML.
 */

/** Inbound v1 limits (src/ratelimit provides the real one). */
export interface InboundGate {
  check(apiKey: string, v1Path: string): Promise<{ allowed: boolean; headers: Record<string, string> }>;
}

export interface V1AppOptions {
  endpoints: readonly EndpointDefinition[];
  v2: V2Client;
  inbound?: InboundGate;
  allowedApiKeys?: ReadonlySet<string>;
  body: BodyLimits;
  /** Off: every answer closes its connection (legacy clients that only write a body on a fresh connection). */
  keepAlive: boolean;
  /** How long one v1 call's v2 calls may wait, together, for outbound tokens. */
  outboundMaxWaitMs?: number;
  /** The fan-out pre-check (throws when `calls` v2 calls cannot be admitted within `waitMs`); none: every fan-out is let through. */
  fanOut?: (method: string, path: string, calls: number, waitMs: number) => void;
  /** Told about every v1 call answered (metrics, logs, the call recorder); see observe.ts. */
  observers?: readonly CallObserver[];
  now?: () => Date;
  /** How long reads that only feed a computed v1 field are kept per key (ms); 0 or none: not kept. */
  auxCacheTtlMs?: number;
}

/** Set on a socket whose request body ran past its Content-Length (see server.ts). */
export const BODY_OVERFLOW = Symbol.for('v1gate.bodyOverflow');

/** What @hono/node-server hands each request: Node's own request and response (absent under `app.request`). */
type Bindings = { incoming?: IncomingMessage; outgoing?: ServerResponse };

const V1_PREFIX = /^\/v1\//i;

export function createV1App(options: V1AppOptions): Hono<{ Bindings: Bindings }> {
  const registry = buildRegistry(options.endpoints);
  const now = options.now ?? (() => new Date());
  const observers = options.observers ?? [];
  /**
   * Pairs v2 accepted lately (a hash of key and secret, never the secret): their calls fan out at
   * once; an unproven pair's first v2 call goes alone (BoundV2). Bounded, and forgotten on a 401.
   */
  const verifiedPairs = new LRUCache<string, true>({ max: 10_000, ttl: 5 * 60_000 });
  const memo = new KeyMemo({ auxTtlMs: options.auxCacheTtlMs ?? 0 });
  const app = new Hono<{ Bindings: Bindings }>();

  // `/v1/` in any letter case (`/V1/User/Get`): matched by hand, Hono's routes are case-sensitive.
  app.all('*', async (c, next) => {
    const path = c.req.path;
    if (!V1_PREFIX.test(path)) return next();
    const search = searchOf(c.req.url);
    const startedAt = observers.length ? new Date() : undefined;
    const started = performance.now();
    const requestId = requestIdOf(headerOf(c, 'x-request-id'));
    // Until the params are read, an error answers in the query's data_type (read leniently, and only then).
    let dataType: DataType | undefined;
    const headers: Record<string, string> = {};
    let closeConnection = !options.keepAlive;
    let upstreamCalls = 0;
    let answer: unknown;
    let params: V1Params | undefined;
    let endpointPath: string | undefined;
    let errorCode: number | undefined;
    // Only gathered when someone observes: the hot path pays nothing for it otherwise.
    const v2Calls: V2CallObservation[] | undefined = observers.length ? [] : undefined;
    try {
      if (c.req.method !== 'POST') throw new V1Error(V1Code.invalidParameter, `v1 calls are POST requests, not ${c.req.method}.`);
      const body = await readBody(c, options.body).catch((error: unknown) => {
        closeConnection = true; // the rest of a broken body must not be read as the next request
        throw error;
      });
      params = withoutBlankFields(await readParams(search, body, headerOf(c, 'content-type')));
      const requested = dataTypeOf(params.data_type);
      if (requested === undefined) throw invalidParameter('data_type', 'Must be JSON or XML.');
      dataType = requested;

      const v1Path = canonicalPath(path);
      const endpoint = registry.get(v1Path);
      if (!endpoint) throw new V1Error(V1Code.invalidParameter, `Unknown v1 endpoint: ${path}.`);
      endpointPath = v1Path;
      const credentials = credentialsOf(params, options.allowedApiKeys);
      const pairKey = pairProofOf(credentials);
      if (options.inbound) {
        // A pair v2 has not accepted lately is limited in a bucket of its own: anyone who knows an
        // api_key (it is public in every browser-SDK page) can flood it with wrong secrets without
        // taking a single token from the key's real callers.
        const bucketKey = verifiedPairs.has(pairKey) ? credentials.apiKey : `${credentials.apiKey}\u0000unverified`;
        const decision = await options.inbound.check(bucketKey, v1Path);
        Object.assign(headers, decision.headers);
        if (!decision.allowed) throw rateLimited(decision.headers);
      }
      const input = parseParams(endpoint, params);
      const deadlineMs = Date.now() + (options.outboundMaxWaitMs ?? DEFAULT_OUTBOUND_MAX_WAIT_MS);
      const line: CallLine = {
        client: options.v2,
        credentials,
        onSend: () => upstreamCalls++,
        requestId,
        onResult: v2Calls && ((observation) => v2Calls.push(observation)),
        onVerdict: (accepted) => {
          if (accepted) {
            verifiedPairs.set(pairKey, true);
            return;
          }
          verifiedPairs.delete(pairKey);
          memo.refused(pairKey);
        },
        onWrite: () => memo.wrote(credentials.apiKey),
        declaredCalls: endpoint.v2Calls,
      };
      const ctx = new CallContext(
        new BoundV2(line, { deadlineMs, leaving: withdrawnWhenGone(c) }, verifiedPairs.has(pairKey)),
        line,
        new BoundMemo(memo, credentials.apiKey, pairKey),
        now,
        deadlineMs,
        options.fanOut,
      );
      try {
        answer = await endpoint.handle(input, ctx);
      } catch (error) {
        throw error instanceof DotSegmentValue ? error : toV1Error(error, (v2Path) => v1FieldName(endpoint, v2Path));
      }
    } catch (error) {
      const v1Error = toKnownError(error, params);
      errorCode = v1Error.code;
      Object.assign(headers, v1Error.headers);
      answer = v1Error.toBody();
      dataType ??= dataTypeOf(new URLSearchParams(search).get('data_type') ?? undefined) ?? 'JSON';
    }
    dataType ??= 'JSON';
    headers['content-type'] = CONTENT_TYPE[dataType];
    headers['x-v2-calls'] = String(upstreamCalls);
    headers['x-request-id'] = requestId;
    if (closeConnection) headers.connection = 'close';
    const text = serialize(answer, dataType);
    if (startedAt && v2Calls) {
      const apiKey = typeof params?.api_key === 'string' ? params.api_key : undefined;
      const record = {
        requestId,
        startedAt,
        method: c.req.method,
        rawPath: path,
        endpoint: endpointPath,
        apiKey,
        params: params && paramsWithoutCredentials(params),
        errorCode,
        answer,
        dataType,
        ms: performance.now() - started,
        v2Calls,
      };
      for (const observe of observers) {
        try {
          observe(record);
        } catch {
          // An observer must never change or fail a v1 answer.
        }
      }
    }
    // A Response with its headers as a plain object: under Node, the adaptor's own Response writes
    // them as they are, where `c.body` first copies several into a web Headers object.
    return new Response(text, { status: 200, headers });
  });

  return app;
}

/** The query string of a request URL, without its `?` ('' when none). */
function searchOf(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return '';
  const hash = url.indexOf('#', at);
  return hash === -1 ? url.slice(at + 1) : url.slice(at + 1, hash);
}

/**
 * A request header, from the headers Node has already parsed where there are some. Asking the
 * adaptor's web Request instead builds a Headers object of every header the client sent, with
 * the web's checks on each, for the two headers the facade reads (2.4% of a /v1/meeting/get's CPU
 * at a steady 2,500 calls/s, `npm run bench:builds`).
 */
function headerOf(c: Context<{ Bindings: Bindings }>, name: string): string | undefined {
  const incoming = c.env?.incoming;
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The body bytes: straight from the socket under Node (with limits), else from the Request. */
async function readBody(c: Context<{ Bindings: Bindings }>, limits: BodyLimits): Promise<Buffer> {
  const incoming = c.env?.incoming;
  if (!incoming) {
    const bytes = Buffer.from(await c.req.arrayBuffer());
    if (bytes.length > limits.maxBytes)
      throw new BodyReadError('too-large', `The request body is larger than the ${limits.maxBytes} bytes v1gate accepts.`);
    return bytes;
  }
  const body = await readRawBody(incoming, limits);
  // The parser saw bytes past Content-Length (a client that counted characters, not bytes):
  // what we read is a truncated body, so refuse it rather than act on part of it.
  // The server marks the socket itself (server.ts); Node's Socket type has no room for our mark.
  if ((incoming.socket as unknown as Record<symbol, unknown>)[BODY_OVERFLOW]) {
    throw new BodyReadError(
      'incomplete',
      'The request body is longer than its Content-Length announced. Count Content-Length in bytes, not characters.',
    );
  }
  return body;
}

function credentialsOf(params: V1Params, allowed: ReadonlySet<string> | undefined): Credentials {
  const apiKey = typeof params.api_key === 'string' ? params.api_key.trim() : '';
  const apiSecret = typeof params.api_secret === 'string' ? params.api_secret.trim() : '';
  if (!apiKey || !apiSecret) {
    throw new V1Error(V1Code.missingCredentials, 'api_key and api_secret are required.');
  }
  if (allowed && !allowed.has(apiKey)) {
    throw new V1Error(V1Code.invalidCredentials, 'Invalid api key or secret: this api_key may not use this gateway.');
  }
  return { apiKey, apiSecret };
}

function parseParams(endpoint: EndpointDefinition, params: V1Params): unknown {
  const result = endpoint.params.safeParse(params);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = String(issue.path[0] ?? 'parameters');
  const raw = params[field];
  const absent = raw === undefined || (typeof raw === 'string' && raw.trim() === '') || (Array.isArray(raw) && raw.length === 0);
  if (absent && issue.path.length <= 1) throw missingParameter(field);
  throw invalidParameter(field, issue.message);
}

function v1FieldName(endpoint: EndpointDefinition, v2Path: string): string | undefined {
  return endpoint.v1FieldOf(v2Path);
}

function toKnownError(error: unknown, params?: V1Params): V1Error {
  if (error instanceof DotSegmentValue) {
    const field = Object.entries(params ?? {}).find(([, v]) => v === error.value || (Array.isArray(v) && v.includes(error.value)))?.[0];
    return invalidParameter(field ?? 'id', `"${error.value}" names no resource.`);
  }
  if (error instanceof BodyReadError) return new V1Error(V1Code.invalidParameter, error.message);
  if (error instanceof ParamDecodeError) return new V1Error(V1Code.invalidParameter, error.message);
  return toV1Error(error);
}

/**
 * The V2Api of one v1 call: the caller's credentials and deadline on every call, and a count of
 * calls sent. A class, not an object of arrows: one is made per v1 call, and an object of eight
 * fresh closures cost ~20 µs per v1 call under tsx (`npm run dev`, esbuild keepNames).
 */
class BoundV2 implements V2Api {
  constructor(
    private readonly line: CallLine,
    /** How this call's v2 requests wait for outbound tokens: the v1 call's deadline, or an undo's own budget and priority. */
    private readonly waiting: Pick<V2Request, 'deadlineMs' | 'priority' | 'leaving'>,
    /** The pair was accepted by v2 lately (the verified-credentials cache): no need to wait for proof. */
    private verified: boolean,
  ) {}

  /** Set by the first 401 of this v1 call: every later v2 call of it is refused without being sent. */
  private refused: V2Error | undefined;
  /** While the pair is unproven, the first v2 call goes alone; the others wait for its outcome. */
  private first: Promise<unknown> | undefined;

  get<S extends z.ZodType>(path: string, answer: S, query?: Query): Promise<z.output<S>> {
    return this.checked('GET', path, answer, this.call('GET', path, query, undefined));
  }
  post<S extends z.ZodType>(path: string, body: unknown, answer: S, query?: Query): Promise<z.output<S>> {
    return this.checked('POST', path, answer, this.call('POST', path, query, body));
  }
  patch(path: string, body: unknown): Promise<void> {
    return this.call<void>('PATCH', path, undefined, body);
  }
  put(path: string, body?: unknown, query?: Query): Promise<void> {
    return this.call<void>('PUT', path, query, body);
  }
  delete(path: string, query?: Query): Promise<void> {
    return this.call<void>('DELETE', path, query, undefined);
  }
  upload<S extends z.ZodType>(path: string, form: FormData, answer: S): Promise<z.output<S>> {
    return this.checked('POST', path, answer, this.send<unknown>(this.request('POST', path, undefined, undefined, form)));
  }
  private call<T = unknown>(method: V2Request['method'], path: string, query: Query | undefined, body: unknown): Promise<T> {
    return this.send<T>(this.request(method, path, query, body, undefined));
  }
  /** The answer as the translator reads it: checked here, after coalescing, so each waiter on a shared GET checks its own copy. */
  private checked<S extends z.ZodType>(method: string, path: string, schema: S, pending: Promise<unknown>): Promise<z.output<S>> {
    return pending.then((answer) => checkedAnswer(schema, answer, method, path, this.line.declaredCalls));
  }
  /** Whether a request of this call has been made yet (its first one opens the call at the outbound limiter). */
  private opened = false;

  /** One object literal of one shape per call (a spread of the caller's object made a new one each time). */
  private request(
    method: V2Request['method'],
    path: string,
    query: Query | undefined,
    body: unknown,
    form: FormData | undefined,
  ): V2Request {
    const { line, waiting } = this;
    const opensCall = !this.opened && waiting.priority === undefined;
    this.opened = true;
    return {
      method,
      path,
      query,
      body,
      form,
      deadlineMs: waiting.deadlineMs,
      priority: waiting.priority,
      opensCall,
      leaving: waiting.leaving,
      onSend: line.onSend,
      onResult: line.onResult,
      requestId: line.requestId,
    };
  }

  /**
   * Credentials first: a pair not yet proven sends one v2 call and waits for its answer before any
   * other (a fan-out of 300 deletes with a wrong secret is one v2 call, not 300), and the first 401
   * ends the v1 call. A proven pair (this call's first answer, or the cache) sends at once.
   */
  private send<T>(request: V2Request): Promise<T> {
    if (request.method !== 'GET') return this.written(this.sendNow<T>(request));
    return this.sendNow<T>(request);
  }

  /** A write drops the key's short-lived reads when sent and again when it ends (a read between may have seen the old state). */
  private written<T>(pending: Promise<T>): Promise<T> {
    this.line.onWrite();
    const done = () => this.line.onWrite();
    pending.then(done, done);
    return pending;
  }

  private sendNow<T>(request: V2Request): Promise<T> {
    if (this.refused) return Promise.reject(this.refused);
    if (this.verified) return this.watch(this.line.client.call<T>(this.line.credentials, request));
    if (this.first) return this.first.then(() => this.sendNow<T>(request));
    const pending = this.watch(this.line.client.call<T>(this.line.credentials, request));
    this.first = pending.then(
      () => this.prove(),
      (error: unknown) => {
        // Any answer but 401 proves v2 accepted the pair; a network failure proves nothing, but
        // the others may go (they would fail or prove it themselves).
        if (error instanceof V2Error && error.status !== 401) this.prove();
        else if (!(error instanceof V2Error)) this.verified = true;
      },
    );
    return pending;
  }

  private prove(): void {
    if (this.verified) return;
    this.verified = true;
    this.line.onVerdict(true);
  }

  private watch<T>(pending: Promise<T>): Promise<T> {
    return pending.catch((error: unknown) => {
      if (error instanceof V2Error && error.status === 401 && !this.refused) {
        this.refused = error;
        this.line.onVerdict(false);
      }
      throw error;
    });
  }
}

/** What every v2 request of one v1 call shares: the client, the caller's pair, and the call's observers. */
interface CallLine {
  client: V2Client;
  credentials: Credentials;
  onSend: () => void;
  requestId: string;
  onResult: ((observation: V2CallObservation) => void) | undefined;
  /** Tells the verified-credentials cache what v2 said of the pair: accepted (an answer other than 401) or refused (401). */
  onVerdict: (accepted: boolean) => void;
  /** The call writes through v2 (any method but GET): the key's short-lived reads are stale. */
  onWrite: () => void;
  /** The endpoint's declared v2 calls (`GET /users/{userId}`), to name a call whose answer does not fit. */
  declaredCalls: readonly string[];
}

/** The key memo seen by one v1 call: the caller's key and pair hash on every entry. */
class BoundMemo implements CallMemo {
  constructor(
    private readonly memo: KeyMemo,
    private readonly apiKey: string,
    private readonly pair: string,
  ) {}

  aux<T>(name: string, read: () => Promise<T>): Promise<T> {
    return this.memo.auxRead(this.apiKey, this.pair, name, read);
  }

  fact<T>(name: string, read: () => Promise<T>): Promise<T> {
    return this.memo.fact(this.pair, name, read);
  }
}

/**
 * The v1 client's leaving: its connection closed before its answer, with a reason the error table
 * knows. The call's v2 requests still waiting for a token are withdrawn, never sent. Read from
 * Node's response where there is one: asking the adaptor for the web request's signal makes it
 * build a full `Request` per call, which nothing else needs (~2.5% of the gateway's CPU in the
 * checkemail profile); and no AbortSignal is made unless a v2 call has to wait (~3.5 µs each).
 */
function withdrawnWhenGone(c: Context<{ Bindings: Bindings }>): Leaving {
  const departure = new Departure();
  const withdraw = () => departure.leave(new CallWithdrawn());
  const outgoing = c.env?.outgoing;
  if (outgoing) outgoing.once('close', () => outgoing.writableFinished || withdraw());
  else c.req.raw.signal.addEventListener('abort', withdraw, { once: true });
  return departure;
}

/** The TranslatorContext of one v1 call (a class for the same reason as BoundV2). */
class CallContext implements TranslatorContext {
  private undoApi: V2Api | undefined;

  constructor(
    readonly v2: V2Api,
    private readonly line: CallLine,
    readonly memo: CallMemo,
    private readonly now: () => Date,
    private readonly deadlineMs: number,
    private readonly fanOut: V1AppOptions['fanOut'],
  ) {}

  nowIso(): string {
    return isoSeconds(this.now());
  }

  /** Made on first use: most calls never undo anything. The pair is proven (a write it undoes succeeded), and the client's leaving does not withdraw an undo. */
  get undoV2(): V2Api {
    return (this.undoApi ??= new BoundV2(this.line, { priority: 'undo' }, true));
  }

  requireFanOut(method: string, path: string, calls: number): void {
    this.fanOut?.(method, path, calls, this.deadlineMs - Date.now());
  }
}
