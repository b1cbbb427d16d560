import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';

/**
 * The fixed-answer v2 upstream: answers each v2 path the benchmarked translators call with the
 * real sandbox answer captured in bench/fixtures/v2-answers.json (capture-fixtures.ts), from a
 * pre-serialised buffer, on a bare node:http server. It costs as little as a v2 server can, so a
 * benchmark over it measures the gateway (and the floor), not the upstream.
 *
 * The JWT is checked cheaply, not verified: `Authorization: Bearer <three dot-separated parts>`,
 * else 401. Signature, `iss` and `exp` are not checked (the sandbox run checks them for real).
 * An unknown method/path answers a v2 404, which the gateway turns into a v1 error envelope and
 * the runner counts as an error — so a translator calling a path missing here shows up at once.
 *
 * Runs as its own process (forked by the runner; sends `{ type: 'ready', port }` over IPC), or
 * alone from the repository root: `PORT=9100 npx tsx bench/fixed-upstream.ts`.
 */

interface Fixture {
  method: string;
  pattern: string;
  status: number;
  body: unknown;
}

// From the working directory (the repository root, where the runner starts it): this file also runs compiled from bench/out/dist/.
const fixtures = JSON.parse(readFileSync(resolve('bench/fixtures/v2-answers.json'), 'utf8')) as { routes: Fixture[] };

interface Route {
  method: string;
  regex: RegExp;
  /** `name=value` the query must hold (a pattern's `?name=value`), else any query. */
  query: string | undefined;
  status: number;
  body: Buffer;
}

const routes: Route[] = fixtures.routes.map((f) => ({
  method: f.method,
  regex: new RegExp(`^${f.pattern.split('?')[0]!.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
  query: f.pattern.split('?')[1],
  status: f.status,
  body: f.status === 204 || f.body === null ? Buffer.alloc(0) : Buffer.from(JSON.stringify(f.body)),
}));

const JSON_TYPE = 'application/json; charset=utf-8';
const BEARER = /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/;
let answered = 0;

const server = createServer((req, res) => {
  // Drain any request body (POST/PATCH) before answering, as a real server would read it.
  req.resume();
  req.once('end', () => {
    answered++;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = (q === -1 ? url : url.slice(0, q)).replace(/^\/v2(?=\/)/, '');
    const query = q === -1 ? [] : url.slice(q + 1).split('&');
    if (!BEARER.test(req.headers.authorization ?? '')) return send(res, 401, Buffer.from('{"code":124,"message":"Invalid access token."}'));
    const route = routes.find((r) => r.method === req.method && r.regex.test(path) && (!r.query || query.includes(r.query)));
    if (!route)
      return send(res, 404, Buffer.from(JSON.stringify({ code: 404, message: `fixed upstream: no fixture for ${req.method} ${path}` })));
    send(res, route.status, route.body);
  });
});

function send(res: import('node:http').ServerResponse, status: number, body: Buffer): void {
  if (body.length === 0) {
    res.writeHead(status);
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': body.length });
  res.end(body);
}

server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  if (process.send) process.send({ type: 'ready', port });
  else console.log(`fixed v2 upstream on http://127.0.0.1:${port}/v2`);
});

process.on('message', (message: { type?: string }) => {
  if (message?.type === 'stats') process.send?.({ type: 'stats', answered });
  if (message?.type === 'stop') server.close(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
