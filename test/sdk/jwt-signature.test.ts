import { writeFileSync } from 'node:fs';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/v2-contract/sdk-signature.js';
import type { CredentialEntry } from '../../src/upstream/auth/credential-map.js';
import { hashSecret } from '../../src/upstream/auth/secret-hash.js';
import { signJwtForTest } from './jwt-forge.js';
import { emptyCredentialFile, rememberSecret, startTestGateway, type TestGateway } from '../support/gateway.js';

/**
 * POST /sdk/signature for a key the credential map gives a Meeting SDK app: today's JWT, checked
 * with jose against the SDK secret claim by claim, a host's ZAK from v2, and joins on the sandbox's
 * verifier of today's signatures. The key's OAuth app is the sandbox's own, so every v2 call runs
 * on today's authentication.
 */
describe('POST /sdk/signature with an SDK app', () => {
  let gateway: TestGateway;
  let file: string;
  let sdk: { sdk_key: string; sdk_secret: string };
  let meeting: { id: number; host_id: string; password: string };
  let owner: string;

  async function mapKey(withSdk: boolean): Promise<void> {
    const { credentials, oauthApp } = gateway.sandbox;
    const entry: CredentialEntry = {
      api_key: credentials.apiKey,
      secret_hash: await hashSecret(credentials.apiSecret),
      previous_secrets: [],
      v2: { kind: 'oauth', account_id: oauthApp.accountId, client_id: oauthApp.clientId, client_secret: oauthApp.clientSecret },
      ...(withSdk ? { sdk: { key: sdk.sdk_key, secret: sdk.sdk_secret } } : {}),
    };
    writeFileSync(file, JSON.stringify([entry]), { mode: 0o600 });
    const reloaded = gateway.reloadCredentials();
    if (!reloaded.ok) throw new Error(reloaded.problems.join('; '));
  }

  /** v2 as the sandbox's OAuth app: today's authentication, which the sandbox accepts however it is set to answer JWTs. */
  let token: string;
  const v2 = (method: 'GET' | 'POST', path: string, opts: { body?: unknown; query?: Record<string, string> } = {}) =>
    gateway.v2(method, path, { ...opts, token });

  beforeAll(async () => {
    file = emptyCredentialFile();
    gateway = await startTestGateway({ V2_CREDENTIALS_FILE: file });
    const { oauthApp } = gateway.sandbox;
    const granted = await fetch(
      `${new URL(gateway.v2BaseUrl).origin}/oauth/token?grant_type=account_credentials&account_id=${encodeURIComponent(oauthApp.accountId)}`,
      {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${oauthApp.clientId}:${oauthApp.clientSecret}`).toString('base64')}` },
      },
    );
    token = ((await granted.json()) as { access_token: string }).access_token;
    rememberSecret(token);
    sdk = (await gateway.control('POST', '/sdk/apps', {})).body;
    rememberSecret(sdk.sdk_secret);
    await mapKey(true);
    owner = (await v2('GET', '/users/me')).body.id;
    // The meeting's host is not the account's owner: the ZAK must be the host's, not the caller's.
    const host = await v2('POST', '/users', {
      body: {
        action: 'custCreate',
        user_info: { email: `sdk-host-${Date.now()}@example.com`, type: 2, first_name: 'Sdk', last_name: 'Host' },
      },
    });
    const created = await v2('POST', `/users/${host.body.id}/meetings`, { body: { topic: 'SDK JWT', type: 2 } });
    // Today's service gives a meeting created without a passcode one; the pages join with it.
    meeting = { id: created.body.id, host_id: host.body.id, password: created.body.password };
  });
  afterAll(async () => {
    await gateway.close();
  });

  async function sign(fields: Record<string, string>): Promise<{ status: number; body: any }> {
    const response = await fetch(`${gateway.url}/sdk/signature`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...gateway.credentials, ...fields }).toString(),
    });
    return { status: response.status, body: await response.json() };
  }
  const sdkJoin = async (body: Record<string, unknown>) => gateway.control('POST', '/sdk/join', body);

  it('answers a JWT with exactly the sample’s claims, verified with jose against the SDK secret, and no HMAC', async () => {
    const before = Math.floor(Date.now() / 1000);
    const answer = await sign({ meeting_number: String(meeting.id), role: '0' });
    const after = Math.floor(Date.now() / 1000);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['sdkKey', 'signature']);
    expect(answer.body.sdkKey).toBe(sdk.sdk_key);
    const { signature } = answer.body;
    expect(decodeProtectedHeader(signature)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const { payload } = await jwtVerify(signature, new TextEncoder().encode(sdk.sdk_secret), { algorithms: ['HS256'] });
    expect(Object.keys(payload).sort()).toEqual(['appKey', 'exp', 'iat', 'mn', 'role', 'sdkKey', 'tokenExp']);
    expect(payload).toMatchObject({ appKey: sdk.sdk_key, sdkKey: sdk.sdk_key, mn: meeting.id, role: 0 });
    // iat 30 s in the past; the default lifetime two hours, tokenExp with exp.
    expect(payload.iat).toBeGreaterThanOrEqual(before - 30);
    expect(payload.iat).toBeLessThanOrEqual(after - 30);
    expect(payload.exp! - payload.iat!).toBe(7_200);
    expect(payload['tokenExp']).toBe(payload.exp);
    // Not verifiable by the legacy secret, in either form.
    await expect(jwtVerify(signature, new TextEncoder().encode(gateway.credentials.api_secret))).rejects.toThrow();
    const legacy = {
      apiKey: gateway.credentials.api_key,
      apiSecret: gateway.credentials.api_secret,
      meetingNumber: String(meeting.id),
      role: 0 as const,
    };
    expect(verifySignature(signature, legacy).ok).toBe(false);
  });

  it.each([
    ['1800', 1_800],
    ['172800', 172_800],
  ])('signs a lifetime of %s seconds, the documented bounds', async (given, seconds) => {
    const answer = await sign({ meeting_number: String(meeting.id), role: '0', expirationSeconds: given, video_webrtc_mode: '1' });
    const { payload } = await jwtVerify(answer.body.signature, new TextEncoder().encode(sdk.sdk_secret));
    expect(payload.exp! - payload.iat!).toBe(seconds);
    expect(payload['tokenExp']).toBe(payload.exp);
    expect(payload['video_webrtc_mode']).toBe(1);
  });

  it.each([
    [{ role: '0', expirationSeconds: '1799' }, 'expiration_seconds'],
    [{ role: '0', expiration_seconds: '172801' }, 'expiration_seconds'],
    [{ role: '0', expirationSeconds: '2h' }, 'expiration_seconds'],
    [{ role: '0', video_webrtc_mode: '2' }, 'video_webrtc_mode'],
    [{ role: '2' }, 'role'],
    [{ role: '0', meeting_number: '12a' }, 'meeting_number'],
  ])('refuses bad input %o with a clear error naming the field, and signs nothing', async (fields, field) => {
    const answer = await sign({ meeting_number: String(meeting.id), ...fields });
    expect(answer.body).toEqual({ error: { code: 300, message: expect.stringContaining(field) } });
  });

  it('gives a wrong v1 secret nothing', async () => {
    const answer = await sign({ api_secret: 'not-the-secret', meeting_number: String(meeting.id), role: '1' });
    expect(answer.body).toEqual({ error: { code: 102, message: expect.any(String) } });
  });

  it('gives a host the meeting host’s ZAK, which the sandbox accepts to start the meeting', async () => {
    const answer = await sign({ meeting_number: String(meeting.id), role: '1' });
    expect(Object.keys(answer.body).sort()).toEqual(['sdkKey', 'signature', 'zak']);
    const hostZak = await v2('GET', `/users/${meeting.host_id}/token`, { query: { type: 'zak' } });
    const ownerZak = await v2('GET', `/users/${owner}/token`, { query: { type: 'zak' } });
    expect(answer.body.zak).toBe(hostZak.body.token);
    expect(answer.body.zak).not.toBe(ownerZak.body.token);
    // Today's route for the caller's own ZAK answers the owner's, as the token route does.
    expect((await v2('GET', '/users/me/zak')).body).toEqual({ token: ownerZak.body.token });
    const { payload } = await jwtVerify(answer.body.signature, new TextEncoder().encode(sdk.sdk_secret));
    expect(payload['role']).toBe(1);

    // Another user's ZAK does not start it; the host's does.
    const join = {
      meetingNumber: meeting.id,
      userName: 'Host',
      passWord: meeting.password,
      signature: answer.body.signature,
      sdkKey: answer.body.sdkKey,
    };
    expect((await sdkJoin({ ...join, zak: ownerZak.body.token })).body.errorCode).toBe(3711);
    const started = await sdkJoin({ ...join, zak: answer.body.zak });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ role: 1, status: 'in' });
    const attendee = await sign({ meeting_number: String(meeting.id), role: '0' });
    const joined = await sdkJoin({
      meetingNumber: meeting.id,
      userName: 'Guest',
      passWord: meeting.password,
      signature: attendee.body.signature,
      sdkKey: sdk.sdk_key,
    });
    expect(joined.body).toMatchObject({ role: 0, status: 'in' });
  });

  it('the sandbox refuses a JWT signed with another secret, for another meeting, or past its bounds', async () => {
    const answer = await sign({ meeting_number: String(meeting.id), role: '0' });
    const [header, payload] = answer.body.signature.split('.');
    const base = { meetingNumber: meeting.id, userName: 'Guest', sdkKey: sdk.sdk_key };
    expect((await sdkJoin({ ...base, signature: `${header}.${payload}.${'A'.repeat(43)}` })).body.errorCode).toBe(3712);
    expect((await sdkJoin({ ...base, meetingNumber: meeting.id + 1, signature: answer.body.signature })).body.errorCode).toBe(3706);
    const iat = Math.floor(Date.now() / 1000) - 30;
    const short = signJwtForTest(sdk.sdk_secret, {
      appKey: sdk.sdk_key,
      sdkKey: sdk.sdk_key,
      mn: meeting.id,
      role: 0,
      iat,
      exp: iat + 1_799,
      tokenExp: iat + 1_799,
    });
    expect((await sdkJoin({ ...base, signature: short })).body.errorCode).toBe(3712);
    const expired = signJwtForTest(sdk.sdk_secret, {
      appKey: sdk.sdk_key,
      sdkKey: sdk.sdk_key,
      mn: meeting.id,
      role: 0,
      iat: iat - 7_200,
      exp: iat - 1,
      tokenExp: iat - 1,
    });
    expect((await sdkJoin({ ...base, signature: expired })).body.errorCode).toBe(3705);
  });

  it('a key whose SDK app is taken away is signed the 1.9.1 way again', async () => {
    await mapKey(false);
    try {
      const answer = await sign({ meeting_number: String(meeting.id), role: '0' });
      expect(Object.keys(answer.body)).toEqual(['signature']);
      const legacy = {
        apiKey: gateway.credentials.api_key,
        apiSecret: gateway.credentials.api_secret,
        meetingNumber: String(meeting.id),
        role: 0 as const,
      };
      expect(verifySignature(answer.body.signature, legacy).ok).toBe(true);
    } finally {
      await mapKey(true);
    }
  });
});
