import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasNginx, shippedNginx, type RunningNginx } from '../support/nginx.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';

/**
 * deploy/nginx/v1gate.conf, where nginx is installed (CI installs nginx-light): `nginx -t`, then a
 * real nginx ending TLS in front of a running gateway, with a certificate made here
 * (test/support/nginx.ts changes only what a machine must differ in).
 */

if (!hasNginx) console.warn("deploy/nginx: nginx not found, its checks are skipped here: install Debian's `nginx-light` (.ci/run does).");

describe.skipIf(!hasNginx)('nginx in front of the gateway', () => {
  let gateway: GatewayProcess;
  let nginx: RunningNginx;

  beforeAll(async () => {
    gateway = await startGatewayProcess({ LOG_LEVEL: 'warn', V1_RATE_LIMITS: 'off', V2_RATE_LIMITS: 'off' });
    nginx = await shippedNginx(gateway.url);
  }, 60_000);

  afterAll(async () => {
    await nginx?.stop();
    await gateway?.stop();
  });

  it('passes nginx -t', () => {
    const test = nginx.check();
    expect(test.stderr).toContain('test is successful');
    expect(test.status).toBe(0);
  });

  it('serves v1 calls over TLS, and sends plain-HTTP callers to https with their method kept', { timeout: 60_000 }, async () => {
    await nginx.start();
    const base = `https://127.0.0.1:${nginx.https}`;
    const tls = nginx.tls;

    const banner = gateway.output();
    const apiKey = /sandbox API key: +(\S+)/.exec(banner)![1]!;
    const apiSecret = /sandbox API secret: +(\S+)/.exec(banner)![1]!;
    const call = await request(`${base}/v1/user/getbyemail`, {
      dispatcher: tls,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ api_key: apiKey, api_secret: apiSecret, email: 'owner@sandbox.v1gate.local' }).toString(),
    });
    expect(call.statusCode).toBe(200);
    expect(await call.body.json()).toMatchObject({ email: 'owner@sandbox.v1gate.local' });

    const plain = await request(`http://127.0.0.1:${nginx.http}/v1/user/getbyemail?x=1`, { method: 'POST', body: 'a=1' });
    await plain.body.dump();
    expect(plain.statusCode).toBe(308);
    expect(plain.headers.location).toBe(`https://127.0.0.1/v1/user/getbyemail?x=1`);
  });
});
