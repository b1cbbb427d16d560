import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../src/gateway.js';
import { startFaultUpstream, startGatewayOver, type FaultUpstream } from '../support/fault-upstream.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { postV1 } from '../support/v1-form.js';
import { expectExampleShape } from '../support/v1-answers.js';

/**
 * v1 /metrics/qos over today's shape of a participant's QoS: today's documents give `user_qos` as
 * a series of samples where the old reference (and the sandbox) give one sample. The sandbox has
 * no today's mode for it, so the series is v2's answer as a proxy between gateway and sandbox gives
 * it; the rest of the call is the real gateway's.
 */

let sandbox: RunningSandbox;
let faults: FaultUpstream;
let gateway: RunningGateway;

const VIDEO = {
  bitrate: '77 kbps',
  latency: '84 ms',
  jitter: '4 ms',
  avg_loss: '0.3%',
  max_loss: '1.3%',
  resolution: '480*270',
  frame_rate: '3 fps',
};

const sample = (dateTime: string, bitrate: string) => ({
  date_time: dateTime,
  audio_input: { bitrate, latency: '39 ms', jitter: '11 ms', avg_loss: '2.5%', max_loss: '5.0%' },
  audio_output: { bitrate: '30 kbps', latency: '40 ms', jitter: '10 ms', avg_loss: '0.1%', max_loss: '0.5%' },
  video_input: VIDEO,
  video_output: VIDEO,
  as_input: VIDEO,
  as_output: VIDEO,
  cpu_usage: { zoom_min_cpu_usage: '1%', zoom_avg_cpu_usage: '3%', zoom_max_cpu_usage: '5%', system_max_cpu_usage: '20%' },
  cpu_pressure_level: 'Normal',
  wifi_rssi: { max_rssi: -40, avg_rssi: -45, min_rssi: -50, rssi_unit: 'dBm' },
});

const TODAYS_ANSWER = {
  id: 'p1',
  user_id: '16778240',
  user_name: 'Ann',
  device: 'Mac',
  ip_address: '117.83.222.228',
  location: 'Nanjing (CN)',
  join_time: '2024-05-02T10:00:00Z',
  leave_time: '2024-05-02T10:20:00Z',
  version: '3.5.35288.1217',
  user_qos: [
    sample('2024-05-02T10:05:00Z', '29 kbps'),
    sample('2024-05-02T10:06:00Z', '31 kbps'),
    sample('2024-05-02T10:07:00Z', '33 kbps'),
  ],
};

beforeAll(async () => {
  sandbox = await startSandbox();
  faults = await startFaultUpstream(`${sandbox.url}/v2`);
  gateway = await startGatewayOver(faults.url, {});
  faults.rules.push({
    method: 'GET',
    path: /^\/metrics\/meetings\/[^/]+\/participants\/p1\/qos$/,
    fault: { kind: 'answer', status: 200, body: JSON.stringify(TODAYS_ANSWER), headers: { 'content-type': 'application/json' } },
  });
});
afterAll(async () => {
  await gateway.close();
  await faults.close();
  await sandbox.close();
});

async function qos(params: Record<string, string>): Promise<any> {
  const { apiKey, apiSecret } = sandbox.sandbox.credentials;
  const answer = await postV1(gateway.url, '/metrics/qos', {
    api_key: apiKey,
    api_secret: apiSecret,
    meeting_id: '123456789',
    type: '2',
    user_id: 'p1',
    ...params,
  });
  return answer.json();
}

describe("/metrics/qos over today's series of samples", () => {
  it('answers every sample, in order, in the shape of the reference', async () => {
    const answer = await qos({});
    expectExampleShape(answer, '/metrics/qos', { inOrder: true });
    expect(answer.user_qos.map((s: any) => [s.dateTime, s.audio_input.bitrate])).toEqual([
      ['2024-05-02T10:05:00Z', '29 kbps'],
      ['2024-05-02T10:06:00Z', '31 kbps'],
      ['2024-05-02T10:07:00Z', '33 kbps'],
    ]);
    for (const s of answer.user_qos) expectExampleShape(s, '/metrics/qos', { item: 'user_qos', inOrder: true });
  });

  it('pages the series as v1 paged its samples', async () => {
    const second = await qos({ page_size: '2', page_number: '2' });
    expect(second.user_qos.map((s: any) => s.dateTime)).toEqual(['2024-05-02T10:07:00Z']);
  });
});
