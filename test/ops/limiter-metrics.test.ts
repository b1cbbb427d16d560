import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { parsePrometheusText, sampleValue } from '../support/prometheus.js';

/** Limiter statistics reach /metrics at scrape time. */
describe('limiter metrics', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ V1_RATE_LIMITS: 'on' });
  });
  afterAll(() => gateway.close());

  it('counts exactly the v1 refusals the clients were answered, and shows the policy and queues', async () => {
    const replies = await Promise.all(Array.from({ length: 25 }, () => gateway.v1Raw('/user/checkemail', { email: 'a@b.c' })));
    const refused = replies.filter((r) => r.body?.error?.code === 403).length;
    expect(refused).toBeGreaterThan(0);
    const samples = parsePrometheusText(await (await fetch(`${gateway.url}/metrics`)).text());
    const refusals = samples.filter((s) => s.name === 'v1gate_v1_limiter_refusals_total').reduce((sum, s) => sum + s.value, 0);
    expect(refusals).toBe(refused);
    expect(sampleValue(samples, 'v1gate_v1_calls_total', { endpoint: '/user/checkemail', code: '403' })).toBe(refused);
    expect(sampleValue(samples, 'v1gate_limiter_failure_policy', { policy: 'none' })).toBe(1);
    expect(sampleValue(samples, 'v1gate_limiter_store_errors_total')).toBe(0);
    expect(samples.filter((s) => s.name === 'v1gate_v2_limiter_queue_depth').every((s) => s.value === 0)).toBe(true);
  });
});
