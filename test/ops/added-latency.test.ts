import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../src/gateway.js';
import { startFaultUpstream, startGatewayOver, type FaultUpstream } from '../support/fault-upstream.js';
import { parsePrometheusText, sampleValue, type Sample } from '../support/prometheus.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { postV1 } from '../support/v1-form.js';

/**
 * v1gate_added_latency_seconds: each v1 call's own time, its waits on v2 left out. A real gateway
 * over the real sandbox, with a proxy between them that holds some v2 answers back: the time v2
 * took must not be in the histogram, whatever the machine's speed.
 */
let sandbox: RunningSandbox;
let faults: FaultUpstream;
let gateway: RunningGateway;
let creds: { api_key: string; api_secret: string };

beforeAll(async () => {
  sandbox = await startSandbox();
  faults = await startFaultUpstream(`${sandbox.url}/v2`);
  creds = { api_key: sandbox.sandbox.credentials.apiKey, api_secret: sandbox.sandbox.credentials.apiSecret };
  gateway = await startGatewayOver(faults.url);
});
afterAll(async () => {
  await gateway.close();
  await faults.close();
  await sandbox.close();
});

async function scrape(): Promise<Sample[]> {
  return parsePrometheusText(await (await fetch(`${gateway.url}/metrics`)).text());
}

/** Posts one v1 call and answers its body and how long the client waited for it (seconds). */
async function timedCall(path: string, params: Record<string, string>): Promise<{ answer: any; seconds: number }> {
  const started = performance.now();
  const response = await postV1(gateway.url, path, { ...creds, ...params });
  const answer = await response.json();
  return { answer, seconds: (performance.now() - started) / 1000 };
}

const HELD_MS = 400;
const CALLS = 4;

describe("v1gate's own time per call", () => {
  it('counts every call answered and leaves out the time a slow v2 took', async () => {
    // The owner's email: a proven pair and a real answer, so every call sends its v2 call.
    const email = 'owner@sandbox.v1gate.local';
    await timedCall('/user/checkemail', { email });
    faults.rules.push({ method: 'GET', path: /^\/users\/email$/, fault: { kind: 'delay', ms: HELD_MS } });
    const before = await scrape();
    let clientSeconds = 0;
    for (let i = 0; i < CALLS; i++) {
      const { answer, seconds } = await timedCall('/user/checkemail', { email });
      expect(answer).toEqual({ existed_email: true });
      clientSeconds += seconds;
    }
    const after = await scrape();
    const delta = (name: string) =>
      sampleValue(after, name, { endpoint: '/user/checkemail' }) - sampleValue(before, name, { endpoint: '/user/checkemail' });

    expect(faults.seen.filter((r) => r.fault === 'delay')).toHaveLength(CALLS);
    expect(delta('v1gate_added_latency_seconds_count')).toBe(CALLS);
    const own = delta('v1gate_added_latency_seconds_sum');
    expect(own).toBeGreaterThan(0);
    // Each call's own time lies within what its client waited, less the time v2 held its answer
    // (the proxy held each at least HELD_MS): an inequality that holds on a slow machine too.
    expect(own).toBeLessThanOrEqual(clientSeconds - (CALLS * HELD_MS) / 1000);
    // The call's whole duration, on the same gateway's clock, did include the held time.
    expect(delta('v1gate_v1_call_duration_seconds_sum')).toBeGreaterThanOrEqual((CALLS * HELD_MS) / 1000);
  });

  it('counts a call that made no v2 call with all of its time, under its endpoint', async () => {
    const before = await scrape();
    const { answer } = await timedCall('/user/get', {});
    expect(answer.error.code).toBe(300);
    const after = await scrape();
    const count = (samples: Sample[]) => sampleValue(samples, 'v1gate_added_latency_seconds_count', { endpoint: '/user/get' });
    expect(count(after) - count(before)).toBe(1);
  });
});
