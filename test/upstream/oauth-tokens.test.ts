import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPEC_LIMITS } from '../../src/sandbox/rate-limit.js';
import { OAuthTokenError, OAuthTokens, type OAuthApp, type TokenOutcome } from '../../src/upstream/auth/oauth-tokens.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';

/** The OAuth token cache against the sandbox's real token endpoint over loopback HTTP. */

let sb: RunningSandbox;
let app: OAuthApp;
const sandboxNow = new Date(Math.floor(Date.now() / 1000) * 1000);
beforeAll(async () => {
  sb = await startSandbox({ clock: { now: () => sandboxNow } });
  app = {
    kind: 'oauth',
    accountId: sb.sandbox.oauthApp.accountId,
    clientId: sb.sandbox.oauthApp.clientId,
    clientSecret: sb.sandbox.oauthApp.clientSecret,
  };
});
afterAll(() => sb.close());

/** A token cache and the outcomes of its requests so far, in a list (`issued` twice: two tokens asked for). */
function tokensWith(options: { now?: () => number; url?: string } = {}) {
  const tokens = new OAuthTokens({
    defaultTokenUrl: () => options.url ?? `${sb.url}/oauth/token`,
    timeoutMs: 2_000,
    ...(options.now ? { now: options.now } : {}),
  });
  const outcomes = (): TokenOutcome[] =>
    Object.entries(tokens.stats().requests).flatMap(([outcome, n]) => Array<TokenOutcome>(n).fill(outcome as TokenOutcome));
  return { tokens, outcomes };
}

describe('OAuthTokens', () => {
  it('fetches one token for 100 callers at once, and answers later callers from the cache', async () => {
    const { tokens, outcomes } = tokensWith();
    const all = await Promise.all(Array.from({ length: 100 }, () => tokens.tokenFor(app)));
    expect(new Set(all).size).toBe(1);
    for (let i = 0; i < 100; i++) expect(await tokens.tokenFor(app)).toBe(all[0]);
    expect(outcomes()).toEqual(['issued']);
    expect((await sb.v2('GET', '/users/me', { token: all[0]! })).status).toBe(200);
  });

  it('asks again five minutes before the token expires, once, and not before', async () => {
    let now = Date.now();
    const { tokens, outcomes } = tokensWith({ now: () => now });
    const first = await tokens.tokenFor(app);
    now += (3599 - 300) * 1000 - 1;
    expect(await tokens.tokenFor(app)).toBe(first);
    now += 1;
    const [second, third] = await Promise.all([tokens.tokenFor(app), tokens.tokenFor(app)]);
    expect(second).not.toBe(first);
    expect(third).toBe(second);
    expect(outcomes()).toEqual(['issued', 'issued']);
  });

  it('forgets a token v2 refused, once, however many calls saw the refusal', async () => {
    const { tokens, outcomes } = tokensWith();
    const first = await tokens.tokenFor(app);
    tokens.refused(app, first);
    const second = await tokens.tokenFor(app);
    tokens.refused(app, first); // a late 401 of the old token must not drop the new one
    expect(await tokens.tokenFor(app)).toBe(second);
    expect(outcomes()).toEqual(['issued', 'issued']);
  });

  it('reports a refused app, and fetches nothing for it from the cache afterwards', async () => {
    const { tokens, outcomes } = tokensWith();
    const wrong = { ...app, clientSecret: 'wrong' };
    const error = await tokens.tokenFor(wrong).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthTokenError);
    expect(error).toMatchObject({ outcome: 'refused', message: expect.stringMatching(/refused.*400.*invalid_client/) });
    expect((error as Error).message).not.toContain('wrong');
    const otherAccount = await tokens.tokenFor({ ...app, accountId: 'nope' }).catch((e: unknown) => e);
    expect(otherAccount).toMatchObject({ outcome: 'refused' });
    expect(outcomes()).toEqual(['refused', 'refused']);
  });

  it('reports the endpoint’s limit with its Retry-After', async () => {
    const limited = await startSandbox({ limits: SPEC_LIMITS });
    try {
      const limitedApp: OAuthApp = { kind: 'oauth', ...limited.sandbox.oauthApp };
      const caches = Array.from({ length: 11 }, () => tokensWith({ url: `${limited.url}/oauth/token` }));
      const results = await Promise.all(caches.map(({ tokens }) => tokens.tokenFor(limitedApp).catch((e: unknown) => e)));
      const refused = results.filter((r) => r instanceof OAuthTokenError);
      expect(refused).toHaveLength(1);
      expect(refused[0]).toMatchObject({ outcome: 'rate_limited', retryAfterMs: expect.any(Number) });
      expect((refused[0] as OAuthTokenError).retryAfterMs).toBeGreaterThanOrEqual(1000);
    } finally {
      await limited.close();
    }
  });

  it('reports an endpoint that is down, answers garbage, or hangs past the timeout as unavailable', async () => {
    const servers: Server[] = [];
    const serve = async (handler: Parameters<typeof createServer>[1]) => {
      const server = createServer(handler);
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/token`;
    };
    try {
      const garbage = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"token":1}'));
      const failing = await serve((_req, res) => res.writeHead(502).end('<html>bad gateway</html>'));
      const hanging = await serve(() => {});
      // An endless answer: read no further than a token answer can be, then refused as unavailable.
      let endlessSent = 0;
      const endless = await serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(16 * 1024, ' ');
        const pump = (): void => {
          while (!res.destroyed && endlessSent < 256 * 1024 * 1024) {
            endlessSent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
        };
        pump();
      });
      const closed = await serve(() => {});
      await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
      for (const url of [garbage, failing, hanging, endless, closed]) {
        const { tokens, outcomes } = tokensWith({ url });
        await expect(tokens.tokenFor(app)).rejects.toMatchObject({ outcome: 'unavailable' });
        expect(outcomes()).toEqual(['unavailable']);
      }
      // 64 KiB read, then the connection closed: what was written beyond is the sockets' buffers, not the answer.
      expect(endlessSent).toBeLessThan(64 * 1024 * 1024);
    } finally {
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });
});
