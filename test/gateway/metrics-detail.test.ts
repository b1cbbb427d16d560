import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectExampleShape, expectV1Error, NO_LIMITS } from '../support/v1-answers.js';
import { meetingHappened } from './reports-support.js';

/**
 * v1's session details and QoS over sessions that happened in the sandbox, with what the
 * participants' clients reported through the control API: shapes from the v1 reference's
 * examples, values from v2's dashboard.
 */

let gw: TestGateway;
let past: { id: number; uuid: string };
let ann: any;
let liveId: number;
let webinarId: number;
const SAMPLE = {
  date_time: '2024-05-02T10:05:00Z',
  audio_input: { bitrate: '29 kbps', latency: '39 ms', jitter: '11 ms', avg_loss: '2.5%', max_loss: '5.0%' },
  video_input: {
    bitrate: '77 kbps',
    latency: '84 ms',
    jitter: '4 ms',
    avg_loss: '28.3%',
    max_loss: '28.3%',
    resolution: '480*270',
    frame_rate: '3 fps',
  },
  cpu_usage: { zoom_min_cpu_usage: '1%', zoom_avg_cpu_usage: '3%', zoom_max_cpu_usage: '5%', system_max_cpu_usage: '20%' },
};

beforeAll(async () => {
  gw = await startTestGateway(NO_LIMITS);
  const ownerId = (await gw.v2('GET', '/users/me')).body.id;
  past = await meetingHappened(gw, ownerId, '2024-05-02T10:00:00Z', [{ name: 'Ann' }, { name: 'Bo' }], 20);
  const instance = (await gw.v2('GET', `/metrics/meetings/${past.id}/participants`, { query: { type: 'past' } })).body;
  ann = instance.participants.find((p: any) => p.user_name === 'Ann');
  const client = { device: 'Mac', ip_address: '117.83.222.228', location: 'Nanjing (CN)', network_type: 'Wifi', version: '3.5.35288.1217' };
  expect((await gw.control('POST', `/meetings/${past.id}/participants/${ann.id}/client`, client)).status).toBe(200);
  expect((await gw.control('POST', `/meetings/${past.id}/participants/${ann.id}/qos`, SAMPLE)).status).toBe(201);
  liveId = (await gw.v2('POST', `/users/${ownerId}/meetings`, { body: { topic: 'On air' } })).body.id;
  expect((await gw.control('POST', `/meetings/${liveId}/start`)).status).toBe(201);
  webinarId = (await gw.v2('POST', `/users/${ownerId}/webinars`, { body: { topic: 'Town hall' } })).body.id;
  await gw.control('POST', `/meetings/${webinarId}/happen`, {
    start_time: '2024-05-20T18:00:00Z',
    duration_minutes: 45,
    participants: [{ name: 'Dee' }],
  });
});
afterAll(() => gw.close());

const expectDetailShape = (answer: any, path: string) => {
  expectExampleShape(answer, path, { inOrder: true });
  for (const p of answer.participants) expectExampleShape(p, path, { item: 'participants', inOrder: true });
};

describe('/metrics/meetingdetail', () => {
  it("answers a past meeting and its participants in the shape of the reference, with v2's values", async () => {
    const answer = await gw.v1('/metrics/meetingdetail', { meeting_id: String(past.id), type: '2' });
    expectDetailShape(answer, '/metrics/meetingdetail');
    expect(answer).toMatchObject({
      uuid: past.uuid,
      id: past.id,
      type: 'Past Meeting',
      duration: '20:00',
      participants_count: 3,
      page_count: 1,
      page_number: 1,
      page_size: 30,
    });
    expect(answer.participants.find((p: any) => p.user_name === 'Ann')).toMatchObject({
      id: ann.id,
      device: 'Mac',
      ip_address: '117.83.222.228',
      cn: 'CN',
      city: 'Nanjing',
      network_type: 'Wifi',
      join_time: ann.join_time,
      leave_time: ann.leave_time,
    });
    // By instance uuid too, as v1 took it.
    expect((await gw.v1('/metrics/meetingdetail', { meeting_id: past.uuid, type: '2' })).uuid).toBe(past.uuid);
  });

  it('pages the participants by number', async () => {
    const second = await gw.v1('/metrics/meetingdetail', { meeting_id: String(past.id), type: '2', page_size: '2', page_number: '2' });
    expect(second).toMatchObject({ participants_count: 3, page_count: 2, page_number: 2, page_size: 2 });
    expect(second.participants).toHaveLength(1);
  });

  it('answers a live meeting: no end time yet, nobody has left', async () => {
    const answer = await gw.v1('/metrics/meetingdetail', { meeting_id: String(liveId), type: '1' });
    expectDetailShape(answer, '/metrics/meetingdetail');
    expect(answer).toMatchObject({ type: 'Live Meeting', end_time: '', participants_count: 1 });
    expect(answer.participants[0].leave_time).toBe('');
  });

  it('answers v1 errors: a missing param, an unknown meeting, a wrong secret', async () => {
    const missing = await gw.v1Raw('/metrics/meetingdetail', { type: '2' });
    expectV1Error(missing.body, 300, 'meeting_id is required.');
    expect(missing.headers.get('x-v2-calls')).toBe('0');
    expectV1Error(await gw.v1('/metrics/meetingdetail', { meeting_id: '99999999999', type: '2' }), 3001);
    // The live meeting has not ended: it has no past session.
    expectV1Error(await gw.v1('/metrics/meetingdetail', { meeting_id: String(liveId), type: '2' }), 3001);
    expectV1Error(await gw.v1('/metrics/meetingdetail', { meeting_id: String(past.id), type: '2', api_secret: 'wrong' }), 102);
  });
});

describe('/metrics/webinardetail', () => {
  it('answers a past webinar in the shape of the reference', async () => {
    const answer = await gw.v1('/metrics/webinardetail', { meeting_id: String(webinarId), type: '2' });
    expectDetailShape(answer, '/metrics/webinardetail');
    expect(answer).toMatchObject({ id: webinarId, type: 'Past Webinar', duration: '45:00', participants_count: 2 });
  });

  it('answers v1 errors: a meeting is not a webinar, a missing type', async () => {
    expectV1Error(await gw.v1('/metrics/webinardetail', { meeting_id: String(past.id), type: '2' }), 3001);
    expectV1Error(await gw.v1('/metrics/webinardetail', { meeting_id: String(webinarId) }), 300, 'type is required.');
  });
});

describe('/metrics/qos', () => {
  it("answers a participant's QoS in the shape of the reference", async () => {
    const answer = await gw.v1('/metrics/qos', { meeting_id: String(past.id), type: '2', user_id: ann.id });
    expectExampleShape(answer, '/metrics/qos', { inOrder: true });
    expectExampleShape(answer.user_qos[0], '/metrics/qos', { item: 'user_qos', inOrder: true });
    expect(answer).toMatchObject({
      meeting_id: String(past.id),
      user_id: ann.user_id,
      type: 'Past Meeting',
      device: 'Mac',
      cn: 'CN',
      city: 'Nanjing',
      version: '3.5.35288.1217',
    });
    expect(answer.user_qos[0]).toMatchObject({
      dateTime: SAMPLE.date_time,
      audio_input: SAMPLE.audio_input,
      video_input: SAMPLE.video_input,
      cpu_usage: SAMPLE.cpu_usage,
    });
    expect(answer.user_qos[0].as_output).toEqual({
      bitrate: '',
      latency: '',
      jitter: '',
      avg_loss: '',
      max_loss: '',
      resolution: '',
      frame_rate: '',
    });
  });

  it('answers the first participant when no user_id is given, with no samples when the client sent none', async () => {
    const answer = await gw.v1('/metrics/qos', { meeting_id: String(liveId), type: '1' });
    expectExampleShape(answer, '/metrics/qos', { inOrder: true });
    expect(answer.user_qos).toEqual([]);
  });

  it('answers v1 errors: a missing meeting_id, an unknown participant, a wrong secret', async () => {
    expectV1Error(await gw.v1('/metrics/qos', { type: '2' }), 300, 'meeting_id is required.');
    expectV1Error(await gw.v1('/metrics/qos', { meeting_id: String(past.id), type: '2', user_id: 'nobody' }), 3001);
    expectV1Error(await gw.v1('/metrics/qos', { meeting_id: String(past.id), type: '2', api_secret: 'wrong' }), 102);
  });
});
