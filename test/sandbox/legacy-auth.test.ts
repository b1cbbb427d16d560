import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signV2Token as signJwt } from '../../src/upstream/jwt.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';

/**
 * SANDBOX_V2_AUTH=legacy: the v2 of the old reference, for a team testing against an old snapshot.
 * The spec's HS256 JWT and a token in ?access_token= are taken, beside today's OAuth tokens.
 */

let legacy: RunningSandbox;
let today: RunningSandbox;
beforeAll(async () => {
  [legacy, today] = await Promise.all([startSandbox({ v2Auth: 'legacy' }), startSandbox()]);
});
afterAll(async () => {
  await Promise.all([legacy.close(), today.close()]);
});

const jwtOf = (sb: RunningSandbox, secret = sb.sandbox.credentials.apiSecret) =>
  signJwt(sb.sandbox.credentials.apiKey, secret, Math.floor(Date.now() / 1000) + 60);

describe('the legacy v2 authentication', () => {
  it("takes the account's JWT in the header and in the query, where today's refuses both", async () => {
    for (const [sb, status] of [
      [legacy, 200],
      [today, 401],
    ] as const) {
      const jwt = await jwtOf(sb);
      expect((await sb.v2('GET', '/users/me', { token: jwt })).status).toBe(status);
      expect((await fetch(`${sb.url}/v2/users/me?access_token=${jwt}`)).status).toBe(status);
    }
  });

  it('still refuses a JWT signed with another secret, and still takes OAuth tokens', async () => {
    expect(await legacy.v2('GET', '/users/me', { token: await jwtOf(legacy, 'not-the-secret') })).toMatchObject({
      status: 401,
      body: { code: 124, message: 'Invalid access token.' },
    });
    expect((await legacy.v2('GET', '/users/me')).status).toBe(200);
  });
});
