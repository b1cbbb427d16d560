import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { startFakeV1 } from '../support/fake-v1.js';
import type { Listening } from '../support/listen.js';
import { httpRequest, rawExchange } from '../support/raw-http.js';
import { startRedis, type RunningRedis } from '../support/redis.js';

/**
 * Answers outside the facade: whatever fails in a route of the gateway's root (the webhook
 * intake, the status page, its replay) is answered in that route's own format, never Hono's
 * plain-text 500 nor a stack trace; a CONNECT gets a v1 envelope, not a silent close; and shadow
 * mode closes the connection of a body it refused, as every other route does.
 */

const TOKEN = 'error-answers-webhook-token';
const STACK = /\bat .+\.(ts|js):\d+|Error:/;

describe('a route of the root that fails (the webhook journal in Redis, gone)', () => {
  let redis: RunningRedis;
  let gw: TestGateway;
  let csrf: string;
  let cookie: string;
  beforeAll(async () => {
    redis = await startRedis();
    const dir = mkdtempSync(join(tmpdir(), 'v1gate-error-answers-'));
    writeFileSync(join(dir, 'subs.json'), JSON.stringify([{ api_key: 'k', url: 'http://127.0.0.1:9/hook' }]));
    gw = await startTestGateway({
      REDIS_URL: redis.url,
      V1_WEBHOOKS_FILE: join(dir, 'subs.json'),
      V1_WEBHOOKS_REDIS_PREFIX: `error-answers-${Date.now()}`,
      V1_WEBHOOKS_ANY_PORT: '1',
      V2_WEBHOOK_TOKEN: TOKEN,
    });
    // The replay's token is good with its session's cookie only.
    const data = await fetch(`${gw.url}/status/data`);
    cookie = (data.headers.get('set-cookie') ?? '').split(';')[0]!;
    csrf = ((await data.json()) as { csrf: string }).csrf;
    await redis.stop();
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    await redis?.close();
  });

  it('answers each in its own JSON format with HTTP 500, no trace, and closes the connection', async () => {
    const requests: [string, RequestInit][] = [
      ['/webhooks/dead-letters', { headers: { authorization: TOKEN } }],
      ['/webhooks/dead-letters/some-id/replay', { method: 'POST', headers: { authorization: TOKEN } }],
      ['/status/data', {}],
      ['/status/dead-letters/some-id/replay', { method: 'POST', headers: { 'x-v1gate-csrf': csrf, cookie } }],
    ];
    for (const [path, init] of requests) {
      const response = await fetch(`${gw.url}${path}`, init);
      const text = await response.text();
      expect(response.status, path).toBe(500);
      expect(response.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(response.headers.get('connection'), path).toBe('close');
      expect(JSON.parse(text), path).toEqual({ error: 'Internal gateway error.' });
      expect(text, path).not.toMatch(STACK);
    }
  });

  it('and the v1 API goes on answering', async () => {
    expect(await gw.v1('/user/checkemail', { email: 'owner@sandbox.v1gate.local' })).toEqual({ existed_email: true });
  });
});

describe('CONNECT', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  it('gets a 400 v1 envelope and a closed connection, whatever its target', async () => {
    for (const target of ['example.com:443', '/v1/user/get', '127.0.0.1:22']) {
      const reply = await rawExchange(gw.port, `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
      expect(reply.closedByServer, target).toBe(true);
      expect(
        reply.responses.map((r) => [r.status, JSON.parse(r.body)]),
        target,
      ).toEqual([[400, { error: { code: 300, message: 'CONNECT is not served: v1gate is no proxy, and v1 calls are POST requests.' } }]]);
    }
  });
});

describe('shadow mode refusing a body', () => {
  let primary: Listening;
  let gw: TestGateway;
  beforeAll(async () => {
    primary = await startFakeV1();
    // Keep-alive on: only the refusal itself may close the connection.
    gw = await startTestGateway({ V1_PRIMARY_URL: primary.url, V1_KEEP_ALIVE: 'on', V1_MAX_BODY_BYTES: '2048' });
  });
  afterAll(async () => {
    await gw?.close();
    await primary?.close();
  });

  it('answers the v1 error and closes the connection: what follows the body cannot be trusted', async () => {
    const tooLarge = httpRequest({ path: '/v1/user/get', body: `id=${'a'.repeat(4_000)}`, headers: { Connection: 'keep-alive' } });
    const next = httpRequest({ path: '/v1/user/get', body: 'id=b', headers: { Connection: 'keep-alive' } });
    const reply = await rawExchange(gw.port, Buffer.concat([tooLarge, next]), { waitMs: 3_000 });
    expect(reply.closedByServer).toBe(true);
    expect(reply.responses).toHaveLength(1);
    expect(reply.responses[0]!.headers.connection).toBe('close');
    expect(JSON.parse(reply.responses[0]!.body)).toEqual({
      error: { code: 300, message: 'The request body is larger than the 2048 bytes v1gate accepts.' },
    });
  });

  it('keeps the connection of a body it read', async () => {
    const first = httpRequest({ path: '/v1/user/get', body: 'id=a', headers: { Connection: 'keep-alive' } });
    const reply = await rawExchange(gw.port, Buffer.concat([first, first]), { waitMs: 1_000 });
    expect(reply.responses).toHaveLength(2);
    expect(reply.closedByServer).toBe(false);
  });
});
