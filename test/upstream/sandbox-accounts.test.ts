import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxAccountsAt } from '../../src/upstream/auth/sandbox-accounts.js';

/**
 * A gateway over a sandbox of its own machine finds a legacy pair's OAuth app in the sandbox's
 * account list. An unknown key is any anonymous caller's to send, so the list it costs is bounded:
 * one read at a time, at most one a second, however many unknown keys arrive.
 */
let server: Server;
let origin: string;
let reads = 0;
let body: unknown = {
  accounts: [{ id: 'acct', api_key: 'key', api_secret: 'secret', oauth_apps: [{ client_id: 'cid', client_secret: 'csecret' }] }],
};

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url !== '/sandbox/accounts') return res.writeHead(404).end();
    reads++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("a local sandbox's account list", () => {
  it('gives a listed pair its app, and a wrong secret none', async () => {
    const appOf = sandboxAccountsAt(origin, 5_000);
    expect(await appOf({ apiKey: 'key', apiSecret: 'secret' })).toEqual({
      kind: 'oauth',
      accountId: 'acct',
      clientId: 'cid',
      clientSecret: 'csecret',
    });
    expect(await appOf({ apiKey: 'key', apiSecret: 'secrex' })).toBeUndefined();
  });

  it('is read once for a flood of unknown keys, and again only a second later', async () => {
    const appOf = sandboxAccountsAt(origin, 5_000);
    reads = 0;
    const started = Date.now();
    const flood = await Promise.all(Array.from({ length: 500 }, async (_, i) => appOf({ apiKey: `unknown-${i}`, apiSecret: 'x' })));
    expect(flood.every((app) => app === undefined)).toBe(true);
    for (let i = 0; i < 200; i++) await appOf({ apiKey: `later-${i}`, apiSecret: 'x' });
    // One read for all 700, but for one more each second a slow machine took over them.
    expect(reads).toBeLessThanOrEqual(1 + Math.floor((Date.now() - started) / 1000));
    expect(reads).toBeGreaterThanOrEqual(1);
    const before = reads;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await appOf({ apiKey: 'unknown-again', apiSecret: 'x' });
    expect(reads).toBe(before + 1);
  });

  it('takes an answer that is no account list as no account, without failing the call', async () => {
    body = { something: 'else' };
    try {
      const appOf = sandboxAccountsAt(origin, 5_000);
      expect(await appOf({ apiKey: 'key', apiSecret: 'secret' })).toBeUndefined();
    } finally {
      body = {
        accounts: [{ id: 'acct', api_key: 'key', api_secret: 'secret', oauth_apps: [{ client_id: 'cid', client_secret: 'csecret' }] }],
      };
    }
  });
});
