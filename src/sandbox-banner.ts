import type { GatewayConfig } from './config.js';
import type { Sandbox } from './sandbox/app.js';
import { isLoopbackHost } from './shared/loopback.js';

/**
 * What the start banner says of the embedded sandbox, for one process or a cluster's primary: its
 * credentials (the v1/JWT pair, and the server-to-server OAuth app), a first call to try, and a
 * warning when it listens beyond this machine.
 */
export function announceSandbox(config: GatewayConfig, sandbox: Pick<Sandbox, 'credentials' | 'oauthApp'>, v1Url: string): void {
  const { credentials, oauthApp } = sandbox;
  console.log(`  sandbox API key:    ${credentials.apiKey}`);
  console.log(`  sandbox API secret: ${credentials.apiSecret}`);
  console.log(
    `  sandbox OAuth app:  account ${oauthApp.accountId}, client id ${oauthApp.clientId}, client secret ${oauthApp.clientSecret}`,
  );
  if (!isLoopbackHost(config.host)) {
    console.warn(
      `  WARNING: HOST=${config.host} serves the embedded sandbox beyond this machine: anyone who reaches it can use its v2 API` +
        (config.sandbox.public
          ? ' and its control API (SANDBOX_PUBLIC=1), which lists every api_secret.'
          : '; its control API stays loopback-only.'),
    );
  }
  console.log(`  try: curl -s -X POST ${v1Url}/user/list -d api_key=${credentials.apiKey} -d api_secret=${credentials.apiSecret}`);
}
