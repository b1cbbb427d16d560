import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, signV2Token, type RunningSandbox } from './support/sandbox.js';
import { schemaProblems } from './support/openapi.js';

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

  it('accepts the token as the access_token query parameter', async () => {
    const token = await signV2Token(sb.sandbox.credentials.apiKey, sb.sandbox.credentials.apiSecret);
    const res = await fetch(`${sb.url}/v2/users/me?access_token=${token}`);
    expect(res.status).not.toBe(401);
  });
});

describe('sandbox rate limits', () => {
  it('answers 429 with Retry-After past 10 requests per second per account', async () => {
    const limited = await startSandbox({ limits: { generalPerSecond: 10, billingPerSecond: 1, reportPerSecond: 1, reportPerDay: 2000 } });
    try {
      const token = await signV2Token(limited.sandbox.credentials.apiKey, limited.sandbox.credentials.apiSecret);
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 30 }, () => limited.v2('GET', '/users/me', { token })));
      const elapsedSeconds = (Date.now() - started) / 1000;
      const admitted = answers.filter((a) => a.status !== 429).length;
      // A burst of 10, plus what refilled (10/s) while the requests were in flight, plus one token of rounding.
      expect(admitted).toBeGreaterThanOrEqual(10);
      expect(admitted).toBeLessThanOrEqual(10 + Math.ceil(elapsedSeconds * 10) + 1);
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
