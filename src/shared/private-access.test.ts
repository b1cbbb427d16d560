import { getRequestListener } from '@hono/node-server';
import fc from 'fast-check';
import { Hono, type Context } from 'hono';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrivateAccess, type PrivateKey } from './private-access.js';

/**
 * Where Node's request is at hand, whether a request was forwarded is read from Node's own header
 * object; without it (a test's `app.request`), through Hono. The two must judge every request alike:
 * the same request, over a real socket, is judged both ways, with forwarding headers in any letter
 * case, repeated, empty or malformed, and with and without its peer a trusted proxy.
 */

const RULES = [
  new PrivateAccess({ hosts: [], trustedProxies: ['127.0.0.1'] }),
  new PrivateAccess({ hosts: ['10.0.0.0/8'], trustedProxies: [] }),
];
const KEYS: PrivateKey[] = [{ kind: 'loopback' }, { kind: 'token', token: 't0ken', name: 'token' }, { kind: 'own-credential' }];

/** Everything each rule set says of a request, read as given. */
function judged(c: Context): unknown[] {
  return RULES.flatMap((access) => [access.addresses(c), access.fromTrustedProxy(c), ...KEYS.map((key) => access.judge(c, key))]);
}

let server: Server;
let port: number;

beforeAll(async () => {
  const app = new Hono();
  app.all('*', (c) => {
    const incoming = (c.env as { incoming: { socket: unknown } }).incoming;
    const viaNode = judged(c);
    // The same request, its Node side reduced to its socket: every header is read through Hono.
    c.env = { incoming: { socket: incoming.socket } };
    const viaHono = judged(c);
    return c.json({ same: JSON.stringify(viaNode) === JSON.stringify(viaHono), viaNode, viaHono });
  });
  const listener = getRequestListener(app.fetch);
  server = createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Sends one request with these header lines, as written, and returns the answer's body. */
function send(lines: readonly string[]): Promise<{ same: boolean; viaNode: unknown; viaHono: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))));
    socket.write(`GET /status HTTP/1.1\r\n${lines.map((line) => `${line}\r\n`).join('')}Connection: close\r\n\r\n`, 'latin1');
  });
}

const NAMES = [
  'Forwarded',
  'X-Forwarded-For',
  'X-Forwarded-Host',
  'X-Forwarded-Proto',
  'X-Real-IP',
  'X-Client-IP',
  'X-Cluster-Client-IP',
  'Client-IP',
  'True-Client-IP',
  'CF-Connecting-IP',
  'Fastly-Client-IP',
  'X-Original-Forwarded-For',
  'Via',
  'X-Forwarded',
  'Forwarded-For',
  'Authorization',
  'User-Agent',
];
const VALUES = [
  '',
  '127.0.0.1',
  '10.1.2.3',
  '203.0.113.7, 127.0.0.1',
  '"[::1]:4711"',
  'for=10.9.8.7;proto=https',
  'unknown',
  'Bearer t0ken',
  '1.1 proxy',
];

const randomCase = (name: string, flips: number) =>
  [...name].map((ch, i) => ((flips >> (i % 30)) & 1 ? ch.toUpperCase() : ch.toLowerCase())).join('');
const headerLine = fc
  .tuple(fc.constantFrom(...NAMES), fc.integer({ min: 0, max: 2 ** 30 - 1 }), fc.constantFrom(...VALUES))
  .map(([name, flips, value]) => `${randomCase(name, flips)}: ${value}`);
const host = fc.constantFrom('Host: localhost', 'Host: 127.0.0.1:8080', 'Host: 10.1.1.1', 'Host: example.com');

describe('PrivateAccess reads a request alike through Node and through Hono', () => {
  it('judges every mix of forwarding headers the same both ways', async () => {
    await fc.assert(
      fc.asyncProperty(host, fc.array(headerLine, { maxLength: 5 }), async (hostLine, lines) => {
        const answer = await send([hostLine, ...lines]);
        expect(answer.viaNode).toEqual(answer.viaHono);
        expect(answer.same).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
