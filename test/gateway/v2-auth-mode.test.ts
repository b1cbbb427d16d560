import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/**
 * How a gateway over its embedded sandbox reaches today's v2, which takes no JWT: the legacy pair of
 * each sandbox account acts as that account's server-to-server OAuth app, with no credentials file.
 * Proven by the token endpoint's count, and by a sub-account created through the control API.
 */

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

const issuedTokens = async () => {
  const text = await (await fetch(`${gw.url}/metrics`)).text();
  return Number(/^v1gate_v2_token_requests_total\{outcome="issued"\} (\d+)$/m.exec(text)?.[1] ?? 'NaN');
};

describe("a gateway over the embedded sandbox acts as each account's OAuth app", () => {
  it('asks the token endpoint once for many calls of the master pair', async () => {
    const before = await issuedTokens();
    for (let i = 0; i < 5; i++)
      expect(await gw.v1('/user/checkemail', { email: `mode-${i}@example.com` })).toEqual({ existed_email: false });
    expect(before).toBeLessThanOrEqual(1);
    expect(await issuedTokens()).toBe(1);
  });

  it("serves a sub-account's own pair as that account, and refuses a wrong secret with v1's error", async () => {
    const made = await gw.v2('POST', '/accounts', {
      body: { first_name: 'Sub', last_name: 'Auth', email: 'sub-auth@example.com', password: 'Secret123' },
    });
    expect(made.status).toBe(201);
    const account = gw.sandbox.state.accounts.get(made.body.id as string)!;
    const pair = { api_key: account.apiKey, api_secret: account.apiSecret };
    const before = await issuedTokens();
    const users = await gw.v1('/user/list', pair);
    expect(users.users.map((u: { email: string }) => u.email)).toEqual(['sub-auth@example.com']);
    expect(await issuedTokens()).toBe(before + 1);
    const wrong = await gw.v1Raw('/user/list', { ...pair, api_secret: `${pair.api_secret}x` });
    expect(wrong.body.error).toMatchObject({ code: expect.any(Number) });
    expect(await issuedTokens()).toBe(before + 1);
  });
});
