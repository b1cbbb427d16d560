import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildGateway } from '../../src/gateway.js';
import { testLogEnv } from '../support/gateway.js';

/**
 * Every route is in place before the port opens: a request that arrives the moment the server
 * listens meets the same app as any later one (Hono's router cannot take routes once it has run).
 */
describe('buildGateway', () => {
  it('answers v1, operator and sandbox routes before it listens, and the same after', async () => {
    const built = buildGateway(loadConfig({ PORT: '0', V1_RATE_LIMITS: 'off', V2_RATE_LIMITS: 'off', ...testLogEnv() }));
    const v1 = await built.fetch(new Request('http://gateway/v1/user/checkemail', { method: 'POST' }));
    expect(await v1.json()).toEqual({ error: { code: 101, message: 'Api key and secret are required.' } });
    expect((await built.fetch(new Request('http://gateway/healthz'))).status).toBe(200);
    expect((await built.fetch(new Request('http://gateway/nowhere'))).status).toBe(404);

    const running = await built.listen();
    try {
      expect(running.v2BaseUrl).toBe(`${running.url}/v2`);
      const { apiKey, apiSecret } = running.sandbox!.credentials;
      const answer = await fetch(`${running.url}/v1/user/checkemail`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ api_key: apiKey, api_secret: apiSecret, email: 'nobody@example.com' }).toString(),
      });
      expect(await answer.json()).toEqual({ existed_email: false });
    } finally {
      await running.close();
    }
  });
});
