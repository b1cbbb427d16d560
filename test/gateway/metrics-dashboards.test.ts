import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectExampleShape, expectV1Error, jsonType, NO_LIMITS, v1Example, v2User } from '../support/v1-answers.js';
import { meetingHappened } from './reports-support.js';

/**
 * v1's account dashboards (Zoom Rooms, CRC port usage, chat counts) over what the sandbox's control
 * API seeded as real rooms, connectors and chat clients would: shapes from the v1 reference's
 * examples, values from v2's dashboards.
 */

let gw: TestGateway;
let accountId: string;
let ownerId: string;
let room: any;
let idleRoom: any;
let past: { id: number; uuid: string };
let liveId: number;
const MAY = { from: '2024-05-01', to: '2024-05-31' };

beforeAll(async () => {
  gw = await startTestGateway(NO_LIMITS);
  accountId = gw.sandbox.state.accountsByKey.get(gw.credentials.api_key)!.id;
  ownerId = (await gw.v2('GET', '/users/me')).body.id;
  room = (
    await gw.control('POST', `/accounts/${accountId}/zoom-rooms`, {
      room_name: 'Board room',
      email: 'board@example.com',
      microphone: 'Mic A',
      speaker: 'Spk B',
      camera: 'Cam C',
    })
  ).body;
  idleRoom = (await gw.control('POST', `/accounts/${accountId}/zoom-rooms`, { room_name: 'Quiet room', status: 'Offline' })).body;
  past = await meetingHappened(gw, ownerId, '2024-05-02T10:00:00Z', [{ name: 'Ann' }], 10);
  liveId = (await gw.v2('POST', `/users/${ownerId}/meetings`, { body: { topic: 'In the room' } })).body.id;
  await gw.control('POST', `/meetings/${liveId}/start`);
  for (const meeting_id of [past.id, liveId])
    expect((await gw.control('POST', `/zoom-rooms/${room.id}/meetings`, { meeting_id })).status).toBe(200);
  for (const [hour, max_usage, total_usage] of [
    [9, 2, 5],
    [0, 1, 3],
  ]) {
    expect(
      (await gw.control('POST', `/accounts/${accountId}/crc-usage`, { date: '2024-05-03', hour, max_usage, total_usage })).status,
    ).toBe(201);
  }
  await gw.control('POST', `/accounts/${accountId}/crc-usage`, { date: '2024-06-01', hour: 1, max_usage: 1, total_usage: 1 });
  await gw.control('POST', `/accounts/${accountId}/im-activity`, {
    user: ownerId,
    date: '2024-05-04',
    counts: { total_send: 4, total_receive: 2, emoji_send: 1, group_send: 1, images_send: 1, voice_send: 1 },
  });
  await gw.control('POST', `/accounts/${accountId}/im-activity`, { user: ownerId, date: '2024-05-05', counts: { total_send: 1 } });
});
afterAll(() => gw.close());

/** The same keys in the same order, each of the same JSON type, objects compared all the way down. */
function expectSameShape(answer: any, example: any): void {
  expect(Object.keys(answer)).toEqual(Object.keys(example));
  for (const key of Object.keys(example)) {
    expect(jsonType(answer[key]), key).toBe(jsonType(example[key]));
    if (jsonType(example[key]) === 'object') expectSameShape(answer[key], example[key]);
  }
}

describe('/metrics/zoomrooms', () => {
  it('lists the rooms in the shape of the reference', async () => {
    const answer = await gw.v1('/metrics/zoomrooms', {});
    expectExampleShape(answer, '/metrics/zoomrooms', { inOrder: true });
    for (const r of answer.zoom_rooms) {
      expectExampleShape(r, '/metrics/zoomrooms', { item: 'zoom_rooms', inOrder: true });
      expectSameShape(r, v1Example('/metrics/zoomrooms').zoom_rooms[0]);
    }
    expect(answer).toMatchObject({ page_count: 1, page_number: 1, page_size: 30, total_records: 2 });
    const [board, quiet] = answer.zoom_rooms;
    expect(board).toMatchObject({
      id: room.id,
      room_name: 'Board room',
      email: 'board@example.com',
      account_type: 'Work Email',
      passcode: '',
      status: 'In Meeting',
      meeting_id: '',
    });
    expect(board.messages).toMatchObject({
      running_time: '',
      selected_microphone: 'Mic A',
      selected_speaker: 'Spk B',
      selected_camera: 'Cam C',
    });
    expect(quiet).toMatchObject({ status: 'Offline', messages: { last_started_time: '' } });
  });

  it('pages by number, at most 30 a page; a wrong secret is 102', async () => {
    expect((await gw.v1('/metrics/zoomrooms', { page_size: '1', page_number: '2' })).zoom_rooms.map((r: any) => r.id)).toEqual([
      idleRoom.id,
    ]);
    expectV1Error(await gw.v1('/metrics/zoomrooms', { page_size: '31' }), 300);
    expectV1Error(await gw.v1('/metrics/zoomrooms', { api_secret: 'wrong' }), 102);
  });
});

describe('/metrics/zoomroomdetail', () => {
  it('answers the room, its live meeting and its past meetings in the shape of the reference', async () => {
    const answer = await gw.v1('/metrics/zoomroomdetail', { id: room.id, ...MAY });
    expectExampleShape(answer, '/metrics/zoomroomdetail', { inOrder: true });
    expectSameShape(answer.zoom_room, v1Example('/metrics/zoomroomdetail').zoom_room);
    expectSameShape(answer.live_meeting, v1Example('/metrics/zoomroomdetail').live_meeting);
    expect(answer).toMatchObject({ from: '2024-05-01', to: '2024-05-31', page_count: 1, page_number: 1, page_size: 30, total_records: 1 });
    expect(answer.zoom_room).toMatchObject({ id: room.id, status: 'In Meeting', meeting_id: String(liveId) });
    expect(answer.live_meeting).toMatchObject({ id: liveId, end_time: '', participants: 1 });
    for (const m of answer.past_meetings) expectExampleShape(m, '/metrics/zoomroomdetail', { item: 'past_meetings', inOrder: true });
    expect(answer.past_meetings[0]).toMatchObject({ uuid: past.uuid, id: past.id, duration: '10:00', participants: 2 });
  });

  it("answers an idle room with v1's empty live meeting", async () => {
    const answer = await gw.v1('/metrics/zoomroomdetail', { id: idleRoom.id, ...MAY });
    expectExampleShape(answer, '/metrics/zoomroomdetail', { inOrder: true });
    expect(answer.live_meeting).toEqual(v1Example('/metrics/zoomroomdetail').live_meeting);
    expect(answer.past_meetings).toEqual([]);
  });

  it('answers v1 errors: a missing id or date, an unknown room, a wrong secret', async () => {
    const missing = await gw.v1Raw('/metrics/zoomroomdetail', MAY);
    expectV1Error(missing.body, 300, 'id is required.');
    expect(missing.headers.get('x-v2-calls')).toBe('0');
    expectV1Error(await gw.v1('/metrics/zoomroomdetail', { id: room.id, from: '2024-05-01' }), 300, 'to is required.');
    expectV1Error(await gw.v1('/metrics/zoomroomdetail', { id: 'no-such-room', ...MAY }), 300);
    expectV1Error(await gw.v1('/metrics/zoomroomdetail', { id: room.id, ...MAY, api_secret: 'wrong' }), 102);
  });
});

describe('/metrics/crc', () => {
  it('answers the port usage per day and hour in the shape of the reference', async () => {
    const answer = await gw.v1('/metrics/crc', MAY);
    expectExampleShape(answer, '/metrics/crc', { inOrder: true });
    expect(answer).toEqual({
      from: '2024-05-01',
      to: '2024-05-31',
      crc_ports_usage: [
        {
          date_time: '2024-05-03',
          crc_ports_hour_usage: [
            { hour: '00', max_usage: 1, total_usage: 3 },
            { hour: '09', max_usage: 2, total_usage: 5 },
          ],
        },
      ],
    });
    expectExampleShape(answer.crc_ports_usage[0], '/metrics/crc', { item: 'crc_ports_usage', inOrder: true });
    expectExampleShape(answer.crc_ports_usage[0].crc_ports_hour_usage[0], '/metrics/crc', {
      item: 'crc_ports_usage.crc_ports_hour_usage',
      inOrder: true,
    });
  });

  it('answers v1 errors: a missing date, a backwards range, a wrong secret', async () => {
    expectV1Error(await gw.v1('/metrics/crc', { from: '2024-05-01' }), 300, 'to is required.');
    expectV1Error(await gw.v1('/metrics/crc', { from: '2024-05-31', to: '2024-05-01' }), 300);
    expectV1Error(await gw.v1('/metrics/crc', { ...MAY, api_secret: 'wrong' }), 102);
  });
});

describe('/metrics/im', () => {
  it("answers every user's chat counts over the range in the shape of the reference", async () => {
    const answer = await gw.v1('/metrics/im', MAY);
    expectExampleShape(answer, '/metrics/im', { inOrder: true });
    for (const u of answer.users) expectExampleShape(u, '/metrics/im', { item: 'users', inOrder: true });
    const owner = answer.users.find((u: any) => u.user_id === ownerId);
    // Read from GET /metrics/chat, which counts messages sent by kind and nothing received: what it
    // no longer counts is 0 (docs/live-evidence.md, "Team Chat, chat metrics and the ZPK today").
    expect(owner).toMatchObject({ total_send: 5, group_send: 1, images_send: 1, voice_send: 1, total_receive: 0, emoji_send: 0 });
    for (const u of answer.users) for (const [k, v] of Object.entries(u)) if (k.endsWith('_receive')) expect(v, k).toBe(0);
    expect(answer.total_records).toBe(answer.users.length);
  });

  it('pages v1 by number over the token pages of /metrics/chat, which answers no total', async () => {
    await Promise.all([v2User(gw), v2User(gw), v2User(gw)]);
    const all = await gw.v1('/metrics/im', MAY);
    expect(all.users.length).toBeGreaterThan(3);
    const ids: string[] = [];
    for (let page = 1; page <= all.users.length; page++) {
      const one = await gw.v1('/metrics/im', { ...MAY, page_size: 1, page_number: page });
      expect(one).toMatchObject({ page_number: page, page_size: 1 });
      ids.push(...one.users.map((u: { user_id: string }) => u.user_id));
    }
    expect(ids).toEqual(all.users.map((u: { user_id: string }) => u.user_id));
  });

  it('answers v1 errors: a missing date, a page over 30, a wrong secret', async () => {
    expectV1Error(await gw.v1('/metrics/im', { to: '2024-05-01' }), 300, 'from is required.');
    expectV1Error(await gw.v1('/metrics/im', { ...MAY, page_size: '31' }), 300);
    expectV1Error(await gw.v1('/metrics/im', { ...MAY, api_secret: 'wrong' }), 102);
  });
});
