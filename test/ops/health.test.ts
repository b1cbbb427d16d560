import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startGateway } from '../../src/gateway.js';
import { startTestGateway, testLogEnv, type TestGateway } from '../support/gateway.js';
import { listen } from '../support/listen.js';

/** /healthz says alive; /readyz says whether this process can answer, to send it traffic (Kubernetes conventions). */
describe('health', () => {
  let gateway: TestGateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  it('is alive and ready over the embedded sandbox', async () => {
    gateway = await startTestGateway();
    expect(await (await fetch(`${gateway.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${gateway.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      checks: { draining: { ok: true }, limiter: { ok: true }, upstream: { ok: true } },
    });
  });

  it('is not ready while draining, and alive all the same', async () => {
    let draining = false;
    gateway = await startTestGateway({}, { draining: () => draining });
    expect((await fetch(`${gateway.url}/readyz`)).status).toBe(200);
    draining = true;
    const ready = await fetch(`${gateway.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'not ready', checks: { draining: { ok: false, detail: 'draining' } } });
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
  });

  it('with Redis down: ready when failing open, not ready when failing closed', async () => {
    // Port 1 on loopback refuses at once: a Redis that is down.
    const down = { REDIS_URL: 'redis://127.0.0.1:1', V1_RATE_LIMITS: 'on', READY_TIMEOUT_MS: '200' };
    gateway = await startTestGateway({ ...down, RATE_LIMIT_STORE_FAILURE: 'open' });
    const open = await fetch(`${gateway.url}/readyz`);
    expect(open.status).toBe(200);
    expect(((await open.json()) as any).checks.limiter).toEqual({ ok: true, detail: 'unreachable; failing open on local buckets' });
    await gateway.close();
    gateway = await startTestGateway({ ...down, RATE_LIMIT_STORE_FAILURE: 'closed' });
    const closed = await fetch(`${gateway.url}/readyz`);
    expect(closed.status).toBe(503);
    expect(((await closed.json()) as any).checks.limiter).toEqual({ ok: false, detail: 'unreachable; failing closed' });
  });

  it('stays ready when the upstream does not answer within the deadline, and says so', async () => {
    const silent = await listen(() => new Promise<Response>(() => {}));
    const running = await startGateway(
      loadConfig({
        PORT: '0',
        V2_BASE_URL: `${silent.url}/v2`,
        V1_RATE_LIMITS: 'off',
        V2_RATE_LIMITS: 'off',
        READY_TIMEOUT_MS: '100',
        ...testLogEnv(),
      }),
    );
    try {
      const ready = await fetch(`${running.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as any).checks.upstream).toEqual({ ok: false, detail: 'no answer within 100 ms' });
    } finally {
      await running.close();
      (silent.server as unknown as { closeAllConnections(): void }).closeAllConnections();
      await silent.close();
    }
  });

  it('with the upstream stopped: ready, v1 calls answer the v1 unavailable envelope, and v1gate_upstream_up is 0', async () => {
    // A v2 that answered once and is gone: its port now refuses.
    const stopped = await listen(() => Response.json({}));
    const base = `${stopped.url}/v2`;
    await stopped.close();
    const running = await startGateway(
      loadConfig({ PORT: '0', V2_BASE_URL: base, V1_RATE_LIMITS: 'off', V2_RATE_LIMITS: 'off', READY_TIMEOUT_MS: '500', ...testLogEnv() }),
    );
    try {
      const ready = await fetch(`${running.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'ready', checks: { upstream: { ok: false, detail: 'unreachable' } } });
      const call = await fetch(`${running.url}/v1/user/get`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'api_key=k&api_secret=s&id=someone',
      });
      expect(call.status).toBe(200);
      const body = (await call.json()) as { error: { code: number; message: string } };
      expect(Object.keys(body)).toEqual(['error']);
      expect(body.error.code).toBe(503);
      expect(body.error.message).toMatch(/\S/);
      const metrics = await (await fetch(`${running.url}/metrics`)).text();
      expect(metrics).toMatch(/^v1gate_upstream_up 0$/m);
    } finally {
      await running.close();
    }
  });

  it('v1gate_upstream_up is 1 while the upstream answers', async () => {
    gateway = await startTestGateway();
    expect(await (await fetch(`${gateway.url}/metrics`)).text()).toMatch(/^v1gate_upstream_up 1$/m);
  });
});
