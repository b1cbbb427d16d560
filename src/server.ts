import { createAdaptorServer } from '@hono/node-server';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { V1Code } from '../mappings/errors.js';
import { BODY_OVERFLOW } from './v1-facade/app.js';

/**
 * The HTTP server, tuned for legacy v1 clients:
 * - no Host header required (old HTTP/1.0 libraries send none);
 * - a request whose body runs past its Content-Length (a client that counted characters, not
 *   bytes) makes Node's parser fail on the "next request": instead of Node destroying the socket
 *   under the request in flight (the client would see a reset, or hang), the socket is marked and
 *   the facade answers a clear v1 error, then closes;
 * - bytes that are no HTTP request at all get a v1 error envelope with HTTP 400, not a bare reset.
 */

const IN_FLIGHT = Symbol('v1gate.requestInFlight');
type MarkedSocket = Socket & { [IN_FLIGHT]?: number; [BODY_OVERFLOW]?: boolean };

export function createServer(fetch: (request: Request, env: any) => Response | Promise<Response>): Server {
  const server = createAdaptorServer({ fetch, serverOptions: { requireHostHeader: false } }) as Server;
  server.on('request', (req, res) => {
    const socket = req.socket as MarkedSocket;
    socket[IN_FLIGHT] = (socket[IN_FLIGHT] ?? 0) + 1;
    res.once('close', () => {
      socket[IN_FLIGHT] = (socket[IN_FLIGHT] ?? 1) - 1;
    });
  });
  server.on('clientError', (error: Error & { code?: string }, rawSocket: Socket) => {
    const socket = rawSocket as MarkedSocket;
    if ((socket[IN_FLIGHT] ?? 0) > 0) {
      // The facade reads this mark after the body and answers the error itself, then closes.
      socket[BODY_OVERFLOW] = true;
      return;
    }
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const body = JSON.stringify({
      error: { code: V1Code.invalidParameter, message: `Malformed HTTP request (${error.code ?? 'parse error'}).` },
    });
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
