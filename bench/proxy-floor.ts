import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { answerParent } from './child-ipc.js';

/**
 * The shadow benchmark's floor: the least a forwarding hop in front of the primary can do, in its
 * own Node process. Plain node:http, the request body piped to an undici Pool (keep-alive,
 * pipelining 1), the primary's status, content type and bytes piped back. No framework, no body
 * limits, no comparison: what the shadow adds over this is its own cost; what this adds over the
 * direct call is the price of one more process on the path (two more socket hops, two more
 * wake-ups on a shared CPU).
 *
 * Env: PRIMARY_URL (required).
 */
const primary = new URL(process.env.PRIMARY_URL ?? 'http://127.0.0.1:9');
const pool = new Pool(primary.origin, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
const server = createServer((req, res) => {
  pool
    .request({
      method: req.method as 'POST',
      path: req.url ?? '/',
      headers: { 'content-type': req.headers['content-type'] ?? '' },
      body: req,
    })
    .then(
      (answer) => {
        const type = answer.headers['content-type'];
        res.writeHead(answer.statusCode, type ? { 'content-type': type } : {});
        answer.body.pipe(res);
      },
      () => res.writeHead(502).end(),
    );
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ type: 'ready', port, url: `http://127.0.0.1:${port}` });
});
answerParent(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await pool.close();
});
