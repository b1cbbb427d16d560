import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectExampleShape, expectV1Error, NO_LIMITS } from '../support/v1-answers.js';

/**
 * v1's meeting connector recordings over a session whose recording the sandbox's control API says a
 * meeting connector made (v2's `mc=true` list), beside one recorded in the cloud.
 */

let gw: TestGateway;
let ownerId: string;
let connector: { id: number; uuid: string };
let cloud: { id: number; uuid: string };

async function recordedMeeting(start_time: string): Promise<{ id: number; uuid: string }> {
  const created = await gw.v2('POST', `/users/${ownerId}/meetings`, {
    body: { topic: `Recorded ${start_time}`, type: 2, start_time, duration: 30 },
  });
  const happened = await gw.control('POST', `/meetings/${created.body.id}/happen`, { start_time, duration_minutes: 30, recording: true });
  expect(happened.status, JSON.stringify(happened.body)).toBe(201);
  return { id: created.body.id, uuid: happened.body.uuid };
}

beforeAll(async () => {
  gw = await startTestGateway(NO_LIMITS);
  ownerId = (await gw.v2('GET', '/users/me')).body.id;
  connector = await recordedMeeting('2024-04-03T09:00:00Z');
  cloud = await recordedMeeting('2024-04-04T09:00:00Z');
  expect((await gw.control('POST', `/meetings/${connector.id}/meeting-connector-recording`, {})).status).toBe(200);
});
afterAll(() => gw.close());

describe('/mc/recording/list', () => {
  it("lists the connector's recordings in the shape of the reference, not the cloud's", async () => {
    const answer = await gw.v1('/mc/recording/list', { host_id: ownerId });
    expectExampleShape(answer, '/mc/recording/list', { inOrder: true });
    expect(answer).toMatchObject({ page_count: 1, page_number: 1, page_size: 30, total_records: 1 });
    const [meeting] = answer.meetings;
    expectExampleShape(meeting, '/mc/recording/list', { item: 'meetings', inOrder: true });
    for (const file of meeting.recording_files)
      expectExampleShape(file, '/mc/recording/list', { item: 'meetings.recording_files', inOrder: true });
    expect(meeting).toMatchObject({ uuid: connector.uuid, meeting_number: connector.id, host_id: ownerId, recording_count: 2 });
    // The cloud list no longer has it; it has the other one.
    expect((await gw.v1('/recording/list', { host_id: ownerId })).meetings.map((m: any) => m.uuid)).toEqual([cloud.uuid]);
  });

  it('filters by meeting number', async () => {
    expect((await gw.v1('/mc/recording/list', { host_id: ownerId, meeting_number: String(cloud.id) })).meetings).toEqual([]);
  });

  it('answers v1 errors: a missing host_id, an unknown host, a wrong secret', async () => {
    const missing = await gw.v1Raw('/mc/recording/list', {});
    expectV1Error(missing.body, 300, 'host_id is required.');
    expect(missing.headers.get('x-v2-calls')).toBe('0');
    expectV1Error(await gw.v1('/mc/recording/list', { host_id: 'nobody-here' }), 1001);
    expectV1Error(await gw.v1('/mc/recording/list', { host_id: ownerId, api_secret: 'wrong' }), 102);
  });
});
