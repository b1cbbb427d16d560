import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { v2Route } from '../../src/v2-contract/v2-route.js';
import { V2Authorizer } from '../../src/upstream/auth/authorizer.js';
import { OAuthTokens } from '../../src/upstream/auth/oauth-tokens.js';
import { V2Client } from '../../src/upstream/client.js';
import type { Credentials } from '../../src/upstream/credentials.js';
import { UpstreamUnavailable } from '../../src/upstream/errors.js';
import { TokenMinter } from '../../src/upstream/jwt.js';

/**
 * An OAuth token's calls go to the API host its token answer names (`api_url`: the account's data
 * region), over real loopback HTTP: a "service" that issues tokens and serves v2, and a "region" on
 * another port of the same host. Only a host of the configured service is followed.
 */

interface Host {
  origin: string;
  /** Requests seen: `METHOD /path authorization`. */
  seen: string[];
}

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function host(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<Host> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url?.split('?')[0]} ${req.headers.authorization?.split(' ')[0] ?? '-'}`);
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => (server.closeAllConnections(), server.close()) });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const json = (res: ServerResponse, body: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** The service: `/oauth/token` answers a token naming `apiUrl` (none: the field left out); its v2 answers `{where: 'service'}`. */
const service = (apiUrl: () => string | undefined) =>
  host((req, res) =>
    req.url?.startsWith('/oauth/token')
      ? json(res, { access_token: 'token-1', token_type: 'bearer', expires_in: 3600, ...(apiUrl() ? { api_url: apiUrl() } : {}) })
      : json(res, { where: 'service' }),
  );

/**
 * The client over `svc`, following api_url as `regionalBase` would a host of the service's own
 * domain: here any other origin on loopback, since the real rule (src/upstream/auth/api-url.ts,
 * proven by its own test) follows only https names, and this test's hosts are loopback ports.
 */
const followAnyLoopback = (_configured: string, apiUrl: string) =>
  /^http:\/\/127\.0\.0\.1:\d+$/.test(apiUrl) ? `${apiUrl}/v2` : undefined;

function clientOf(svc: Host, followApiUrl = true) {
  const oauth = new OAuthTokens({ defaultTokenUrl: () => `${svc.origin}/oauth/token`, timeoutMs: 2_000 });
  return new V2Client({
    baseUrl: `${svc.origin}/v2`,
    authorizer: new V2Authorizer(new TokenMinter({ ttlSeconds: 60, renewBeforeSeconds: 20, maxCachedKeys: 10 }), oauth),
    connections: 4,
    timeoutMs: 2_000,
    maxAttempts: 1,
    ...(followApiUrl ? { apiUrlBase: followAnyLoopback } : {}),
  });
}

const mapped: Credentials = {
  apiKey: 'legacy-key',
  apiSecret: 'legacy-secret',
  v2: { kind: 'oauth', accountId: 'acc', clientId: 'client', clientSecret: 'client-secret' },
};
const me = v2Route('GET', '/users/me').at();
const deleteMeeting = v2Route('DELETE', '/meetings/{meetingId}').at('1');

describe("an OAuth token's api_url", () => {
  it("sends the account's calls, undos too, to the region its token answer names, with the token", async () => {
    let regionOrigin = '';
    const svc = await service(() => regionOrigin);
    const region = await host((_req, res) => json(res, { where: 'region' }));
    regionOrigin = region.origin;
    const client = clientOf(svc);
    expect(await client.call(mapped, { target: me })).toEqual({ where: 'region' });
    await client.call(mapped, { target: deleteMeeting, priority: 'undo' });
    expect(region.seen).toEqual(['GET /v2/users/me Bearer', 'DELETE /v2/meetings/1 Bearer']);
    expect(svc.seen).toEqual(['POST /oauth/token Basic']);
    await client.close();
  });

  it('is not followed where the rule says no, nor with V2_FOLLOW_API_URL off, nor when the answer names none', async () => {
    for (const [apiUrl, follow] of [
      ['https://api-eu.elsewhere.example', true],
      ['not a url', true],
      [undefined, true],
      ['', true],
    ] as const) {
      const svc = await service(() => apiUrl);
      const client = clientOf(svc, follow);
      expect(await client.call(mapped, { target: me }), String(apiUrl)).toEqual({ where: 'service' });
      expect(svc.seen).toEqual(['POST /oauth/token Basic', 'GET /v2/users/me Bearer']);
      await client.close();
    }
    let regionOrigin = '';
    const svc = await service(() => regionOrigin);
    regionOrigin = (await host((_req, res) => json(res, { where: 'region' }))).origin;
    const off = clientOf(svc, false);
    expect(await off.call(mapped, { target: me })).toEqual({ where: 'service' });
    await off.close();
  });

  it("fails a call in flight at the region when a shutdown aborts the client's calls", async () => {
    let regionOrigin = '';
    const svc = await service(() => regionOrigin);
    // The region never answers: only the abort can end the call before its timeout.
    const region = await host(() => undefined);
    regionOrigin = region.origin;
    const client = clientOf(svc);
    const pending = client.call(mapped, { target: me }).catch((error: unknown) => error);
    await expect.poll(() => region.seen.length).toBe(1);
    await client.abort();
    const failure = await pending;
    expect(failure).toBeInstanceOf(UpstreamUnavailable);
    // The shutdown's failure, not the call's own timeout.
    expect((failure as Error).message).toMatch(/shutting down/);
  });
});
