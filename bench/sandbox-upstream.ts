import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { createSandbox, mountSandbox } from '../src/sandbox/app.js';
import type { RateLimitCategory } from '../src/v2-contract/v2-route.js';
import { SPEC_LIMITS, callKindOf } from '../src/sandbox/rate-limit.js';
import { inProcessV2, seedV2 } from './seed.js';

/**
 * The realistic upstream: the embedded v2 sandbox alone in its own process (as `npm run sandbox`
 * serves it), with fixed credentials from SANDBOX_API_KEY / SANDBOX_API_SECRET. Its own rate
 * limits are OFF by default (today's per-plan limits would measure the limit, not the gateway);
 * SANDBOX_LIMITS=spec turns them on (the quota case, bench/quota.ts). It seeds the user and
 * meeting the benchmark reads (seed.ts) and reports them with `{ type: 'ready', port, seeded }`.
 *
 * It counts its v2 answers by rate-limit category, admitted or refused with 429, and answers
 * `{ type: 'counts' }` over IPC with them: the upstream's own view of how much quota was used.
 */

const apiKey = process.env.SANDBOX_API_KEY ?? 'benchApiKey00000';
const apiSecret = process.env.SANDBOX_API_SECRET ?? 'benchApiSecret0000000000000';
const sandbox = createSandbox({ apiKey, apiSecret, limits: process.env.SANDBOX_LIMITS === 'spec' ? SPEC_LIMITS : false });
const root = new Hono();

export type UpstreamCounts = Record<RateLimitCategory, { admitted: number; refused429: number }>;
const counts: UpstreamCounts = {
  light: { admitted: 0, refused429: 0 },
  medium: { admitted: 0, refused429: 0 },
  heavy: { admitted: 0, refused429: 0 },
  'resource-intensive': { admitted: 0, refused429: 0 },
};
root.use('/v2/*', async (c, next) => {
  await next();
  const count = counts[callKindOf(c.req.method, c.req.path.slice('/v2'.length)).category];
  if (c.res.status === 429) count.refused429++;
  else if (c.res.status !== 401) count.admitted++; // past the sandbox's limiter (it runs after the token check)
});
mountSandbox(root, sandbox);

const seeded = await seedV2(inProcessV2(root, sandbox));

const server = serve({ fetch: root.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1' }, (info: AddressInfo) => {
  if (process.send) process.send({ type: 'ready', port: info.port, seeded });
  else console.log(`v2 sandbox on http://127.0.0.1:${info.port}/v2`, seeded);
});

process.on('message', (message: { type?: string }) => {
  if (message?.type === 'counts') process.send?.({ type: 'counts', counts });
  if (message?.type === 'stop') server.close(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
