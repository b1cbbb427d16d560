import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { createHmac } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { answerParent } from './child-ipc.js';

/**
 * The floor: the least a v1 → v2 pass-through can do, written for the benchmark. The same HTTP
 * stack as the gateway (hono on @hono/node-server, the body read straight from the Node request),
 * the form parsed (URLSearchParams), a cached HS256 JWT (node:crypto HMAC, reused while fresh, as
 * any sane pass-through would), ONE v2 call over an undici Pool with the settings of
 * src/upstream/client.ts, and the v2 body returned as it came. No validation, no mapping, no v1
 * shape, no limits: what v1gate adds over this is its overhead.
 *
 * Env: V2_BASE_URL (required), PORT (default 0), FLOOR_KEEP_ALIVE (on/off, default on: off answers
 * `Connection: close` like the gateway's legacy policy), UPSTREAM_CONNECTIONS / UPSTREAM_TIMEOUT_MS
 * (the gateway's defaults). Forked by the runner, it reports `{ type: 'ready', port }` over IPC.
 */

const base = new URL(process.env.V2_BASE_URL ?? 'http://127.0.0.1:9100/v2');
const basePath = base.pathname.replace(/\/+$/, '');
const keepAlive = !/^(off|false|0)$/i.test(process.env.FLOOR_KEEP_ALIVE ?? 'on');
const timeoutMs = Number(process.env.UPSTREAM_TIMEOUT_MS ?? 15_000);
// Same settings as V2Client's pool (src/upstream/client.ts).
const pool = new Pool(base.origin, {
  connections: Number(process.env.UPSTREAM_CONNECTIONS ?? 128),
  pipelining: 1,
  keepAliveTimeout: 30_000,
  keepAliveMaxTimeout: 600_000,
  headersTimeout: timeoutMs,
  bodyTimeout: timeoutMs,
  connect: { timeout: Math.min(timeoutMs, 5_000) },
});

const tokens = new Map<string, { token: string; exp: number }>();
const b64url = (text: string) => Buffer.from(text).toString('base64url');
const JWT_HEADER = b64url('{"alg":"HS256","typ":"JWT"}');
function tokenFor(key: string, secret: string): string {
  const now = Math.floor(Date.now() / 1000);
  const cacheKey = `${key}\0${secret}`;
  const cached = tokens.get(cacheKey);
  if (cached && cached.exp - now > 20) return cached.token;
  const exp = now + 60;
  const unsigned = `${JWT_HEADER}.${b64url(JSON.stringify({ iss: key, exp }))}`;
  const token = `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
  tokens.set(cacheKey, { token, exp });
  return token;
}

/** v1 path → the one v2 call a pass-through makes for it (the first call the translator makes). */
const enc = encodeURIComponent;
const ONE_CALL: Record<string, (f: URLSearchParams) => { method: 'GET' | 'POST'; path: string; body?: string }> = {
  '/v1/user/checkemail': (f) => ({ method: 'GET', path: `/users/email?email=${enc(f.get('email') ?? '')}` }),
  '/v1/meeting/get': (f) => ({ method: 'GET', path: `/meetings/${enc(f.get('id') ?? '')}` }),
  '/v1/user/get': (f) => ({ method: 'GET', path: `/users/${enc(f.get('id') ?? '')}` }),
  '/v1/meeting/list': (f) => ({
    method: 'GET',
    path: `/users/${enc(f.get('host_id') ?? '')}/meetings?type=scheduled&page_size=${enc(f.get('page_size') ?? '30')}&page_number=${enc(f.get('page_number') ?? '1')}`,
  }),
  '/v1/user/custcreate': (f) => ({
    method: 'POST',
    path: '/users',
    body: JSON.stringify({
      action: 'custCreate',
      user_info: {
        email: f.get('email'),
        type: Number(f.get('type') ?? 1),
        first_name: f.get('first_name'),
        last_name: f.get('last_name'),
      },
    }),
  }),
  '/v1/meeting/create': (f) => ({
    method: 'POST',
    path: `/users/${enc(f.get('host_id') ?? '')}/meetings`,
    body: JSON.stringify({
      topic: f.get('topic'),
      type: Number(f.get('type') ?? 2),
      start_time: f.get('start_time') ?? undefined,
      duration: Number(f.get('duration') ?? 60),
    }),
  }),
};

function readBody(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.once('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    incoming.once('error', reject);
  });
}

const app = new Hono<{ Bindings: { incoming: IncomingMessage } }>();
app.post('/v1/*', async (c) => {
  const form = new URLSearchParams(await readBody(c.env.incoming));
  const call = ONE_CALL[c.req.path.toLowerCase()]?.(form);
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=UTF-8', 'x-v2-calls': '1' };
  if (!keepAlive) headers.connection = 'close';
  if (!call) return c.body('{"error":{"code":300,"message":"floor: unknown path"}}', 200, headers);
  const v2 = await pool.request({
    method: call.method,
    path: basePath + call.path,
    headers: {
      authorization: `Bearer ${tokenFor(form.get('api_key') ?? '', form.get('api_secret') ?? '')}`,
      accept: 'application/json',
      ...(call.body ? { 'content-type': 'application/json' } : {}),
    },
    body: call.body,
  });
  return c.body(await v2.body.text(), 200, headers);
});

const server = createAdaptorServer({ fetch: app.fetch, serverOptions: { requireHostHeader: false } }) as Server;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  if (process.send) process.send({ type: 'ready', port, url: `http://127.0.0.1:${port}` });
  else console.log(`floor on http://127.0.0.1:${port}/v1 → ${base.href}`);
});

answerParent(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await pool.close();
});
