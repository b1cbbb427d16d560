import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectExampleShape, expectV1Error, expectV1Shape, v1ExampleShape } from '../support/v1-answers.js';
import { createUsers } from './groups-support.js';

let gw: TestGateway;
let host: { id: string; email: string };
/** Meeting numbers: one recorded on 1 May 2024 08:00Z, one on 3 May 2024 20:00Z, one never recorded. */
let early: number;
let late: number;
let unrecorded: number;

async function meetingThatHappened(topic: string, start: string | undefined, recording: unknown): Promise<number> {
  const created = await gw.v2('POST', `/users/${host.id}/meetings`, {
    body: { topic, type: 2, start_time: '2024-05-01T08:00:00Z', duration: 30 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const happened = await gw.control('POST', `/meetings/${created.body.id}/happen`, {
    ...(start ? { start_time: start } : {}),
    duration_minutes: 30,
    recording,
  });
  expect(happened.status, JSON.stringify(happened.body)).toBe(201);
  return created.body.id;
}

beforeAll(async () => {
  gw = await startTestGateway();
  [host] = (await createUsers(gw, 1)) as [{ id: string; email: string }];
  expect((await gw.v2('PATCH', `/users/${host.id}`, { body: { timezone: 'America/Los_Angeles' } })).status).toBe(204);
  early = await meetingThatHappened('Early', '2024-05-01T08:00:00Z', true);
  late = await meetingThatHappened('Late', '2024-05-03T20:00:00Z', { files: [{ file_type: 'MP4', file_size: 1000 }] });
  unrecorded = await meetingThatHappened('Unrecorded', '2024-05-02T08:00:00Z', false);
});
afterAll(() => gw.close());

const MEETING_SHAPE = v1ExampleShape('/recording/list', 'meetings');

const FILE_SHAPE = v1ExampleShape('/recording/list', 'meetings.recording_files');

describe('/recording/list', () => {
  it("answers the host's recorded meetings in v1's shape, newest first", async () => {
    const answer = await gw.v1('/recording/list', { host_id: host.id });
    expectExampleShape(answer, '/recording/list', { inOrder: true });
    expect(answer).toMatchObject({ page_count: 1, page_number: 1, page_size: 30, total_records: 2 });
    for (const meeting of answer.meetings) {
      expectV1Shape(meeting, MEETING_SHAPE, { inOrder: true });
      for (const file of meeting.recording_files) expectV1Shape(file, FILE_SHAPE, { inOrder: true });
    }
    const [latest, earliest] = answer.meetings;
    expect(latest).toMatchObject({
      meeting_number: late,
      host_id: host.id,
      topic: 'Late',
      start_time: '2024-05-03T20:00:00Z',
      timezone: 'America/Los_Angeles',
      duration: 30,
      total_size: 1000,
      recording_count: 1,
    });
    expect(latest.recording_files[0]).toMatchObject({ file_type: 'MP4', file_size: 1000, status: 'completed' });
    expect(earliest).toMatchObject({ meeting_number: early, recording_count: 2 });
    expect(earliest.total_size).toBe(earliest.recording_files.reduce((sum: number, f: any) => sum + f.file_size, 0));
    expect(answer.meetings.map((m: any) => m.meeting_number)).not.toContain(unrecorded);
  });

  it('filters by meeting_number', async () => {
    const answer = await gw.v1('/recording/list', { host_id: host.id, meeting_number: String(early) });
    expect(answer).toMatchObject({ total_records: 1, page_count: 1 });
    expect(answer.meetings[0].meeting_number).toBe(early);
  });

  it("reads from and to (MM/dd/yyyy hh:mm a) in the host's timezone", async () => {
    // 12:00 pm in Los Angeles on 3 May is 19:00Z: only the late meeting (20:00Z) started after it.
    const after = await gw.v1('/recording/list', { host_id: host.id, from: '05/03/2024 12:00 pm' });
    expect(after.meetings.map((m: any) => m.topic)).toEqual(['Late']);
    // 1:00 pm in Los Angeles is 20:00Z, the late meeting's start: still in; 1:01 pm is past it.
    expect((await gw.v1('/recording/list', { host_id: host.id, from: '05/03/2024 01:00 pm' })).total_records).toBe(1);
    expect((await gw.v1('/recording/list', { host_id: host.id, from: '05/03/2024 01:01 PM' })).total_records).toBe(0);
    // 2:00 am in Los Angeles on 1 May is 09:00Z: only the early meeting (08:00Z) started before it.
    const before = await gw.v1('/recording/list', { host_id: host.id, to: '05/01/2024 02:00 am' });
    expect(before.meetings.map((m: any) => m.topic)).toEqual(['Early']);
    const dates = await gw.v1('/recording/list', { host_id: host.id, from: '2024-05-01', to: '2024-05-02' });
    expect(dates.meetings.map((m: any) => m.topic)).toEqual(['Early']);
  });

  it('pages by page_size and page_number', async () => {
    const second = await gw.v1('/recording/list', { host_id: host.id, page_size: 1, page_number: 2 });
    expect(second).toMatchObject({ page_count: 2, page_number: 2, page_size: 1, total_records: 2 });
    expect(second.meetings.map((m: any) => m.topic)).toEqual(['Early']);
    const beyond = await gw.v1('/recording/list', { host_id: host.id, page_size: 1, page_number: 3 });
    expect(beyond).toMatchObject({ total_records: 2, meetings: [] });
  });

  it('answers 1001 for an unknown host and 300 for missing or malformed params', async () => {
    expectV1Error(await gw.v1('/recording/list', { host_id: 'no-such-user' }), 1001);
    expect(await gw.v1('/recording/list', {})).toEqual({ error: { code: 300, message: 'host_id is required.' } });
    expectV1Error(await gw.v1('/recording/list', { host_id: host.id, from: 'yesterday' }), 300, /^Invalid parameter: from\./);
    expectV1Error(await gw.v1('/recording/list', { host_id: host.id, to: '02/30/2024' }), 300, /^Invalid parameter: to\./);
    expectV1Error(await gw.v1('/recording/list', { host_id: host.id, page_number: 0 }), 300, /^Invalid parameter: page_number\./);
  });
});
