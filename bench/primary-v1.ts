import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerParent } from './child-ipc.js';

/**
 * A stand-in for the real v1 in the shadow benchmark, in its own process: every POST answers the
 * v1 reference's example of `/user/checkemail` at once, so what is measured is the shadow's own
 * cost, not the primary's.
 */
const ANSWER = JSON.stringify({ existed_email: true });
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' }).end(ANSWER));
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ type: 'ready', port, url: `http://127.0.0.1:${port}` });
});
answerParent(() => new Promise<void>((resolve) => server.close(() => resolve())));
