import { getRequestListener, RequestError, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { createServer as createNodeServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { abandon } from '../shared/abandon.js';
import { ROUTES } from '../shared/route-owners.js';
import { ConnectionSlots } from './connection-slots.js';
import { renderV1Error } from '../v1/errors.js';
import { v1ErrorAnswer } from '../translators/kit/error-answer.js';
import { CONTENT_TYPE } from '../v1/serialize.js';
import { Refusal, toV1Error } from '../translators/kit/failures.js';
import { readUnframedBodies } from './unframed-bodies.js';
import { BodyPool, BodyReadError, BUFFERED_BODIES_PER_BODY, DEFAULT_BUDGET, type RequestBudget } from './body-budget.js';
import { cutBody, passRequestDeadline, releaseBody } from './request-body.js';
import { connectionOf, requestIfAny, requestOf, trackConnections, type ConnectionState } from './transport-state.js';

/**
 * The HTTP server, tuned for legacy v1 clients:
 * - no Host header required (old HTTP/1.0 libraries send none), and a malformed one ignored: v1
 *   routes do not depend on it;
 * - an HTTP/1.0 body without Content-Length is read to the end (unframed-bodies.ts);
 * - a request whose body runs past its Content-Length (a client that counted characters, not
 *   bytes) makes Node's parser fail on the "next request": instead of Node destroying the socket
 *   under the request in flight (the client would see a reset, or hang), the socket is marked and
 *   the route answers a clear error, then closes;
 * - bytes that are no HTTP request at all, and request targets the request adaptor cannot read
 *   (`POST *`, a backslash in the path), get a v1 error envelope with HTTP 400 and a closed
 *   connection, not a bare reset or an empty 400;
 * - an absolute-form target (`GET http://host/v1/...`, as sent to a proxy) is read as its path,
 *   under the same path rules as any other;
 * - once a request ends its connection (keep-alive off, `Connection: close`, or HTTP/1.0 without
 *   keep-alive), nothing a client pipelined behind it on that connection runs: its answer would be
 *   thrown away with the connection, and a client that retries would make a duplicate;
 * - one budget per request (src/http/request-body.ts), enforced where the bytes arrive: the
 *   headers must arrive within `headersTimeoutMs` and the whole request within
 *   `requestTimeoutMs` of its first byte, checked every second, so slow-drip connections
 *   (slowloris) end in seconds, not after Node's 300 s default; a body still arriving at the
 *   deadline fails its reader, and the route answers and closes;
 * - the bodies held at once, all requests together, are bounded (`maxBufferedBytes`): past it a
 *   body is refused as busy, in its route's own error format, and its connection closed;
 * - so are the connections (`maxConnections`), and those of one client address
 *   (`maxConnectionsPerAddress`: an IPv4 address, an IPv6 /64), so that one client reconnecting
 *   as fast as it can never holds every slot; none is held for nothing: one that says nothing
 *   ends at the headers deadline, a kept-alive one idle for KEEP_ALIVE_IDLE_MS ends, and one whose
 *   client takes none of its answer's bytes for `requestTimeoutMs` is cut.
 */

/** A v1 client's path (the route table's v1 row, in any case): its spellings are normalised further, and V1_KEEP_ALIVE is about it. */
const isV1Path = (path: string): boolean => ROUTES.isUnder('v1', path);
const DOT_SEGMENT = /^(\.|%2e){1,2}$/i;
/** What any of the rewrites below looks for: a run of slashes, a segment starting with a dot, a percent-escape. Most paths have none. */
const MAY_NEED_NORMALISING = /\/\/|\/\.|%/;
/** A Host the request adaptor can build a URL from: a name or IPv4 address, or a bracketed IPv6 one, with an optional port. */
const VALID_HOST = /^(?:[a-z0-9._-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;
/** An absolute-form request target: scheme, authority, then the path and query (RFC 9112, 3.2.2). */
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)([^#]*)/i;

/** The Host last found valid: a client sends the same one on every call, and the pattern need not run again. */
let lastValidHost = '';

/** Whether a Host (or an absolute-form target's authority) names a host and a port that can be. */
function isValidHost(host: string): boolean {
  if (host === lastValidHost && host !== '') return true;
  const match = VALID_HOST.exec(host);
  const valid = match !== null && (match[1] === undefined || Number(match[1]) <= 65_535);
  if (valid) lastValidHost = host;
  return valid;
}

/** An absolute-form target's authority and its path and query in origin form (`http://x` → `/`); undefined for any other form. */
export function absoluteFormParts(target: string): { authority: string; originForm: string } | undefined {
  if (target.startsWith('/')) return undefined;
  const match = ABSOLUTE_FORM.exec(target);
  if (!match) return undefined;
  const rest = match[2]!;
  return { authority: match[1]!, originForm: rest.startsWith('/') ? rest : `/${rest}` };
}

/**
 * The request path, normalised once before any routing: an absolute-form target becomes its path
 * and query; runs of slashes become one (`//v1/...`, `/v1//user/get`), and under `/v1/` an encoded
 * slash is a slash (`/v1/user%2Fget`), as legacy clients that build paths by concatenation send
 * them. A path with a dot segment (`.`, `..`, or their encodings) is refused: URL parsing would
 * resolve it, and `/v1/%2e%2e/v2/...` would reach another API than the one the client named.
 * Returns undefined for a refused path.
 */
export function normalizeRequestTarget(target: string): string | undefined {
  const origin = absoluteFormParts(target)?.originForm ?? target;
  const at = origin.indexOf('?');
  const path = at === -1 ? origin : origin.slice(0, at);
  const query = at === -1 ? '' : origin.slice(at);
  if (!path.startsWith('/')) return origin; // `*` or no path at all: the adaptor refuses it (see the error handler)
  if (!MAY_NEED_NORMALISING.test(path)) return origin;
  let normal = path.replace(/\/{2,}/g, '/');
  if (isV1Path(normal)) normal = normal.replace(/%2f/gi, '/').replace(/\/{2,}/g, '/');
  if (normal.split('/').some((segment) => DOT_SEGMENT.test(segment))) return undefined;
  return normal + query;
}
export interface ServerOptions {
  /** Keep v1 client connections alive between requests (V1_KEEP_ALIVE). */
  keepAlive: boolean;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** The largest request body (V1_MAX_BODY_BYTES), for every route and for an HTTP/1.0 body sent without a length. */
  maxBodyBytes?: number;
  /** How long a body may stall (V1_BODY_TIMEOUT_MS). */
  bodyTimeoutMs?: number;
  /** The most form fields one request may carry (V1_MAX_FIELDS). */
  maxFields?: number;
  /** The most body bytes held at once, every request together (V1_MAX_BUFFERED_BYTES); default 16 × maxBodyBytes. */
  maxBufferedBytes?: number;
  /** The most client connections open at once (V1_MAX_CONNECTIONS); default `defaultMaxConnections()`. */
  maxConnections?: number;
  /**
   * The most connections one client address holds at once (V1_MAX_CONNECTIONS_PER_ADDRESS); default
   * `defaultMaxConnectionsPerAddress(maxConnections)`; false: none (a listener only the gateway's own
   * parts reach, all from one loopback address).
   */
  maxConnectionsPerAddress?: number | false;
  /** Told of each call (a path the route table says names one) as it arrives, and once its answer has gone (the calls in flight, for a drain). */
  calls?: CallCount;
}

/** Counts the calls in flight: one started per call, one finished once its answer has gone (its response closed). */
export interface CallCount {
  started(): void;
  finished(): void;
}

/** How long a kept-alive connection may wait for its next request (Node's own default, stated). */
export const KEEP_ALIVE_IDLE_MS = 5_000;

/**
 * V1_MAX_CONNECTIONS's default: 4,096, or half the process's open-file limit where that is lower,
 * so that a flood of connections leaves files for the v2 connections, Redis, the journal and the
 * log (past the limit, Node can open none of them). Linux says the limit in /proc/self/limits.
 */
export function defaultMaxConnections(limits = readProcLimits()): number {
  const openFiles = Number(/^Max open files\s+(\d+)/m.exec(limits ?? '')?.[1] ?? NaN);
  return Number.isFinite(openFiles) ? Math.max(64, Math.min(4_096, Math.floor(openFiles / 2))) : 4_096;
}

/**
 * V1_MAX_CONNECTIONS_PER_ADDRESS's default: a quarter of the connection cap. One address (a client,
 * or a network address translator many share) can then never take more than a quarter of the
 * slots, and four such flooding at once are needed to fill them.
 */
export function defaultMaxConnectionsPerAddress(maxConnections: number): number {
  return Math.max(1, Math.floor(maxConnections / 4));
}

function readProcLimits(): string | undefined {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return undefined;
  }
}

/** How long an HTTP/1.0 client sending a body without a length may pause before it is taken as complete (it normally closes its side). */
const UNFRAMED_BODY_IDLE_MS = 2_000;

/** A v1 envelope with an HTTP status of its own (the transport's refusals are not v1 answers of HTTP 200), the connection closed. */
function transportError(status: 400 | 408 | 500, error: unknown): Response {
  return v1ErrorAnswer(error, { status, headers: { connection: 'close' } });
}

function v1Envelope(refusal: Refusal, close: boolean): Response {
  return v1ErrorAnswer(refusal, close ? { headers: { connection: 'close' } } : {});
}

/** A v1 envelope written straight to a socket no request object was made for, then the connection closed. */
function endWithEnvelope(socket: Socket, status: 400 | 408, message: string): void {
  const body = renderV1Error(toV1Error(new Refusal('malformed-request', message)));
  const reason = status === 408 ? 'Request Timeout' : 'Bad Request';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${CONTENT_TYPE.JSON}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The answer for whatever the request adaptor could not turn into a request (`POST *`, a
 * backslash in the path: a RequestError), and for an error no route caught: the v1 envelope, and
 * the connection closed. Never a stack trace, never an empty 400.
 */
function adaptorErrorAnswer(error: unknown): Response {
  if (error instanceof RequestError)
    return transportError(400, new Refusal('malformed-request', `Malformed request target (${error.message}).`));
  return transportError(500, error);
}

/**
 * Whether the answer to this request ends its connection. Keep-alive off is the v1 facade's
 * policy for v1 clients only: calls to the embedded sandbox's /v2 on this same server keep theirs.
 */
function endsConnection(req: IncomingMessage, keepAlive: boolean): boolean {
  const connection = (req.headers.connection ?? '').toLowerCase();
  if (connection.includes('close') || (!keepAlive && isV1Path(req.url ?? ''))) return true;
  return req.httpVersion === '1.0' && !connection.includes('keep-alive');
}

export function createServer(
  fetch: (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>,
  options: ServerOptions = { keepAlive: true, headersTimeoutMs: 60_000, requestTimeoutMs: 300_000 },
): Server {
  const maxBytes = options.maxBodyBytes ?? DEFAULT_BUDGET.maxBytes;
  const budget: RequestBudget = {
    maxBytes,
    idleTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_BUDGET.idleTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs,
    maxFields: options.maxFields ?? DEFAULT_BUDGET.maxFields,
    bodies: new BodyPool(options.maxBufferedBytes ?? BUFFERED_BODIES_PER_BODY * maxBytes),
  };
  const guarded = (request: Request, env: HttpBindings | Http2Bindings) => {
    const state = requestIfAny(env.incoming as IncomingMessage);
    if (state?.notRun) return v1Envelope(new Refusal('not-run', 'Not run: an earlier request on this connection closed it.'), true);
    if (state?.refusedPath) return v1Envelope(new Refusal('dot-segment-path', state.refusedPath), false);
    return fetch(request, env);
  };
  // The adaptor's listener with an error handler of ours (its createAdaptorServer takes none).
  const listener = getRequestListener(guarded, { errorHandler: adaptorErrorAnswer });
  const server = createNodeServer(
    {
      requireHostHeader: false,
      headersTimeout: options.headersTimeoutMs,
      requestTimeout: options.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, options.headersTimeoutMs),
    },
    // One listener for every request, made once: each request is prepared, then handed to the
    // app. Node's 'request' emit with a single listener calls it without copying a listener list.
    (req, res) => {
      prepareRequest(req, res, budget, options);
      void listener(req, res);
    },
  );
  // Past the cap Node closes each new connection at once; an idle kept-alive one ends after KEEP_ALIVE_IDLE_MS.
  server.maxConnections = options.maxConnections ?? defaultMaxConnections();
  server.keepAliveTimeout = KEEP_ALIVE_IDLE_MS;
  readUnframedBodies(server, {
    maxBytes: budget.maxBytes,
    idleMs: UNFRAMED_BODY_IDLE_MS,
    deadlineMs: options.requestTimeoutMs,
    bodies: budget.bodies,
  });
  const perAddress = options.maxConnectionsPerAddress ?? defaultMaxConnectionsPerAddress(server.maxConnections);
  // After readUnframedBodies: a connection past its address's cap is closed before anything reads it.
  if (perAddress !== false) capConnectionsPerAddress(server, new ConnectionSlots(perAddress));
  // After readUnframedBodies, which takes over the connection listeners: this one sees the real sockets.
  cutStalledSenders(server, trackConnections(server), options.requestTimeoutMs);
  server.on('clientError', (error: Error & { code?: string }, socket: Socket) => onClientError(error, socket, budget, options));
  // CONNECT asks for a tunnel, as to a proxy: Node would drop the connection without a word.
  server.on('connect', (_req: IncomingMessage, socket: Socket) =>
    endWithEnvelope(socket, 400, 'CONNECT is not served: v1gate is no proxy, and v1 calls are POST requests.'),
  );
  return server;
}

/**
 * Each connection takes a slot of its client address until it closes; one past its address's cap
 * is closed at once, never read (the cap on all connections is Node's, checked before this). The
 * listeners that read connections are handed only those within the cap.
 */
function capConnectionsPerAddress(server: Server, slots: ConnectionSlots): void {
  const readers = server.listeners('connection') as ((socket: Duplex) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const release = socket.remoteAddress === undefined ? undefined : slots.take(socket.remoteAddress);
    if (!release) return void abandon(socket);
    socket.once('close', release);
    for (const reader of readers) reader.call(server, socket);
  });
}

/**
 * A server of the gateway's own on a loopback port of its own (the embedded sandbox the gateway
 * calls, a cluster's hub): its connections never take a slot of the public listener's caps, nor
 * does one address's cap apply (every connection is the gateway's, from one loopback address).
 */
export async function listenOnLoopback(
  fetch: (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>,
  options: ServerOptions,
): Promise<{ origin: string; server: Server; close(): Promise<void> }> {
  const server = createServer(fetch, { ...options, maxConnectionsPerAddress: false });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What libuv still holds of a socket's write in progress (Node's own handle, not typed by @types/node). */
type WatchedSocket = Socket & { _handle?: { writeQueueSize?: number } | null };

/**
 * A client that never reads its answers would hold its connection, and the answer bytes queued on
 * it, for ever: Node has no send deadline, and an answer streamed with backpressure waits for a
 * drain that never comes. Every second each connection with answer bytes waiting is looked at;
 * one whose bytes have not moved (no write completed, nothing left the kernel queue) for
 * `timeoutMs` is cut. A client that reads, however slowly, moves them and keeps its connection.
 */
function cutStalledSenders(server: Server, open: ReadonlyMap<WatchedSocket, ConnectionState>, timeoutMs: number): void {
  const check = () => {
    const now = Date.now();
    for (const [socket, connection] of open) {
      if (socket.writableLength === 0) {
        connection.sendProgress = undefined;
        continue;
      }
      // Bytes whose write completed, and what libuv still holds of the one in progress.
      const moved = `${socket.bytesWritten - socket.writableLength}/${socket._handle?.writeQueueSize ?? 0}`;
      const last = connection.sendProgress;
      if (last?.moved !== moved) connection.sendProgress = { moved, since: now };
      else if (now - last.since >= timeoutMs) abandon(socket);
    }
  };
  const timer = setInterval(check, Math.min(1_000, timeoutMs)).unref();
  server.once('close', () => clearInterval(timer));
}

/**
 * Before any app sees a request: its budget, its target read as a path (absolute-form included)
 * and normalised, a Host the adaptor can use, and whether it may run at all on its connection.
 */
function prepareRequest(req: IncomingMessage, res: ServerResponse, budget: RequestBudget, options: ServerOptions): void {
  const request = requestOf(req);
  request.budget = budget;
  const connection = connectionOf(req.socket);
  connection.inFlight += 1;
  connection.request = req;
  connection.response = res;
  // One listener, made once for every request (it reads the request from the response): a closure
  // and a `once` wrapper per listener per call were a visible share of the server's own CPU.
  res.on('close', answerGone);
  let target = req.url ?? '/';
  const absolute = absoluteFormParts(target);
  if (absolute) {
    // The authority of an absolute-form target stands for the Host header (RFC 9112, 3.2.2).
    req.headers.host = absolute.authority;
    target = absolute.originForm;
  }
  if (!isValidHost(req.headers.host ?? '')) req.headers.host = 'localhost';
  const normal = normalizeRequestTarget(target);
  if (normal === undefined) request.refusedPath = 'Invalid path: a path may not contain "." or ".." segments.';
  req.url = normal ?? target;
  if (options.calls && ROUTES.namesCall(req.url)) {
    request.countedBy = options.calls;
    options.calls.started();
  }
  if (connection.closing) request.notRun = true;
  else if (endsConnection(req, options.keepAlive)) {
    connection.closing = true;
    // Whatever part of the app answers (the facade, shadow mode, an error), the client is told.
    res.setHeader('connection', 'close');
  }
}

/**
 * A request's answer has gone (its response closed): its body's pool bytes are given back, its
 * connection has one request fewer in flight, and a call is counted finished.
 */
function answerGone(this: ServerResponse): void {
  releaseBody(this.req);
  connectionOf(this.req.socket).inFlight -= 1;
  requestIfAny(this.req)?.countedBy?.finished();
}

/** What Node's parser could not take from a connection: a deadline passed, or bytes that are no request. */
function onClientError(error: Error & { code?: string }, socket: Socket, budget: RequestBudget, options: ServerOptions): void {
  // Bytes after a `Connection: close` request: Node's parser refuses them, so that pipelined
  // request never runs; the request in flight is answered as usual, then the connection closes.
  if (error.code === 'HPE_CLOSED_CONNECTION') return;
  const connection = connectionOf(socket);
  const current = connection.request;
  const inFlight = connection.inFlight > 0;
  const response = connection.response;
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  if (timedOut && current && !current.complete) {
    // The deadline passed with the body still arriving. Answered already: nothing is left to say.
    if (!inFlight) return void abandon(socket);
    // Its reader fails now and the route answers and closes; a route that is not reading it
    // has as long as a body may stall to answer, then the connection is cut.
    passRequestDeadline(current);
    setTimeout(() => response?.writableFinished || abandon(socket), budget.idleTimeoutMs).unref();
    return;
  }
  if (timedOut && inFlight) {
    // The headers of a request pipelined behind the one in flight are late: that answer is the connection's last.
    connection.closing = true;
    response?.once('close', () => abandon(socket));
    return;
  }
  if (inFlight) {
    // The request in flight reads this mark after its body and answers the error itself, then closes.
    const message = 'The request body is longer than its Content-Length announced. Count Content-Length in bytes, not characters.';
    cutBody(socket, new BodyReadError('incomplete', message));
    return;
  }
  if (!socket.writable || error.code === 'ECONNRESET') return void abandon(socket);
  if (timedOut) return endWithEnvelope(socket, 408, `The request headers did not arrive within ${options.headersTimeoutMs} ms.`);
  endWithEnvelope(socket, 400, `Malformed HTTP request (${error.code ?? 'parse error'}).`);
}
