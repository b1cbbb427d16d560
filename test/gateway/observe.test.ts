import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startGateway } from '../../src/gateway.js';
import type { V1CallRecord } from '../../src/v1-steps/observe.js';
import { startTestGateway, testLogEnv, type TestGateway } from '../support/gateway.js';
import { listen } from '../support/listen.js';

/** The one record per v1 call that metrics, logs and the call recorder read. */
describe('call observers', () => {
  let gateway: TestGateway;
  const records: V1CallRecord[] = [];

  beforeAll(async () => {
    gateway = await startTestGateway(
      {},
      {
        observers: [
          (r) => records.push(r),
          () => {
            throw new Error('a broken observer');
          },
        ],
      },
    );
  });
  afterAll(() => gateway.close());

  it('records the call, its v2 calls and the answer, without the credentials', async () => {
    records.length = 0;
    const owner = 'owner@sandbox.v1gate.local';
    const answer = await gateway.v1Raw('/user/checkemail', { email: owner }, {});
    expect(answer.body).toEqual({ existed_email: true });
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record!.endpoint).toBe('/user/checkemail');
    expect(record!.apiKey).toBe(gateway.credentials.api_key);
    expect(record!.params).toEqual({ email: owner });
    expect(JSON.stringify(record)).not.toContain(gateway.credentials.api_secret);
    expect(record!.errorCode).toBeUndefined();
    expect(record!.answer).toEqual({ existed_email: true });
    expect(record!.v2Calls.map((c) => [c.method, c.status])).toEqual([['GET', 200]]);
    expect(record!.v2Calls.length).toBe(Number(answer.headers.get('x-v2-calls')));
    expect(answer.headers.get('x-request-id')).toBe(record!.requestId);
  });

  it('records a v1 error with its code, and takes a sane X-Request-Id from the client', async () => {
    records.length = 0;
    const response = await fetch(`${gateway.url}/v1/user/get`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'trace-42' },
      body: new URLSearchParams({ ...gateway.credentials }).toString(),
    });
    expect(await response.json()).toMatchObject({ error: { code: 300 } });
    expect(response.headers.get('x-request-id')).toBe('trace-42');
    expect(records[0]).toMatchObject({ requestId: 'trace-42', endpoint: '/user/get', errorCode: 300, v2Calls: [] });
  });

  it('makes a new request id for one that is too long or not printable', async () => {
    records.length = 0;
    await fetch(`${gateway.url}/v1/user/get`, { method: 'POST', headers: { 'x-request-id': 'x'.repeat(129) } });
    expect(records[0]!.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('the request id reaches v2', () => {
  it('is sent as X-Request-Id on every v2 call of the v1 call', async () => {
    const seen: (string | null)[] = [];
    const upstream = await listen((request) => {
      // The v2 calls, not the local sandbox lookup a gateway over this machine tries first.
      if (new URL(request.url).pathname.startsWith('/v2/')) seen.push(request.headers.get('x-request-id'));
      return Response.json({ existed_email: true });
    });
    const gateway = await startGateway(
      loadConfig({ PORT: '0', V2_BASE_URL: `${upstream.url}/v2`, V1_RATE_LIMITS: 'off', V2_RATE_LIMITS: 'off', ...testLogEnv() }),
    );
    try {
      const response = await fetch(`${gateway.url}/v1/user/checkemail`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'follow-me' },
        body: 'api_key=k&api_secret=s&email=a@b.c',
      });
      expect(await response.json()).toEqual({ existed_email: true });
      expect(seen).toEqual(['follow-me']);
    } finally {
      await gateway.close();
      await upstream.close();
    }
  });
});
