import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectExampleShape, expectV1Error, NO_LIMITS, V1_TIME } from '../support/v1-answers.js';

/** One meeting's cloud recording through v1 (/recording/get, /recording/delete), over meetings recorded in the sandbox. */

let gw: TestGateway;
let hostId: string;
beforeAll(async () => {
  gw = await startTestGateway(NO_LIMITS);
  hostId = (await gw.v2('GET', '/users/me')).body.id;
  expect((await gw.v2('PATCH', `/users/${hostId}`, { body: { timezone: 'Europe/Paris' } })).status).toBe(204);
});
afterAll(() => gw.close());

async function recorded(topic: string): Promise<{ id: number; uuid: string }> {
  const created = await gw.v2('POST', `/users/${hostId}/meetings`, {
    body: { topic, type: 2, start_time: '2024-06-01T08:00:00Z', duration: 30 },
  });
  const happened = await gw.control('POST', `/meetings/${created.body.id}/happen`, {
    start_time: '2024-06-01T08:00:00Z',
    duration_minutes: 30,
    recording: true,
  });
  expect(happened.status, JSON.stringify(happened.body)).toBe(201);
  return { id: created.body.id, uuid: happened.body.uuid };
}

describe('/recording/get', () => {
  it("answers the recording in the shape of the reference, by instance uuid or meeting number, with v2's values", async () => {
    const meeting = await recorded('Recorded');
    const byUuid = await gw.v1('/recording/get', { meeting_id: meeting.uuid });
    expectExampleShape(byUuid, '/recording/get', { inOrder: true });
    for (const file of byUuid.recording_files) expectExampleShape(file, '/recording/get', { item: 'recording_files', inOrder: true });
    const v2 = (await gw.v2('GET', `/meetings/${meeting.id}/recordings`)).body;
    expect(byUuid).toMatchObject({
      uuid: meeting.uuid,
      meeting_number: meeting.id,
      host_id: hostId,
      topic: 'Recorded',
      start_time: '2024-06-01T08:00:00Z',
      timezone: 'Europe/Paris',
      duration: v2.duration,
      total_size: Number(v2.total_size),
      recording_count: Number(v2.recording_count),
    });
    expect(byUuid.recording_files.map((f: any) => [f.id, f.file_type, f.file_size, f.play_url])).toEqual(
      v2.recording_files.map((f: any) => [f.id, f.file_type, f.file_size, f.play_url]),
    );
    // The same answer by number; each download link is made for its answer and ends at its own time.
    const byNumber = await gw.v1('/recording/get', { meeting_id: String(meeting.id) });
    const withoutLinks = (answer: any) => ({
      ...answer,
      recording_files: answer.recording_files.map(({ download_url: _, ...file }: any) => file),
    });
    expect(withoutLinks(byNumber)).toEqual(withoutLinks(byUuid));
  });

  it('answers v1 errors for a meeting without a recording and a missing meeting_id', async () => {
    expectV1Error(await gw.v1('/recording/get', { meeting_id: '999999999' }), 3301);
    expect(await gw.v1('/recording/get', {})).toEqual({ error: { code: 300, message: 'meeting_id is required.' } });
  });
});

describe('/recording/delete', () => {
  it('deletes one file when file_id is given, and answers its id and the time', async () => {
    const meeting = await recorded('One file goes');
    const [first, second] = (await gw.v2('GET', `/meetings/${meeting.id}/recordings`)).body.recording_files;
    const answer = await gw.v1('/recording/delete', { meeting_id: meeting.uuid, file_id: first.id });
    expectExampleShape(answer, '/recording/delete', { inOrder: true });
    expect(answer).toEqual({ id: first.id, deleted_at: expect.stringMatching(V1_TIME) });
    expect((await gw.v2('GET', `/meetings/${meeting.id}/recordings`)).body.recording_files.map((f: any) => f.id)).toEqual([second.id]);
    expectV1Error(await gw.v1('/recording/delete', { meeting_id: meeting.uuid, file_id: first.id }), 3301);
  });

  it('deletes every file of the meeting otherwise', async () => {
    const meeting = await recorded('All files go');
    expect(await gw.v1('/recording/delete', { meeting_id: String(meeting.id) })).toEqual({
      id: String(meeting.id),
      deleted_at: expect.stringMatching(V1_TIME),
    });
    expect((await gw.v2('GET', `/meetings/${meeting.id}/recordings`)).status).toBe(404);
    expectV1Error(await gw.v1('/recording/get', { meeting_id: meeting.uuid }), 3301);
  });
});
