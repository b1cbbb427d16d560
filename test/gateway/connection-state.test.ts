import { Agent, request, type IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import type { HttpBindings } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../src/http/server.js';
import { connectionOf, openConnections, requestIfAny, type ConnectionState, type RequestState } from '../../src/http/transport-state.js';
import { rawExchange } from '../support/raw-http.js';

/**
 * The transport keeps what it knows of a connection in one state object and of a request in
 * another (src/http/transport-state.ts). These tests watch those objects from inside the app a
 * real server calls: one per connection, shared by its requests and by the stream an unframed
 * body is read from, counting the request in flight; and gone with the connection, so that many
 * connections leave nothing behind.
 */

interface Seen {
  connection: ConnectionState;
  request: RequestState | undefined;
  incoming: IncomingMessage;
  inFlight: number;
  closing: boolean;
  body: string;
}

const seen: Seen[] = [];
let server: Awaited<ReturnType<typeof listenOnLoopback>>;

beforeAll(async () => {
  server = await listenOnLoopback(
    async (req, env) => {
      const incoming = (env as HttpBindings).incoming;
      const connection = connectionOf(incoming.socket);
      const body = req.method === 'POST' ? await req.text() : '';
      seen.push({
        connection,
        request: requestIfAny(incoming),
        incoming,
        inFlight: connection.inFlight,
        closing: connection.closing,
        body,
      });
      return new Response('ok');
    },
    { keepAlive: true, headersTimeoutMs: 5_000, requestTimeoutMs: 10_000 },
  );
});
afterAll(() => server?.close());

const port = () => Number(new URL(server.origin).port);

function get(agent: Agent | undefined, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: port(), path: '/state', agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Until the server has seen every connection close (its own 'close' events, not the client's). */
async function allClosed(): Promise<void> {
  while (openConnections(server.server).size > 0) await nextTurn();
}

describe('the state of a connection', () => {
  it('is one object per connection, shared by its requests, counting the one in flight, and lets go of them as it closes', async () => {
    seen.length = 0;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 3; i++) expect(await get(agent)).toBe(200);
    expect(await get(agent, { connection: 'close' })).toBe(200);
    agent.destroy();
    await allClosed();

    const [first] = seen;
    expect(seen).toHaveLength(4);
    for (const call of seen) {
      expect(call.connection).toBe(first!.connection);
      expect(call.inFlight).toBe(1);
      expect(call.request).toBeDefined();
    }
    // Each request has its own state; the last one ended the connection.
    expect(new Set(seen.map((call) => call.request)).size).toBe(4);
    expect(seen.map((call) => call.closing)).toEqual([false, false, false, true]);
    expect(first!.connection).toMatchObject({ inFlight: 0, request: undefined, response: undefined });
  });

  it('is the same object for the socket and the stream an HTTP/1.0 body without a length is read from', async () => {
    seen.length = 0;
    let socketState: ConnectionState | undefined;
    const watch = () => (socketState = [...openConnections(server.server).values()][0]);
    server.server.prependOnceListener('connection', () => void nextTurn().then(watch));
    const reply = await rawExchange(port(), 'POST /state HTTP/1.0\r\nContent-Type: text/plain\r\n\r\nunframed body', { halfClose: true });
    await allClosed();

    expect(reply.responses[0]?.status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.body).toBe('unframed body');
    // The request arrived on the parser's stream, not on the socket, and found the socket's state.
    expect(seen[0]!.incoming.socket).not.toBeInstanceOf(Socket);
    expect(seen[0]!.connection).toBe(socketState);
  });

  it('leaves nothing behind after many connections: none is still open, and every state is collected', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    seen.length = 0;
    const CONNECTIONS = 300;
    for (let batch = 0; batch < CONNECTIONS / 20; batch++) {
      const statuses = await Promise.all(Array.from({ length: 20 }, () => get(undefined, { connection: 'close' })));
      expect(statuses.every((status) => status === 200)).toBe(true);
    }
    await allClosed();

    expect(new Set(seen.map((call) => call.connection)).size).toBe(CONNECTIONS);
    expect(seen.every((call) => call.connection.inFlight === 0 && call.connection.request === undefined)).toBe(true);
    const states = seen.flatMap((call) => [new WeakRef(call.connection), new WeakRef(call.request!), new WeakRef(call.incoming)]);
    seen.length = 0;
    await nextTurn();
    gc();
    await nextTurn();
    gc();
    expect(states.filter((state) => state.deref() !== undefined)).toHaveLength(0);
  });
});
