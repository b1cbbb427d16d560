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
  it('answers expire_in for a user zpk', async () => {
    const owner = (await gw.v2('GET', '/users/me/token', { query: { type: 'zpk' } })).body;
    const answer = await gw.v1('/user/checkzpk', { zpk: owner.token });
    expect(answer).toEqual({ expire_in: expect.any(Number) });
  });

  it('answers an error for an unknown zpk', async () => {
    const answer = await gw.v1('/user/checkzpk', { zpk: 'nope' });
    expect(answer.error.code).toEqual(expect.any(Number));
  });
});
