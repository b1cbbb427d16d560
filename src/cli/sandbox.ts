import { Hono } from 'hono';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type GatewayConfig } from '../config.js';
import { serverOptions } from '../gateway/parts.js';
import { createSandbox, mountSandbox, type Sandbox } from '../sandbox/app.js';
import { keepSandboxData, type KeptData } from '../sandbox/persist.js';
import { listenedOn } from '../sandbox-banner.js';
import { createServer } from '../http/server.js';
import { PrivateAccess, sandboxControlGuard } from '../shared/private-access.js';
import { prefixOf } from '../shared/route-owners.js';
import { describeStartError } from './start-errors.js';

/**
 * `npm run sandbox`: the v2 sandbox alone, at /v2 (its control API at /sandbox, its OAuth token
 * endpoint at /oauth/token), on PORT (8080) and HOST (127.0.0.1), with the gateway's settings read
 * by the gateway's loader (the SANDBOX_* ones, PRIVATE_HOSTS, TRUSTED_PROXIES, the V1_* bounds).
 * SIGTERM or SIGINT stops it (its data written first, with SANDBOX_DATA_FILE).
 *
 * Served alone, the sandbox answers anyone who reaches its port, and `/oauth/token` reads its body
 * before it knows the client: it is served by the gateway's own server, under the gateway's bounds
 * (100 unfinished 4 MiB bodies took a server without them from 72 to 446 MiB, and more took more):
 * each body within V1_MAX_BODY_BYTES, all of them together within V1_MAX_BUFFERED_BYTES (a body
 * past the pool is refused as busy), the connections within V1_MAX_CONNECTIONS and those of one
 * address within V1_MAX_CONNECTIONS_PER_ADDRESS, headers and the whole request within their time.
 */

/** The sandbox's app: its routes, the control API guarded unless SANDBOX_PUBLIC, and v2's not-found answer. */
function sandboxApp(config: GatewayConfig, sandbox: Sandbox): Hono {
  const root = new Hono();
  // The control API changes any account and lists the master's secrets: served alone, it is a private
  // page as it is inside the gateway (a loopback or PRIVATE_HOSTS Host, no forwarding but through
  // TRUSTED_PROXIES, a loopback client), unless SANDBOX_PUBLIC=1 says the sandbox is meant to be shared.
  if (!config.sandbox.public) root.use(`${prefixOf('sandboxControl')}/*`, sandboxControlGuard(new PrivateAccess(config.ops.privateAccess)));
  mountSandbox(root, sandbox);
  root.notFound((c) => c.json({ code: 404, message: `No such path: ${c.req.path.slice(0, 256)}` }, 404));
  return root;
}

function announce(config: GatewayConfig, sandbox: Sandbox, server: Server): void {
  const { address, port } = server.address() as AddressInfo;
  const { apiSecret, oauthClientSecret, dataFile } = config.sandbox;
  console.log(`v2 sandbox on ${listenedOn(address, port)}/v2 (pid ${process.pid})`);
  console.log(`  API key:    ${sandbox.credentials.apiKey}`);
  // A secret the operator configured stays off the screen; a generated one is shown this once.
  console.log(`  API secret: ${apiSecret ? '(SANDBOX_API_SECRET, not shown)' : sandbox.credentials.apiSecret}`);
  const app = sandbox.oauthApp;
  const appSecret = oauthClientSecret ? '(SANDBOX_OAUTH_CLIENT_SECRET, not shown)' : app.clientSecret;
  console.log(`  OAuth app:  account ${app.accountId}, client id ${app.clientId}, client secret ${appSecret}`);
  console.log(dataFile ? `  data kept in ${dataFile}` : '  data in memory only: lost at every stop (SANDBOX_DATA_FILE keeps it)');
}

function cannotStart(error: unknown, config?: GatewayConfig): never {
  const problem = describeStartError(error, config);
  console.error(problem ? `v2 sandbox: cannot start: ${problem}` : error);
  process.exit(1);
}

function start(): void {
  let config: GatewayConfig;
  let sandbox: Sandbox;
  let kept: KeptData | undefined;
  try {
    config = loadConfig();
    const { apiKey, apiSecret, oauthClientId, oauthClientSecret, rateLimits, v2Auth, dataFile, trafficLog } = config.sandbox;
    sandbox = createSandbox({
      apiKey,
      apiSecret,
      oauthClientId,
      oauthClientSecret,
      v2Auth,
      trafficLog,
      ...(rateLimits ? {} : { limits: false }),
    });
    kept = dataFile
      ? keepSandboxData(sandbox.state, sandbox.master, dataFile, (problem) => console.warn(`v2 sandbox: ${problem}`))
      : undefined;
  } catch (error) {
    cannotStart(error);
  }
  const server = createServer(sandboxApp(config, sandbox).fetch, {
    ...serverOptions(config),
    maxConnections: config.maxConnections,
    maxConnectionsPerAddress: config.maxConnectionsPerAddress,
  });
  server.once('error', (error) => cannotStart(error, config));
  server.listen(config.port, config.host, () => announce(config, sandbox, server));
  const stop = (signal: NodeJS.Signals) => {
    server.close();
    kept?.close();
    console.log(`v2 sandbox stopped (${signal})`);
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

start();
