import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from '../../src/translators/endpoints.js';
import { keyHash } from '../../src/ops/metrics.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { parsePrometheusText, sampleValue, type Sample } from '../support/prometheus.js';

async function scrape(gateway: TestGateway): Promise<Sample[]> {
  const response = await fetch(`${gateway.url}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return parsePrometheusText(await response.text());
}

describe('/metrics after known traffic', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ METRICS_PER_KEY: '1' });
  });
  afterAll(() => gateway.close());

  it('counts v1 calls by endpoint and result, and v2 calls by route template, exactly', async () => {
    const before = await scrape(gateway);
    const owner = 'owner@sandbox.v1gate.local';
    for (let i = 0; i < 3; i++) expect(await gateway.v1('/user/checkemail', { email: owner })).toEqual({ existed_email: true });
    for (let i = 0; i < 2; i++) expect((await gateway.v1('/user/get', {})).error.code).toBe(300);
    const after = await scrape(gateway);
    const delta = (name: string, labels: Record<string, string>) => sampleValue(after, name, labels) - sampleValue(before, name, labels);

    expect(delta('v1gate_v1_calls_total', { endpoint: '/user/checkemail', code: 'ok' })).toBe(3);
    expect(delta('v1gate_v1_calls_total', { endpoint: '/user/get', code: '300' })).toBe(2);
    expect(delta('v1gate_v1_call_duration_seconds_count', { endpoint: '/user/checkemail' })).toBe(3);
    expect(delta('v1gate_v2_calls_total', { route: '/users/email', method: 'GET', status: '200' })).toBe(3);
    expect(delta('v1gate_v2_call_duration_seconds_count', { route: '/users/email', method: 'GET' })).toBe(3);
    // /user/get without an id fails before any v2 call: zero v2 calls per v1 call.
    expect(delta('v1gate_v2_calls_per_v1_call_sum', { endpoint: '/user/get' })).toBe(0);
    expect(delta('v1gate_v2_calls_per_v1_call_sum', { endpoint: '/user/checkemail' })).toBe(3);
    expect(delta('v1gate_v1_calls_by_key_total', { key_hash: keyHash(gateway.credentials.api_key) })).toBe(5);
  });

  it('labels only with the templates of declared routes and never a raw key', async () => {
    const { id } = await gateway.v1('/user/create', { email: `m-${Date.now()}@example.com`, type: 1 });
    await gateway.v1('/user/get', { id });
    const samples = await scrape(gateway);
    const declared = new Set(ALL_ENDPOINTS.flatMap((e) => [...e.v2Calls, ...(e.v2Undo ?? [])]).map((route) => route.template));
    const routes = samples.filter((s) => s.name === 'v1gate_v2_calls_total').map((s) => s.labels.route!);
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) expect(declared.has(route), route).toBe(true);
    const text = JSON.stringify(samples);
    expect(text).not.toContain(String(id));
    expect(text).not.toContain(gateway.credentials.api_key);
    expect(text).not.toContain(gateway.credentials.api_secret);
  });

  it('includes process metrics', async () => {
    expect(sampleValue(await scrape(gateway), 'v1gate_process_resident_memory_bytes')).toBeGreaterThan(0);
  });
});

describe('per-key metrics under a flood of keys', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ METRICS_PER_KEY: 'on', METRICS_PER_KEY_TOP: '3' });
  });
  afterAll(() => gateway.close());

  it('give a series only to keys whose secret v2 accepted: a thousand made-up keys share one', async () => {
    const owner = 'owner@sandbox.v1gate.local';
    expect(await gateway.v1('/user/checkemail', { email: owner })).toEqual({ existed_email: true });
    const strangers = Array.from({ length: 1_000 }, (_, i) => `stranger-key-${i}`);
    for (let i = 0; i < strangers.length; i += 25) {
      const answers = await Promise.all(
        strangers
          .slice(i, i + 25)
          .map((api_key) => gateway.v1('/user/checkemail', { api_key, api_secret: 'not-the-secret', email: owner })),
      );
      for (const answer of answers) expect(answer.error.code).toBe(102);
    }
    const series = (await scrape(gateway)).filter((s) => s.name === 'v1gate_v1_calls_by_key_total');
    expect(series.map((s) => s.labels.key_hash).sort()).toEqual([keyHash(gateway.credentials.api_key), 'other'].sort());
    expect(sampleValue(series, 'v1gate_v1_calls_by_key_total', { key_hash: 'other' })).toBe(strangers.length);
    expect(sampleValue(series, 'v1gate_v1_calls_by_key_total', { key_hash: keyHash(gateway.credentials.api_key) })).toBe(1);
  });
});
