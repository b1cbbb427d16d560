import { serve, type HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import type { Server } from 'node:http';
import { onOff } from '../shared/env.js';
import { BodyPool, BUFFERED_BODIES_PER_BODY, DEFAULT_BUDGET, releaseBody, setRequestBudget } from '../shared/request-body.js';
import { commaList, PrivateAccess, sandboxControlGuard } from '../shared/private-access.js';
import { createSandbox, mountSandbox } from './app.js';
import { keepSandboxData, SandboxDataError, type KeptData } from './persist.js';

/**
 * `npm run sandbox`: the v2 sandbox alone, at /v2 (its control API at /sandbox, its OAuth token
 * endpoint at /oauth/token), on PORT (8080) and HOST (127.0.0.1), with the gateway's SANDBOX_*
 * settings. SIGTERM or SIGINT stops it (its data written first, with SANDBOX_DATA_FILE).
 */
const env = (name: string): string | undefined => process.env[name]?.trim() || undefined;
const port = Number(env('PORT') ?? 8080);
const host = env('HOST') ?? '127.0.0.1';
const fixed = {
  apiKey: env('SANDBOX_API_KEY'),
  apiSecret: env('SANDBOX_API_SECRET'),
  oauthClientId: env('SANDBOX_OAUTH_CLIENT_ID'),
  oauthClientSecret: env('SANDBOX_OAUTH_CLIENT_SECRET'),
};
const dataFile = env('SANDBOX_DATA_FILE');
if (dataFile && !(fixed.apiKey && fixed.apiSecret)) {
  stopWith('SANDBOX_DATA_FILE: needs SANDBOX_API_KEY and SANDBOX_API_SECRET: the data belongs to the account they name');
}
const v2Auth = env('SANDBOX_V2_AUTH') ?? 'today';
if (v2Auth !== 'today' && v2Auth !== 'legacy') stopWith('SANDBOX_V2_AUTH: must be today or legacy');
const sandbox = createSandbox({ ...fixed, v2Auth });
let kept: KeptData | undefined;
try {
  kept = dataFile
    ? keepSandboxData(sandbox.state, sandbox.master, dataFile, (problem) => console.warn(`v2 sandbox: ${problem}`))
    : undefined;
} catch (error) {
  if (!(error instanceof SandboxDataError)) throw error;
  stopWith(error.message);
}
const root = new Hono();
// The control API changes any account and lists the master's secrets: served alone, it is a private
// page as it is inside the gateway (a loopback or PRIVATE_HOSTS Host, no forwarding but through
// TRUSTED_PROXIES, a loopback client), unless SANDBOX_PUBLIC=1 says the sandbox is meant to be shared.
const open = onOff.safeParse(env('SANDBOX_PUBLIC') ?? 'off');
if (!open.success) stopWith('SANDBOX_PUBLIC: must be on or off');
if (!open.data) {
  const access = new PrivateAccess({
    hosts: commaList(env('PRIVATE_HOSTS') ?? ''),
    trustedProxies: commaList(env('TRUSTED_PROXIES') ?? ''),
  });
  root.use('/sandbox/*', sandboxControlGuard(access));
}
mountSandbox(root, sandbox);
root.notFound((c) => c.json({ code: 404, message: `No such path: ${c.req.path.slice(0, 256)}` }, 404));
/**
 * Served alone, the sandbox answers anyone who reaches its port, and `/oauth/token` reads its body
 * before it knows the client: the gateway's defaults bound what that costs, fixed (100 unfinished
 * 4 MiB bodies took the process from 72 to 446 MiB, and more connections took more). Each body
 * 4 MiB, all of them together 64 MiB past each one's first 16 KiB (a body past the pool is refused
 * as busy), at most MAX_CONNECTIONS at once (Node closes the rest as they come), headers within
 * 10 s and the whole request within 30 s.
 */
const MAX_CONNECTIONS = 1_024;
const HEADERS_TIMEOUT_MS = 10_000;
const budget = { ...DEFAULT_BUDGET, bodies: new BodyPool(BUFFERED_BODIES_PER_BODY * DEFAULT_BUDGET.maxBytes) };
const bounded = (request: Request, env: HttpBindings) => {
  setRequestBudget(env.incoming, budget);
  // What the body held of the pool is given back when its answer has gone.
  env.outgoing.once('close', () => releaseBody(env.incoming));
  return root.fetch(request, env);
};

const server = serve({ fetch: (request, env) => bounded(request, env as HttpBindings), port, hostname: host }, (info) => {
  const at = info.family === 'IPv6' ? `[${info.address}]` : info.address;
  console.log(`v2 sandbox on http://${at}:${info.port}/v2 (pid ${process.pid})`);
  console.log(`  API key:    ${sandbox.credentials.apiKey}`);
  // A secret the operator configured stays off the screen; a generated one is shown this once.
  console.log(`  API secret: ${fixed.apiSecret ? '(SANDBOX_API_SECRET, not shown)' : sandbox.credentials.apiSecret}`);
  const app = sandbox.oauthApp;
  const appSecret = fixed.oauthClientSecret ? '(SANDBOX_OAUTH_CLIENT_SECRET, not shown)' : app.clientSecret;
  console.log(`  OAuth app:  account ${app.accountId}, client id ${app.clientId}, client secret ${appSecret}`);
  console.log(dataFile ? `  data kept in ${dataFile}` : '  data in memory only: lost at every stop (SANDBOX_DATA_FILE keeps it)');
});
Object.assign(server as Server, {
  maxConnections: MAX_CONNECTIONS,
  headersTimeout: HEADERS_TIMEOUT_MS,
  requestTimeout: DEFAULT_BUDGET.requestTimeoutMs,
});

const stop = (signal: NodeJS.Signals) => {
  server.close();
  kept?.close();
  console.log(`v2 sandbox stopped (${signal})`);
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

function stopWith(message: string): never {
  console.error(`v2 sandbox: cannot start: ${message}`);
  process.exit(1);
}
