import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { createSandbox, mountSandbox } from '../src/sandbox/app.js';
import { inProcessV2, seedV2 } from './seed.js';

/**
 * The realistic upstream: the embedded v2 sandbox alone in its own process (as `npm run sandbox`
 * serves it), with its own rate limits OFF (the spec's 10 requests/s would measure the limit, not
 * the gateway) and fixed credentials from SANDBOX_API_KEY / SANDBOX_API_SECRET. It seeds the user
 * and meeting the benchmark reads (seed.ts) and reports them with `{ type: 'ready', port, seeded }`.
 */

const apiKey = process.env.SANDBOX_API_KEY ?? 'benchApiKey00000';
const apiSecret = process.env.SANDBOX_API_SECRET ?? 'benchApiSecret0000000000000';
const sandbox = createSandbox({ apiKey, apiSecret, limits: false });
const root = new Hono();
mountSandbox(root, sandbox);

const seeded = await seedV2(inProcessV2(root, apiKey, apiSecret));

const server = serve({ fetch: root.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1' }, (info: AddressInfo) => {
  if (process.send) process.send({ type: 'ready', port: info.port, seeded });
  else console.log(`v2 sandbox on http://127.0.0.1:${info.port}/v2`, seeded);
});

process.on('message', (message: { type?: string }) => {
  if (message?.type === 'stop') server.close(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
