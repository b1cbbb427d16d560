import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

describe('/user/checkemail', () => {
  it('answers existed_email true for a user of the account', async () => {
    const owner = (await gw.v2('GET', '/users/me')).body;
    expect(await gw.v1('/user/checkemail', { email: owner.email })).toEqual({ existed_email: true });
  });

  it('answers existed_email false for an unknown email', async () => {
    expect(await gw.v1('/user/checkemail', { email: 'nobody@example.com' })).toEqual({ existed_email: false });
  });

  it('answers 300 naming email when it is missing or malformed', async () => {
    expect(await gw.v1('/user/checkemail', {})).toEqual({ error: { code: 300, message: 'email is required.' } });
    const bad = await gw.v1('/user/checkemail', { email: 'not-an-email' });
    expect(bad.error.code).toBe(300);
    expect(bad.error.message).toMatch(/email/);
  });

  it('answers 102 when the secret does not match the key', async () => {
    const answer = await gw.v1('/user/checkemail', { email: 'a@b.c', api_secret: 'wrong' });
    expect(answer.error.code).toBe(102);
  });
});

describe('/user/checkzpk', () => {
  it('refuses every zpk with a v1 error that says the ZPK is retired, before any v2 call', async () => {
    // The sandbox still hands out a zpk by the old token type (a client may hold one from before the retirement).
    const held = (await gw.v2('GET', `/users/${(await gw.v2('GET', '/users/me')).body.id}/token`, { query: { type: 'zpk' } })).body
      .token as string;
    for (const zpk of [held, 'nope']) {
      const answer = await gw.v1Raw('/user/checkzpk', { zpk });
      expect(answer.body).toEqual({
        error: { code: 300, message: expect.stringMatching(/^Invalid parameter: zpk\. The ZPK has been retired .*ZAK/) },
      });
      expect(answer.headers.get('x-v2-calls')).toBe('0');
    }
  });

  it('answers 300 naming zpk when it is missing, as before', async () => {
    expect(await gw.v1('/user/checkzpk', {})).toEqual({ error: { code: 300, message: 'zpk is required.' } });
  });
});
