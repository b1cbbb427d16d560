import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCredentialFile, type CredentialEntry } from '../../src/upstream/auth/credential-map.js';
import { rotateEntry } from '../../src/upstream/auth/credential-edits.js';
import { hashSecret } from '../../src/upstream/auth/secret-hash.js';
import { startFaultUpstream, startGatewayOver, type FaultUpstream } from '../support/fault-upstream.js';
import { emptyCredentialFile, rememberSecret, startTestGateway, type TestGateway } from '../support/gateway.js';

/**
 * The credential map over a real gateway and its real sandbox: legacy keys that v2 has never heard
 * of, each checked here against its secret's hash and acting toward v2 as a sub account's OAuth
 * app (today's v2) or JWT app. What the issue asks to be shown: every call works unchanged, a wrong
 * secret is refused without any v2 call, 100 calls cause one token request, a rotated secret works
 * while the old one ends at its time, and v2 never saw any of it.
 */

const LEGACY = { api_key: 'legacy-key-of-an-old-integration', api_secret: 'legacy-secret-in-an-old-config-file' };
const LEGACY_JWT = { api_key: 'legacy-key-on-a-jwt-app', api_secret: 'another-legacy-secret-0123' };

let gw: TestGateway;
let file: string;
/** The sub account the legacy keys act as, with its own OAuth app and JWT pair. */
let sub: { id: string; owner_email: string; api_key: string; api_secret: string; client_id: string; client_secret: string };
let tokenEndpoint: FaultUpstream;

async function entry(v1: typeof LEGACY, v2: CredentialEntry['v2']): Promise<CredentialEntry> {
  return { api_key: v1.api_key, secret_hash: await hashSecret(v1.api_secret), previous_secrets: [], v2 };
}

async function writeMap(entries: CredentialEntry[]): Promise<void> {
  writeFileSync(file, JSON.stringify(entries));
  const reloaded = gw.reloadCredentials();
  expect(reloaded).toMatchObject({ ok: true });
}

/** The map the tests start from: LEGACY as the sub account's OAuth app, LEGACY_JWT as its JWT app. */
async function startingMap(): Promise<CredentialEntry[]> {
  return [await entry(LEGACY, oauthApp()), await entry(LEGACY_JWT, { kind: 'jwt', key: sub.api_key, secret: sub.api_secret })];
}

const oauthApp = (tokenUrl?: string): CredentialEntry['v2'] => ({
  kind: 'oauth',
  account_id: sub.id,
  client_id: sub.client_id,
  client_secret: sub.client_secret,
  ...(tokenUrl ? { token_url: tokenUrl } : {}),
});

async function metric(name: string, labels: string): Promise<number> {
  const text = await (await fetch(`${gw.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

const tokensIssued = () => metric('v1gate_v2_token_requests_total', 'outcome="issued"');

beforeAll(async () => {
  file = emptyCredentialFile();
  gw = await startTestGateway({ V2_CREDENTIALS_FILE: file });
  for (const secret of [LEGACY.api_secret, LEGACY_JWT.api_secret]) rememberSecret(secret);
  const created = await gw.v2('POST', '/accounts', {
    body: { first_name: 'Legacy', last_name: 'Owner', email: `legacy-owner-${Date.now()}@example.com`, password: 'Passw0rd!' },
  });
  expect(created.status).toBe(201);
  const app = await gw.control('POST', `/accounts/${created.body.id}/oauth-apps`, { name: 'v1gate' });
  const account = (await gw.control('GET', '/accounts')).body.accounts.find((a: { id: string }) => a.id === created.body.id);
  sub = { ...account, client_id: app.body.client_id, client_secret: app.body.client_secret };
  rememberSecret(sub.api_secret);
  rememberSecret(sub.client_secret);
  tokenEndpoint = await startFaultUpstream(`${gw.url}/oauth`);
  await writeMap(await startingMap());
});
afterAll(async () => {
  await tokenEndpoint.close();
  await gw.close();
});

describe('a key the credential map names', () => {
  it('acts as its OAuth app: the v1 answer is the sub account’s, though v2 never heard of the legacy key or secret', async () => {
    const answer = await gw.v1Raw('/user/getbyemail', { ...LEGACY, email: sub.owner_email });
    expect(answer.body).toMatchObject({ email: sub.owner_email });
    expect(answer.headers.get('x-v2-calls')).not.toBe('0');
    const meeting = await gw.v1('/meeting/create', {
      ...LEGACY,
      host_id: answer.body.id,
      type: 2,
      topic: 'Mapped',
      start_time: '2030-01-01T09:00:00Z',
      duration: 30,
    });
    expect(meeting.id).toEqual(expect.any(Number));
    expect((await gw.v2('GET', `/meetings/${meeting.id}`, { as: { apiKey: sub.api_key, apiSecret: sub.api_secret } })).body.topic).toBe(
      'Mapped',
    );
  });

  it("acts as its JWT app, which today's v2 refuses (JWT apps are retired): v1's 102, as for a pair v2 does not know", async () => {
    const answer = await gw.v1('/user/getbyemail', { ...LEGACY_JWT, email: sub.owner_email });
    expect(answer).toEqual({ error: { code: 102, message: 'Invalid api key or secret: the api_key and api_secret do not match.' } });
  });

  it('refuses a wrong secret with v1’s 102 and no v2 call at all, counted on /metrics', async () => {
    const before = await metric('v1gate_credentials_refused_total', 'reason="wrong_secret"');
    for (const secret of ['wrong', LEGACY_JWT.api_secret, sub.api_secret]) {
      const refused = await gw.v1Raw('/user/getbyemail', { api_key: LEGACY.api_key, api_secret: secret, email: sub.owner_email });
      expect(refused.body).toEqual({
        error: { code: 102, message: 'Invalid api key or secret: the api_key and api_secret do not match.' },
      });
      expect(refused.headers.get('x-v2-calls')).toBe('0');
    }
    expect(await metric('v1gate_credentials_refused_total', 'reason="wrong_secret"')).toBe(before + 3);
  });

  it('causes one token request for 100 v1 calls', async () => {
    // A new app, which has no token yet (a reload keeps the tokens of the apps it still names).
    const fresh = await gw.control('POST', `/accounts/${sub.id}/oauth-apps`, { name: 'v1gate-fresh' });
    rememberSecret(fresh.body.client_secret);
    await writeMap([
      await entry(LEGACY, { kind: 'oauth', account_id: sub.id, client_id: fresh.body.client_id, client_secret: fresh.body.client_secret }),
    ]);
    const before = await tokensIssued();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => gw.v1('/user/checkemail', { ...LEGACY, email: `nobody-${i}@example.com` })),
    );
    expect(answers.every((a) => a.existed_email === false)).toBe(true);
    expect((await tokensIssued()) - before).toBe(1);
    const after = await tokensIssued();
    for (let i = 0; i < 20; i++) await gw.v1('/user/checkemail', { ...LEGACY, email: `again-${i}@example.com` });
    expect(await tokensIssued()).toBe(after);
    await writeMap(await startingMap());
  });

  it('replaces a token v2 refused (revoked), once, and the call succeeds', async () => {
    await gw.v1('/user/checkemail', { ...LEGACY, email: 'warm@example.com' });
    const before = await tokensIssued();
    expect((await gw.control('POST', `/oauth-apps/${sub.client_id}/revoke-tokens`)).status).toBe(200);
    const answer = await gw.v1Raw('/user/getbyemail', { ...LEGACY, email: sub.owner_email });
    expect(answer.body).toMatchObject({ email: sub.owner_email });
    expect(await tokensIssued()).toBe(before + 1);
  });
});

describe('rotating a legacy secret', () => {
  it('accepts the new secret at once and the old one until its time, then refuses the old; v2 sees no change', async () => {
    const entries = [await entry(LEGACY, oauthApp())];
    await writeMap(entries);
    const now = new Date();
    const rotated = await rotateEntry(entries, {
      apiKey: LEGACY.api_key,
      newSecret: 'the-new-legacy-secret-after-rotation',
      // Long enough for the calls below to be made within it on a loaded machine: the map keeps the
      // time to the second, so the old secret is accepted for 7 to 8 s.
      keepOldUntil: new Date(now.getTime() + 8_000),
      now,
    });
    rememberSecret('the-new-legacy-secret-after-rotation');
    await writeMap(rotated);
    const tokensBefore = await tokensIssued();
    const withSecret = (api_secret: string) => gw.v1('/user/getbyemail', { api_key: LEGACY.api_key, api_secret, email: sub.owner_email });
    expect(await withSecret('the-new-legacy-secret-after-rotation')).toMatchObject({ email: sub.owner_email });
    expect(await withSecret(LEGACY.api_secret)).toMatchObject({ email: sub.owner_email });
    // Until the old secret's time is past (by the same clock the gateway reads).
    await new Promise((resolve) => setTimeout(resolve, now.getTime() + 8_100 - Date.now()));
    expect(await withSecret(LEGACY.api_secret)).toMatchObject({ error: { code: 102 } });
    expect(await withSecret('the-new-legacy-secret-after-rotation')).toMatchObject({ email: sub.owner_email });
    // v2 saw no change: the same app, the same token, the same account credentials.
    expect(await tokensIssued()).toBe(tokensBefore);
    const account = (await gw.control('GET', '/accounts')).body.accounts.find((a: { id: string }) => a.id === sub.id);
    expect(account).toMatchObject({ api_key: sub.api_key, api_secret: sub.api_secret });
  });

  it('keeps the map in force when the new file has problems', async () => {
    await writeMap([await entry(LEGACY, oauthApp())]);
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, '[{"api_key": "x"}]');
    const reloaded = gw.reloadCredentials();
    expect(reloaded.ok).toBe(false);
    expect(await gw.v1('/user/getbyemail', { ...LEGACY, email: sub.owner_email })).toMatchObject({ email: sub.owner_email });
    writeFileSync(file, good);
    expect(readCredentialFile(file)).toHaveLength(1);
  });
});

describe('the token endpoint’s own failures', () => {
  const fresh = async () => writeMap([await entry(LEGACY, oauthApp(`${tokenEndpoint.url}/token`))]);
  const call = () => gw.v1Raw('/user/getbyemail', { ...LEGACY, email: sub.owner_email });

  it('a refused app is v1gate’s misconfiguration: "unavailable", with nothing sent to v2', async () => {
    await writeMap([await entry(LEGACY, { ...oauthApp(), client_secret: 'not-the-app-secret' } as CredentialEntry['v2'])]);
    const answer = await call();
    expect(answer.body.error).toEqual({
      code: 503,
      message: expect.stringMatching(/could not authenticate to the v2 service.*Nothing was changed/),
    });
    expect(answer.headers.get('x-v2-calls')).toBe('0');
    expect(await metric('v1gate_v2_token_requests_total', 'outcome="refused"')).toBeGreaterThanOrEqual(1);
  });

  it('a limited app gets v1’s rate-limit error with the endpoint’s Retry-After', async () => {
    await fresh();
    tokenEndpoint.rules.push({
      path: /^\/token$/,
      fault: { kind: 'answer', status: 429, headers: { 'retry-after': '7' }, body: '{"error":"rate_limited"}' },
      times: 1,
    });
    const answer = await call();
    expect(answer.body.error.code).toBe(403);
    expect(answer.headers.get('retry-after')).toBe('7');
    expect(answer.headers.get('x-v2-calls')).toBe('0');
  });

  it('an endpoint that resets or answers garbage is "unavailable", nothing changed; the next call gets its token', async () => {
    await fresh();
    tokenEndpoint.rules.push({ path: /^\/token$/, fault: { kind: 'reset' }, times: 1 });
    tokenEndpoint.rules.push({ path: /^\/token$/, fault: { kind: 'answer', status: 200, body: '<html>' }, times: 1 });
    for (let i = 0; i < 2; i++) {
      const answer = await call();
      expect(answer.body.error).toEqual({ code: 503, message: expect.stringMatching(/OAuth token endpoint.*Nothing was changed\.$/) });
    }
    expect((await call()).body).toMatchObject({ email: sub.owner_email });
  });
});

describe('V2_CREDENTIALS_ONLY', () => {
  it('refuses a key the map does not name, without any v2 call; the mapped one works', async () => {
    // A second gateway over the first one's sandbox, serving mapped keys only.
    writeFileSync(file, JSON.stringify([await entry(LEGACY, oauthApp())]));
    const only = await startGatewayOver(gw.v2BaseUrl, { V2_CREDENTIALS_FILE: file, V2_CREDENTIALS_ONLY: 'on' });
    const post = async (params: Record<string, string>) => {
      const response = await fetch(`${only.url}/v1/user/getbyemail`, { method: 'POST', body: new URLSearchParams(params) });
      return { body: (await response.json()) as Record<string, unknown>, v2Calls: response.headers.get('x-v2-calls') };
    };
    try {
      const refused = await post({ ...gw.credentials, email: sub.owner_email });
      expect(refused.body).toEqual({ error: { code: 102, message: 'Invalid api key or secret: this api_key may not use this gateway.' } });
      expect(refused.v2Calls).toBe('0');
      expect((await post({ ...LEGACY, email: sub.owner_email })).body).toMatchObject({ email: sub.owner_email });
    } finally {
      await only.close();
    }
  });
});
