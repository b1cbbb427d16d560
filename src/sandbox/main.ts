import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createSandbox, mountSandbox } from './app.js';

/** `npm run sandbox`: the v2 sandbox alone, at /v2 (its control API at /sandbox, its OAuth token endpoint at /oauth/token). */
const port = Number(process.env.PORT ?? 8080);
const sandbox = createSandbox({
  apiKey: process.env.SANDBOX_API_KEY,
  apiSecret: process.env.SANDBOX_API_SECRET,
  oauthClientId: process.env.SANDBOX_OAUTH_CLIENT_ID,
  oauthClientSecret: process.env.SANDBOX_OAUTH_CLIENT_SECRET,
});
const root = new Hono();
mountSandbox(root, sandbox);
serve({ fetch: root.fetch, port, hostname: process.env.HOST ?? '127.0.0.1' }, (info) => {
  console.log(`v2 sandbox on http://${info.address}:${info.port}/v2`);
  console.log(`  API key:    ${sandbox.credentials.apiKey}`);
  console.log(`  API secret: ${sandbox.credentials.apiSecret}`);
  const app = sandbox.oauthApp;
  console.log(`  OAuth app:  account ${app.accountId}, client id ${app.clientId}, client secret ${app.clientSecret}`);
});
