import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V2_AUTH, startTestGateway, type TestGateway } from '../support/gateway.js';

/**
 * Which authentication the test gateways use toward v2, proven rather than assumed: run by the
 * `behaviour` project (each pair signs its own JWT: no token endpoint is asked) and by the `oauth`
 * project (the sandbox key is mapped to the sandbox's OAuth app: one token, then none).
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

describe(`the test gateways' v2 authentication (${V2_AUTH})`, () => {
  it(V2_AUTH === 'oauth' ? 'asks the token endpoint once for many calls' : 'never asks a token endpoint', async () => {
    for (let i = 0; i < 5; i++)
      expect(await gw.v1('/user/checkemail', { email: `mode-${i}@example.com` })).toEqual({ existed_email: false });
    expect(await issuedTokens()).toBe(V2_AUTH === 'oauth' ? 1 : 0);
  });
});
