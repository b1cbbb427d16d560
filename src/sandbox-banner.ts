import type { GatewayConfig } from './config.js';
import type { Sandbox } from './sandbox/app.js';
import type { StartLines } from './ops/start-lines.js';
import { isLoopbackHost } from './shared/loopback.js';

/**
 * What the start banner says of the embedded sandbox, for one process or a cluster's primary: its
 * credentials (the v1/JWT pair, and the server-to-server OAuth app), a first call to try, and a
 * warning when it listens beyond this machine.
 */
export function announceSandbox(
  config: GatewayConfig,
  sandbox: Pick<Sandbox, 'credentials' | 'oauthApp'>,
  v1Url: string,
  lines: StartLines,
): void {
  const { credentials, oauthApp } = sandbox;
  const { apiSecret, oauthClientSecret } = config.sandbox;
  // A secret the operator configured is theirs to know and stays off the screen (and any log of
  // it); one generated at this start exists nowhere else, and is shown this once, on a terminal:
  // JSON lines go to a log collector, where it would be kept for anyone who reads the log.
  const shown = (value: string, configured: string | undefined, variable: string) =>
    lines.json && configured === undefined
      ? '(not written to a JSON log: GET /sandbox/accounts on this machine)'
      : shownOnce(value, configured, variable);
  const secret = shown(credentials.apiSecret, apiSecret, 'SANDBOX_API_SECRET');
  lines.say(`  sandbox API key:    ${credentials.apiKey}`);
  lines.say(`  sandbox API secret: ${secret}`);
  lines.say(
    `  sandbox OAuth app:  account ${oauthApp.accountId}, client id ${oauthApp.clientId}, client secret ${shown(oauthApp.clientSecret, oauthClientSecret, 'SANDBOX_OAUTH_CLIENT_SECRET')}`,
  );
  if (!isLoopbackHost(config.host)) {
    lines.warn(
      `  WARNING: HOST=${config.host} serves the embedded sandbox beyond this machine: anyone who reaches it can use its v2 API` +
        (config.sandbox.public
          ? ' and its control API (SANDBOX_PUBLIC=1), which lists every api_secret.'
          : '; its control API stays loopback-only.'),
    );
  }
  const trySecret = apiSecret === undefined && !lines.json ? credentials.apiSecret : '"$SANDBOX_API_SECRET"';
  lines.say(`  try: curl -s -X POST ${v1Url}/user/list -d api_key=${credentials.apiKey} -d api_secret=${trySecret}`);
  if (apiSecret === undefined)
    lines.say('  (new credentials and ids at every start: set SANDBOX_API_KEY and SANDBOX_API_SECRET to keep them)');
}

function shownOnce(value: string, configured: string | undefined, variable: string): string {
  return configured === undefined ? value : `(${variable}, not shown)`;
}

/**
 * Where the gateway listens, as its banner says: the address it is bound to (a wildcard HOST is
 * every address, which is what an operator set and must see), with the port it got.
 */
export function listenedOn(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
