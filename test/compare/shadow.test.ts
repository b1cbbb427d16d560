import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { CompareReport } from '../../src/compare/report.js';
import { startGateway, type RunningGateway } from '../../src/gateway.js';
import { startFakeV1 } from '../support/fake-v1.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/**
 * Shadow mode: v1gate in front of a primary v1. The client gets the primary's answer byte for
 * byte; read-only calls are compared in the background; writes reach the primary only.
 */

const owner = 'owner@sandbox.v1gate.local';
const post = async (url: string, path: string, fields: Record<string, string>) => {
  const response = await fetch(`${url}/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
};

/** v1gate in shadow mode in front of `primaryUrl`, its own v2 calls going to `v2BaseUrl`; limits off unless `env` turns them on. */
const startShadow = (primaryUrl: string, v2BaseUrl: string, env: Record<string, string> = {}) =>
  startGateway(
    loadConfig({
      PORT: '0',
      V2_BASE_URL: v2BaseUrl,
      V1_PRIMARY_URL: primaryUrl,
      V1_RATE_LIMITS: 'off',
      V2_RATE_LIMITS: 'off',
      LOG_LEVEL: 'silent',
      ...env,
    }),
  );

describe('shadow in front of another v1 service over the same data', () => {
  let primary: TestGateway;
  let shadow: RunningGateway;

  beforeAll(async () => {
    primary = await startTestGateway();
    shadow = await startShadow(primary.url, primary.v2BaseUrl);
  });
  afterAll(async () => {
    await shadow?.close();
    await primary?.close();
  });

  it('answers exactly what the primary answers, and finds no real difference', async () => {
    const creds = primary.credentials;
    const me = JSON.parse((await post(primary.url, '/user/getbyemail', { ...creds, email: owner })).text) as { id: string };
    for (const [path, fields] of [
      ['/user/checkemail', { email: owner }],
      ['/user/get', { id: me.id }],
      ['/user/get', { id: me.id, data_type: 'XML' }],
      ['/user/get', {}],
    ] as const) {
      const direct = await post(primary.url, path, { ...creds, ...fields });
      const shadowed = await post(shadow.url, path, { ...creds, ...fields });
      expect(shadowed).toEqual(direct);
    }
    await shadow.shadow!.idle();
    expect(shadow.shadow!.stats()).toMatchObject({ forwarded: 4, compared: 4, mismatchedCalls: 0, errors: 0, mismatches: [] });
  });

  it('sends writes to the primary only', async () => {
    const before = shadow.shadow!.stats().compared;
    const groups = async () => (await primary.v2('GET', '/groups')).body.total_records as number;
    const count = await groups();
    const answer = JSON.parse((await post(shadow.url, '/group/create', { ...primary.credentials, name: `shadow-${Date.now()}` })).text);
    expect(answer.group_id).toEqual(expect.any(String));
    await shadow.shadow!.idle();
    expect(await groups()).toBe(count + 1); // created once, by the primary
    expect(shadow.shadow!.stats().compared).toBe(before);
    const report = (await (await fetch(`${shadow.url}/shadow/report.json`)).json()) as CompareReport;
    expect(report.summary).toMatchObject({ compared: before, differing_calls: 0, not_compared: { writes: 1 } });
  });
});

describe('shadow whose own limits refuse what the primary answers', () => {
  let primary: TestGateway;
  let shadow: RunningGateway;

  beforeAll(async () => {
    primary = await startTestGateway();
    // v1gate's own calls spend the key's v1 limits, here a hundredth of v1's: most are refused.
    shadow = await startShadow(primary.url, primary.v2BaseUrl, { V1_RATE_LIMITS: 'on', RATE_LIMIT_SCALE: '0.01' });
  });
  afterAll(async () => {
    await shadow?.close();
    await primary?.close();
  });

  it('counts those calls apart, never as differences, and the report says so', async () => {
    for (let i = 0; i < 6; i++) {
      const answer = await post(shadow.url, '/user/checkemail', { ...primary.credentials, email: owner });
      expect(JSON.parse(answer.text)).toEqual({ existed_email: true }); // the primary's answer, always
    }
    await shadow.shadow!.idle();
    const stats = shadow.shadow!.stats();
    expect(stats.limited).toBeGreaterThan(0);
    expect(stats).toMatchObject({ forwarded: 6, compared: 6 - stats.limited, mismatchedCalls: 0, errors: 0, mismatches: [] });
    const report = (await (await fetch(`${shadow.url}/shadow/report.json`)).json()) as CompareReport;
    expect(report.summary).toMatchObject({ compared: 6 - stats.limited, differing_calls: 0, not_compared: { limited: stats.limited } });
    const metrics = await (await fetch(`${shadow.url}/metrics`)).text();
    expect(metrics).toContain(`v1gate_shadow_calls_total{outcome="limited"} ${stats.limited}`);
  });
});

describe("shadow in front of a real-looking v1 (the reference's example answers)", () => {
  let fake: Awaited<ReturnType<typeof startFakeV1>>;
  let sandboxed: TestGateway;
  let shadow: RunningGateway;

  beforeAll(async () => {
    fake = await startFakeV1();
    sandboxed = await startTestGateway();
    shadow = await startShadow(fake.url, sandboxed.v2BaseUrl);
  });
  afterAll(async () => {
    await shadow?.close();
    await sandboxed?.close();
    await fake?.close();
  });

  it("returns the primary's bytes and counts the fields where v1gate would answer otherwise, with their mapping rows", async () => {
    const me = await sandboxed.v1('/user/getbyemail', { email: owner });
    const answer = await post(shadow.url, '/user/get', { ...sandboxed.credentials, id: me.id });
    expect(answer.text).toBe(JSON.stringify((await import('../support/v1-answers.js')).v1Example('/user/get')));
    expect(fake.requests.at(-1)!.body).toContain(`id=${me.id}`);
    await shadow.shadow!.idle();
    const stats = shadow.shadow!.stats();
    expect(stats).toMatchObject({ forwarded: 1, compared: 1, mismatchedCalls: 1 });
    const email = stats.mismatches.find((m) => m.field === 'email')!;
    expect(email).toMatchObject({
      endpoint: '/user/get',
      kind: 'value',
      count: 1,
      examples: [{ primary: expect.any(String), v1gate: owner }],
    });
    expect(email.why).toBe('mappings/user-fields.ts USER_FIELDS: email ↔ email (same)');
    // Minted identifiers differ between the services by nature: noise, not counted.
    expect(stats.mismatches.find((m) => m.field === 'id')).toBeUndefined();
    const metrics = await (await fetch(`${shadow.url}/metrics`)).text();
    expect(metrics).toMatch(/v1gate_shadow_calls_total\{outcome="mismatched"\} 1/);
    expect(metrics).toMatch(/v1gate_shadow_mismatches_total\{endpoint="\/user\/get",field="email"\} 1/);
    // The report, as `npm run compare` writes one: per endpoint and field, examples side by side.
    const report = (await (await fetch(`${shadow.url}/shadow/report.json`)).json()) as CompareReport;
    expect(report).toMatchObject({ a: fake.url, summary: { compared: 1, differing_calls: 1 } });
    expect(report.endpoints[0]).toMatchObject({ path: '/user/get', verdict: 'differs', calls: 1, differing: 1 });
    expect(report.endpoints[0]!.real.find((f) => f.field === 'email')).toMatchObject({
      kind: 'value',
      count: 1,
      why: email.why,
      examples: [{ a: expect.any(String), b: owner }],
    });
    const html = await (await fetch(`${shadow.url}/shadow/report`)).text();
    expect(html).toContain('<h3><code>/v1/user/get</code> — 1 of 1 compared calls differ</h3>');
  });

  it('refuses a body past V1_MAX_BODY_BYTES as the facade does, closing the connection, and sends the primary nothing', async () => {
    const small = await startShadow(fake.url, sandboxed.v2BaseUrl, { V1_MAX_BODY_BYTES: '1024' });
    try {
      const sent = fake.requests.length;
      const response = await fetch(`${small.url}/v1/user/checkemail`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `api_key=k&api_secret=s&email=${'a'.repeat(2048)}`,
      });
      expect(response.headers.get('connection')).toBe('close');
      expect(await response.json()).toEqual({
        error: { code: 300, message: 'The request body is larger than the 1024 bytes v1gate accepts.' },
      });
      expect(fake.requests.length).toBe(sent);
    } finally {
      await small.close();
    }
  });

  it('answers the v1 unavailable error when the primary cannot be reached', async () => {
    const down = await startGateway(
      loadConfig({
        PORT: '0',
        V2_BASE_URL: sandboxed.v2BaseUrl,
        V1_PRIMARY_URL: 'http://127.0.0.1:9',
        UPSTREAM_TIMEOUT_MS: '1000',
        LOG_LEVEL: 'silent',
        STATUS_TOKEN: 'shadow-report-token',
      }),
    );
    try {
      const answer = await post(down.url, '/user/checkemail', { ...sandboxed.credentials, email: owner });
      expect(JSON.parse(answer.text)).toMatchObject({ error: { code: 503 } });
      // With STATUS_TOKEN set, the report (real answers as examples) asks for it, as the status page does.
      expect((await fetch(`${down.url}/shadow/report.json`)).status).toBe(403);
      expect((await fetch(`${down.url}/shadow/report.json?token=shadow-report-token`)).status).toBe(200);
    } finally {
      await down.close();
    }
  });
});
