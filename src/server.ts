import { createAdaptorServer, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { renderV1Error, v1ErrorResponse } from './v1/errors.js';
import { CONTENT_TYPE } from './v1/serialize.js';
import { Refusal, toV1Error } from './translators/kit/failures.js';
import { readUnframedBodies } from './unframed-bodies.js';
import { BODY_OVERFLOW } from './v1-facade/app.js';

/**
 * The HTTP server, tuned for legacy v1 clients:
 * - no Host header required (old HTTP/1.0 libraries send none), and a malformed one ignored: v1
 *   routes do not depend on it;
 * - an HTTP/1.0 body without Content-Length is read to the end (unframed-bodies.ts);
 * - a request whose body runs past its Content-Length (a client that counted characters, not
 *   bytes) makes Node's parser fail on the "next request": instead of Node destroying the socket
 *   under the request in flight (the client would see a reset, or hang), the socket is marked and
 *   the facade answers a clear v1 error, then closes;
 * - bytes that are no HTTP request at all get a v1 error envelope with HTTP 400, not a bare reset;
 * - once a request ends its connection (keep-alive off, `Connection: close`, or HTTP/1.0 without
 *   keep-alive), nothing a client pipelined behind it on that connection runs: its answer would be
 *   thrown away with the connection, and a client that retries would make a duplicate;
 * - whole-request deadlines: the headers must arrive within `headersTimeoutMs` and the whole
 *   request within `requestTimeoutMs`, checked every second, so slow-drip connections (slowloris)
 *   end in seconds, not after Node's 300 s default.
 */

const IN_FLIGHT = Symbol('v1gate.requestInFlight');
/** Set on a socket once a request on it ends the connection: later requests on it must not run. */
const CLOSING = Symbol('v1gate.connectionClosing');
/** Set on a request pipelined behind one that ends the connection. */
const NOT_RUN = Symbol('v1gate.notRun');
const V1_PATH = /^\/+v1\//i;
/** Set on a request whose path may not be routed at all, with the reason answered. */
const REFUSED = Symbol('v1gate.refusedPath');
const DOT_SEGMENT = /^(\.|%2e){1,2}$/i;
/** What any of the rewrites below looks for: a run of slashes, a segment starting with a dot, a percent-escape. Most paths have none. */
const MAY_NEED_NORMALISING = /\/\/|\/\.|%/;
/** A Host the request adaptor can build a URL from: a name or IPv4 address, or a bracketed IPv6 one, with an optional port. */
const VALID_HOST = /^(?:[a-z0-9._-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The request path, normalised once before any routing: runs of slashes become one (`//v1/...`,
 * `/v1//user/get`), and under `/v1/` an encoded slash is a slash (`/v1/user%2Fget`), as legacy
 * clients that build paths by concatenation send them. A path with a dot segment (`.`, `..`, or
 * their encodings) is refused: URL parsing would resolve it, and `/v1/%2e%2e/v2/...` would reach
 * another API than the one the client named. Returns undefined for a refused path.
 */
export function normalizeRequestTarget(target: string): string | undefined {
  const at = target.indexOf('?');
  const path = at === -1 ? target : target.slice(0, at);
  const query = at === -1 ? '' : target.slice(at);
  if (!path.startsWith('/')) return target; // absolute-form or `*`: left to the parser
  if (!MAY_NEED_NORMALISING.test(path)) return target;
  let normal = path.replace(/\/{2,}/g, '/');
  if (V1_PATH.test(normal)) normal = normal.replace(/%2f/gi, '/').replace(/\/{2,}/g, '/');
  if (normal.split('/').some((segment) => DOT_SEGMENT.test(segment))) return undefined;
  return normal + query;
}
type MarkedSocket = Socket & { [IN_FLIGHT]?: number; [BODY_OVERFLOW]?: boolean; [CLOSING]?: boolean };

export interface ServerOptions {
  /** Keep v1 client connections alive between requests (V1_KEEP_ALIVE). */
  keepAlive: boolean;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** The largest body read to its end for an HTTP/1.0 client that sends no Content-Length. */
  maxBodyBytes?: number;
}

/** How long an HTTP/1.0 client sending a body without a length may pause before it is taken as complete (it normally closes its side). */
const UNFRAMED_BODY_IDLE_MS = 2_000;

function v1Envelope(refusal: Refusal, close: boolean): Response {
  return v1ErrorResponse(toV1Error(refusal), close ? { connection: 'close' } : {});
}

/**
 * Whether the answer to this request ends its connection. Keep-alive off is the v1 facade's
 * policy for v1 clients only: the gateway's own v2 calls to the embedded sandbox on this same
 * server keep their pooled connections.
 */
function endsConnection(req: IncomingMessage, keepAlive: boolean): boolean {
  const connection = (req.headers.connection ?? '').toLowerCase();
  if (connection.includes('close') || (!keepAlive && V1_PATH.test(req.url ?? ''))) return true;
  return req.httpVersion === '1.0' && !connection.includes('keep-alive');
}

export function createServer(
  fetch: (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>,
  options: ServerOptions = { keepAlive: true, headersTimeoutMs: 60_000, requestTimeoutMs: 300_000 },
): Server {
  const guarded = (request: Request, env: HttpBindings | Http2Bindings) => {
    const incoming = env.incoming as { [NOT_RUN]?: boolean; [REFUSED]?: string };
    if (incoming[NOT_RUN]) return v1Envelope(new Refusal('not-run', 'Not run: an earlier request on this connection closed it.'), true);
    if (incoming[REFUSED]) return v1Envelope(new Refusal('dot-segment-path', incoming[REFUSED]), false);
    return fetch(request, env);
  };
  const server = createAdaptorServer({
    fetch: guarded,
    serverOptions: {
      requireHostHeader: false,
      headersTimeout: options.headersTimeoutMs,
      requestTimeout: options.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, options.headersTimeoutMs),
    },
  }) as Server;
  readUnframedBodies(server, { maxBytes: options.maxBodyBytes ?? 4 * 1024 * 1024, idleMs: UNFRAMED_BODY_IDLE_MS });
  // First, before the adaptor's own listener hands the request to the app.
  server.prependListener('request', (req: IncomingMessage & { [NOT_RUN]?: boolean; [REFUSED]?: string }, res: ServerResponse) => {
    if (!VALID_HOST.test(req.headers.host ?? '')) req.headers.host = 'localhost';
    const normal = normalizeRequestTarget(req.url ?? '/');
    if (normal === undefined) req[REFUSED] = 'Invalid path: a path may not contain "." or ".." segments.';
    else req.url = normal;
    const socket = req.socket as MarkedSocket;
    if (socket[CLOSING]) req[NOT_RUN] = true;
    else if (endsConnection(req, options.keepAlive)) {
      socket[CLOSING] = true;
      // Whatever part of the app answers (the facade, shadow mode, an error), the client is told.
      res.setHeader('connection', 'close');
    }
  });
  server.on('request', (req, res) => {
    const socket = req.socket as MarkedSocket;
    socket[IN_FLIGHT] = (socket[IN_FLIGHT] ?? 0) + 1;
    res.once('close', () => {
      socket[IN_FLIGHT] = (socket[IN_FLIGHT] ?? 1) - 1;
    });
  });
  server.on('clientError', (error: Error & { code?: string }, rawSocket: Socket) => {
    const socket = rawSocket as MarkedSocket;
    // Bytes after a `Connection: close` request: Node's parser refuses them, so that pipelined
    // request never runs; the request in flight is answered as usual, then the connection closes.
    if (error.code === 'HPE_CLOSED_CONNECTION') return;
    if ((socket[IN_FLIGHT] ?? 0) > 0) {
      // The facade reads this mark after the body and answers the error itself, then closes.
      socket[BODY_OVERFLOW] = true;
      return;
    }
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const body = renderV1Error(toV1Error(new Refusal('malformed-request', `Malformed HTTP request (${error.code ?? 'parse error'}).`)));
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: ${CONTENT_TYPE.JSON}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
