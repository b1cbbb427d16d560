import { Hono, type Context } from 'hono';
import { pairProofOf } from '../upstream/pair-proof.js';
import { LRUCache } from 'lru-cache';
import type { EndpointDefinition } from '../translators/kit/define.js';
import { buildRegistry, canonicalPath } from '../translators/kit/registry.js';
import type { Credentials, V2CallObservation, V2Client } from '../upstream/client.js';
import { DEFAULT_OUTBOUND_MAX_WAIT_MS } from '../ratelimit/outbound-limiter.js';
import { Refusal, toV1Error } from '../translators/kit/failures.js';
import { invalidParameter, missingParameter, renderV1Error } from '../v1/errors.js';
import { SecretValues } from '../shared/secrets.js';
import { paramsWithoutCredentials, requestIdOf, type CallObserver } from './observe.js';
import { ParamDecodeError, readParams, withoutBlankFields, type V1Params } from './params.js';
import { BodyReadError, readRawBody, type BodyLimits } from './raw-body.js';
import { KeyMemo } from './key-memo.js';
import { BoundMemo, BoundV2, CallContext, withdrawnWhenGone, type Bindings, type CallLine, type FanOutCheck } from './call-context.js';
import { CONTENT_TYPE, dataTypeOf, serialize, type DataType } from '../v1/serialize.js';

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
  fanOut?: FanOutCheck;
  /** Told about every v1 call answered (metrics, logs, the call recorder); see observe.ts. */
  observers?: readonly CallObserver[];
  now?: () => Date;
  /** How long reads that only feed a computed v1 field are kept per key (ms); 0 or none: not kept. */
  auxCacheTtlMs?: number;
}

/** Set on a socket whose request body ran past its Content-Length (see server.ts). */
export const BODY_OVERFLOW = Symbol.for('v1gate.bodyOverflow');

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
    let endpoint: EndpointDefinition | undefined;
    let text: string | undefined;
    // Only gathered when someone observes: the hot path pays nothing for it otherwise.
    const v2Calls: V2CallObservation[] | undefined = observers.length ? [] : undefined;
    try {
      if (c.req.method !== 'POST') throw new Refusal('not-a-post', `v1 calls are POST requests, not ${c.req.method}.`);
      const body = await readBody(c, options.body).catch((error: unknown) => {
        closeConnection = true; // the rest of a broken body must not be read as the next request
        throw error instanceof BodyReadError ? new Refusal('unreadable-body', error.message) : error;
      });
      params = withoutBlankFields(
        await readParams(search, body, headerOf(c, 'content-type')).catch((error: unknown) => {
          throw error instanceof ParamDecodeError ? new Refusal('undecodable-params', error.message) : error;
        }),
      );
      const requested = dataTypeOf(params.data_type);
      if (requested === undefined) throw new Refusal('bad-data-type');
      dataType = requested;

      const v1Path = canonicalPath(path);
      endpoint = registry.get(v1Path);
      if (!endpoint) throw new Refusal('unknown-path', `Unknown v1 endpoint: ${path}.`);
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
        if (!decision.allowed) throw new Refusal('inbound-limited', undefined, decision.headers);
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
      answer = await endpoint.handle(input, ctx);
    } catch (error) {
      const v1Error = toV1Error(error, endpoint?.v1FieldOf, (value) => fieldHolding(params, value));
      errorCode = v1Error.code;
      Object.assign(headers, v1Error.headers);
      answer = v1Error.toBody();
      dataType ??= dataTypeOf(new URLSearchParams(search).get('data_type') ?? undefined) ?? 'JSON';
      text = renderV1Error(v1Error, dataType);
    }
    dataType ??= 'JSON';
    headers['content-type'] = CONTENT_TYPE[dataType];
    headers['x-v2-calls'] = String(upstreamCalls);
    headers['x-request-id'] = requestId;
    if (closeConnection) headers.connection = 'close';
    text ??= serialize(answer, dataType);
    if (startedAt && v2Calls) {
      const apiKey = typeof params?.api_key === 'string' ? params.api_key : undefined;
      const record = {
        requestId,
        startedAt,
        method: c.req.method,
        rawPath: path,
        endpoint: endpointPath,
        apiKey,
        secrets: secretsOf(params?.api_secret),
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

/** The api_secret values a request carried, for observers to redact by value. */
function secretsOf(value: V1Params[string] | undefined): SecretValues | undefined {
  if (typeof value === 'string') return new SecretValues([value]);
  return Array.isArray(value) ? new SecretValues(value) : undefined;
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
  if (!apiKey || !apiSecret) throw new Refusal('missing-credentials');
  if (allowed && !allowed.has(apiKey)) throw new Refusal('key-not-allowed');
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

/** The v1 field whose value (or one of whose values) is `value`. */
function fieldHolding(params: V1Params | undefined, value: string): string | undefined {
  return Object.entries(params ?? {}).find(([, v]) => v === value || (Array.isArray(v) && v.includes(value)))?.[0];
}
