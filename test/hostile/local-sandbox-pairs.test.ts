import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROOF_LIMITS } from '../../src/ratelimit/proof-budget.js';
import { createSandbox, mountSandbox, type Sandbox } from '../../src/sandbox/app.js';
import { rememberSecret } from '../support/gateway.js';
import { listen, type Listening } from '../support/listen.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';

/**
 * A gateway over a sandbox elsewhere on this machine (`npm run sandbox`, another gateway) finds a
 * legacy pair's OAuth app in that sandbox's account list (src/upstream/auth/sandbox-accounts.ts).
 * Every unknown api_key is an anonymous caller's to send, so what it makes the gateway spend there
 * is counted where it lands: a gateway in its own process, a sandbox in this one behind a counter
 * that sees every account-list read (each held 300 ms, a slow list, so reads that were not one at
 * a time would overlap), every token request and every v2 call.
 */

/** How long the counter holds each account-list read: long enough that two lookups not made one at a time overlap. */
const SLOW_LIST_MS = 300;

const counted = { listReads: 0, listsAtOnce: 0, mostListsAtOnce: 0, tokenRequests: 0, v2Calls: 0 };
let sandbox: Sandbox;
let upstream: Listening;
let gateway: GatewayProcess;
let pool: Pool;

beforeAll(async () => {
  sandbox = createSandbox({ limits: false });
  rememberSecret(sandbox.credentials.apiSecret);
  const root = new Hono();
  root.use('/sandbox/accounts', async (_c, next) => {
    counted.listReads++;
    counted.mostListsAtOnce = Math.max(counted.mostListsAtOnce, ++counted.listsAtOnce);
    try {
      await new Promise((resolve) => setTimeout(resolve, SLOW_LIST_MS));
      await next();
    } finally {
      counted.listsAtOnce--;
    }
  });
  root.use('/oauth/token', async (_c, next) => {
    counted.tokenRequests++;
    await next();
  });
  root.use('/v2/*', async (_c, next) => {
    counted.v2Calls++;
    await next();
  });
  mountSandbox(root, sandbox);
  upstream = await listen(root.fetch);
  gateway = await startGatewayProcess({ LOG_LEVEL: 'silent', V2_BASE_URL: `${upstream.url}/v2`, V1_RATE_LIMITS: 'off' });
  pool = new Pool(gateway.url, { connections: 16, pipelining: 1 });
}, 60_000);

afterAll(async () => {
  await pool?.close();
  await gateway?.kill();
  await upstream?.close();
});

const random = () => randomBytes(12).toString('base64url');

/** POST /v1/user/get for each pair, 16 at a time; each answer's v1 error code (0 when none). */
async function call(pairs: readonly { key: string; secret: string }[]): Promise<number[]> {
  const codes: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < pairs.length) {
        const { key, secret } = pairs[next++]!;
        const body = new URLSearchParams({ api_key: key, api_secret: secret, id: 'me' }).toString();
        const answer = await pool.request({
          method: 'POST',
          path: '/v1/user/get',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
        const parsed = (await answer.body.json()) as { error?: { code?: number } };
        codes.push(parsed.error?.code ?? 0);
      }
    }),
  );
  return codes;
}

describe('unknown pairs at a gateway over a sandbox elsewhere on this machine', () => {
  it('read the account list one at a time and at most once a second, fetch no token, and make at most one v2 call each, within the proof budget', async () => {
    const startedAt = Date.now();
    const unknown = Array.from({ length: 200 }, () => ({ key: random(), secret: random() }));
    const wrongSecrets = Array.from({ length: 50 }, () => ({ key: sandbox.credentials.apiKey, secret: random() }));
    const codes = await call([...unknown, ...wrongSecrets]);
    const seconds = (Date.now() - startedAt) / 1000;

    expect(codes.every((code) => code !== 0)).toBe(true);
    expect(counted.listReads).toBeGreaterThanOrEqual(1);
    // Once for all the unknown keys that arrive together, again only a second after the last read ended.
    expect(counted.listReads).toBeLessThanOrEqual(1 + Math.floor(seconds));
    expect(counted.mostListsAtOnce).toBe(1);
    // No pair matched an account's secret: no OAuth app acted for any of them.
    expect(counted.tokenRequests).toBe(0);
    // Each refused pair at most its proof, and all of them within the proof budget.
    expect(counted.v2Calls).toBeLessThanOrEqual(unknown.length + wrongSecrets.length);
    expect(counted.v2Calls).toBeLessThanOrEqual(PROOF_LIMITS.total.burst + PROOF_LIMITS.total.ratePerSecond * Math.ceil(seconds));
    console.log(
      `${codes.length} calls of unknown pairs in ${seconds.toFixed(1)} s: ${counted.listReads} account-list reads, ` +
        `${counted.tokenRequests} token requests, ${counted.v2Calls} v2 calls`,
    );
  }, 120_000);

  it('the owner, after the flood, is served as its account’s OAuth app: one token fetched for all its calls', async () => {
    const before = { ...counted };
    const owner = { key: sandbox.credentials.apiKey, secret: sandbox.credentials.apiSecret };
    const codes = await call(Array.from({ length: 20 }, () => owner));
    expect(codes).toEqual(Array.from({ length: 20 }, () => 0));
    expect(counted.tokenRequests - before.tokenRequests).toBe(1);
    // Its key is listed already: the owner's calls read no list.
    expect(counted.listReads).toBe(before.listReads);
  }, 60_000);
});
