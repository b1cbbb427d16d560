import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/sandbox/clock.js';
import { SPEC_LIMITS } from '../../src/sandbox/rate-limit.js';
import { signV2Token as signJwt } from '../../src/upstream/jwt.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';

/** The server-to-server OAuth token endpoint at /oauth/token, and its tokens on every v2 route. */

let sb: RunningSandbox;
let now = new Date(Math.floor(Date.now() / 1000) * 1000);
const clock: Clock = { now: () => now };
beforeAll(async () => {
  sb = await startSandbox({ clock, oauthClientId: 'sandbox-client', oauthClientSecret: 'sandbox-client-secret' });
});
afterAll(() => sb.close());

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

async function requestToken(
  options: {
    id?: string;
    secret?: string;
    accountId?: string;
    grant?: string;
    authorization?: string;
    method?: string;
    form?: boolean;
  } = {},
): Promise<TokenAnswer> {
  const params = new URLSearchParams({
    grant_type: options.grant ?? 'account_credentials',
    account_id: options.accountId ?? sb.sandbox.master.id,
  });
  const authorization = options.authorization ?? basic(options.id ?? 'sandbox-client', options.secret ?? 'sandbox-client-secret');
  const response = await fetch(options.form ? `${sb.url}/oauth/token` : `${sb.url}/oauth/token?${params.toString()}`, {
    method: options.method ?? 'POST',
    headers: { authorization, ...(options.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    ...(options.form ? { body: params.toString() } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers };
}

describe('POST /oauth/token', () => {
  it('trades the master app for an hour-long bearer token of the master account', async () => {
    const answer = await requestToken();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
      token_type: 'bearer',
      expires_in: 3599,
      scope: expect.any(String),
      api_url: sb.url,
    });
    const me = await sb.v2('GET', '/users/me', { token: answer.body.access_token as string });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(sb.sandbox.master.ownerId);
  });

  it('takes the grant in a form body too, and answers each request a token of its own', async () => {
    const first = await requestToken({ form: true });
    const second = await requestToken();
    expect(first.status).toBe(200);
    expect(second.body.access_token).not.toBe(first.body.access_token);
    for (const token of [first.body.access_token, second.body.access_token]) {
      expect((await sb.v2('GET', '/users/me', { token: token as string })).status).toBe(200);
    }
  });

  it('refuses a wrong secret, an unknown client and a missing or malformed Basic header as the service does (400 invalid_client)', async () => {
    for (const answer of [
      await requestToken({ secret: 'wrong' }),
      await requestToken({ id: 'nobody' }),
      await requestToken({ authorization: 'Bearer x' }),
      await requestToken({ authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` }),
    ]) {
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ reason: 'Invalid client_id or client_secret', error: 'invalid_client' });
    }
  });

  it('refuses another grant, a missing account and another account than the app’s (400), and any method but POST', async () => {
    expect(await requestToken({ grant: 'client_credentials' })).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
    const missing = await fetch(`${sb.url}/oauth/token?grant_type=account_credentials`, {
      method: 'POST',
      headers: { authorization: basic('sandbox-client', 'sandbox-client-secret') },
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: 'invalid_request' });
    expect(await requestToken({ accountId: 'elsewhere' })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await requestToken({ method: 'GET' })).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });
});

describe('access tokens on v2 routes', () => {
  it('act as their app’s account: a sub account’s app sees its own users, not the master’s', async () => {
    const created = await sb.v2('POST', '/accounts', {
      body: { first_name: 'Sub', last_name: 'Owner', email: `sub-${Date.now()}@example.com`, password: 'Passw0rd!' },
    });
    expect(created.status).toBe(201);
    const app = await sb.control('POST', `/accounts/${created.body.id}/oauth-apps`, { name: 'Sub app' });
    expect(app.status).toBe(201);
    expect(app.body).toMatchObject({
      account_id: created.body.id,
      name: 'Sub app',
      client_id: expect.any(String),
      client_secret: expect.any(String),
    });
    const token = await requestToken({ id: app.body.client_id, secret: app.body.client_secret, accountId: created.body.id });
    expect(token.status).toBe(200);
    const me = await sb.v2('GET', '/users/me', { token: token.body.access_token as string });
    expect(me.body.id).toBe(created.body.owner_id);
    const listed = await sb.control('GET', '/accounts');
    const entry = listed.body.accounts.find((a: { id: string }) => a.id === created.body.id);
    expect(entry.oauth_apps).toEqual([expect.objectContaining({ client_id: app.body.client_id })]);
  });

  it('expire after expires_in seconds, and end at once when the app’s tokens are revoked', async () => {
    const started = now;
    const fresh = (await requestToken()).body.access_token as string;
    now = new Date(now.getTime() + 3598_000);
    expect((await sb.v2('GET', '/users/me', { token: fresh })).status).toBe(200);
    now = new Date(now.getTime() + 2_000);
    const expired = await sb.v2('GET', '/users/me', { token: fresh });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ code: 124, message: 'Access token is expired.' });

    const other = (await requestToken()).body.access_token as string;
    const revoked = await sb.control('POST', '/oauth-apps/sandbox-client/revoke-tokens');
    expect(revoked.body.revoked).toBeGreaterThanOrEqual(1);
    expect((await sb.v2('GET', '/users/me', { token: other })).status).toBe(401);
    expect((await sb.control('POST', '/oauth-apps/nobody/revoke-tokens')).status).toBe(400);
    now = started;
  });

  it('refuses an unknown bearer token and a JWT alike, and takes an issued token', async () => {
    const jwt = await signJwt(sb.sandbox.credentials.apiKey, sb.sandbox.credentials.apiSecret, Math.floor(now.getTime() / 1000) + 60);
    for (const token of ['not-a-token', jwt]) {
      expect(await sb.v2('GET', '/users/me', { token })).toMatchObject({
        status: 401,
        body: { code: 124, message: 'Invalid access token.' },
      });
    }
    expect((await sb.v2('GET', '/users/me', { token: (await requestToken()).body.access_token as string })).status).toBe(200);
  });
});

describe('token request limits', () => {
  it('answers 429 with Retry-After past a burst of ten requests per app, when the sandbox enforces limits', async () => {
    const limited = await startSandbox({ limits: SPEC_LIMITS, oauthClientId: 'c', oauthClientSecret: 's' });
    try {
      const ask = () =>
        fetch(`${limited.url}/oauth/token?grant_type=account_credentials&account_id=${limited.sandbox.master.id}`, {
          method: 'POST',
          headers: { authorization: basic('c', 's') },
        });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await ask()).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      const refused = await ask();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await refused.json()).toMatchObject({ error: 'rate_limited' });
    } finally {
      await limited.close();
    }
  });
});
