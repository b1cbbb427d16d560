import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, signV2Token, type RunningSandbox } from './support/sandbox.js';
import { schemaProblems } from './support/openapi.js';
import { signV2Token as signJwt } from '../src/upstream/jwt.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

describe('sandbox authentication', () => {
  it('answers 401 with a v2 error body when no token is sent', async () => {
    const res = await sb.v2('GET', '/users', { token: null });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 124, message: expect.any(String) });
  });

  it('rejects a token signed with the wrong secret', async () => {
    const token = await signV2Token(sb.sandbox.credentials.apiKey, 'not-the-secret');
    const res = await sb.v2('GET', '/users', { token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(124);
  });

  it('rejects an expired token', async () => {
    const token = await signV2Token(sb.sandbox.credentials.apiKey, sb.sandbox.credentials.apiSecret, -10);
    const res = await sb.v2('GET', '/users', { token });
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/expired/i);
  });

  it('rejects a token whose issuer is no account', async () => {
    const token = await signV2Token('unknown-key', sb.sandbox.credentials.apiSecret);
    expect((await sb.v2('GET', '/users', { token })).status).toBe(401);
  });

  it('rejects garbage in the Authorization header', async () => {
    expect((await sb.v2('GET', '/users', { token: 'not.a.jwt' })).status).toBe(401);
  });

  it('refuses a valid access token in the access_token query parameter, as the service has since February 2023, with its own text', async () => {
    const token = await signV2Token(sb.sandbox.credentials.apiKey, sb.sandbox.credentials.apiSecret);
    const res = await fetch(`${sb.url}/v2/users/me?access_token=${token}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      code: 124,
      message: 'Invalid access token, this access token is not supported as query parameter string.',
    });
    expect((await sb.v2('GET', '/users/me', { token })).status).toBe(200);
  });

  it('refuses a JWT the account itself signed (JWT apps are retired), as an invalid token', async () => {
    const jwt = await signJwt(sb.sandbox.credentials.apiKey, sb.sandbox.credentials.apiSecret, Math.floor(Date.now() / 1000) + 60);
    const res = await sb.v2('GET', '/users/me', { token: jwt });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 124, message: 'Invalid access token.' });
  });
});

describe('sandbox rate limits', () => {
  it("answers 429 with Retry-After past a Pro account's 30 Light requests per second", async () => {
    const limited = await startSandbox({ limits: { scale: 1 } });
    try {
      const token = await signV2Token(limited.sandbox.credentials.apiKey, limited.sandbox.credentials.apiSecret);
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 90 }, () => limited.v2('GET', '/users/me', { token })));
      const elapsedSeconds = (Date.now() - started) / 1000;
      const admitted = answers.filter((a) => a.status !== 429).length;
      // A burst of 30, plus what refilled (30/s) while the requests were in flight, plus one token of rounding.
      expect(admitted).toBeGreaterThanOrEqual(30);
      expect(admitted).toBeLessThanOrEqual(30 + Math.ceil(elapsedSeconds * 30) + 1);
      expect(answers.some((a) => a.status === 429)).toBe(true);
      const refused = answers.find((a) => a.status === 429)!;
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refused.body.code).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('reference schema validation', () => {
  it('flags a wrongly typed field', () => {
    expect(schemaProblems('GET', '/groups/{groupId}', 200, { id: 'x', name: 5, total_members: 1 })).not.toEqual([]);
    expect(schemaProblems('GET', '/groups/{groupId}', 200, { id: 'x', name: 'n', total_members: 1 })).toEqual([]);
  });
});
