import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectExampleShape, expectV1Error, NO_LIMITS } from '../support/v1-answers.js';
import { meetingHappened } from './reports-support.js';

/**
 * v1's dashboard session lists over sessions that really happened (and one going on now) in the
 * sandbox: shapes from the v1 reference's examples, values from v2's own dashboard.
 */

let gw: TestGateway;
let ownerId: string;
const MAY = { from: '2024-05-01', to: '2024-05-31' };

beforeAll(async () => {
  gw = await startTestGateway(NO_LIMITS);
  ownerId = (await gw.v2('GET', '/users/me')).body.id;
  await meetingHappened(gw, ownerId, '2024-05-02T10:00:00Z', [{ name: 'Ann' }, { name: 'Bo' }], 4);
  await meetingHappened(gw, ownerId, '2024-05-09T10:00:00Z', [{ name: 'Cy' }], 61);
  await meetingHappened(gw, ownerId, '2024-05-16T10:00:00Z', [], 1);
  const live = await gw.v2('POST', `/users/${ownerId}/meetings`, { body: { topic: 'On air' } });
  expect((await gw.control('POST', `/meetings/${live.body.id}/start`)).status).toBe(201);
  const webinar = await gw.v2('POST', `/users/${ownerId}/webinars`, { body: { topic: 'Town hall' } });
  expect(
    (
      await gw.control('POST', `/meetings/${webinar.body.id}/happen`, {
        start_time: '2024-05-20T18:00:00Z',
        duration_minutes: 45,
        participants: [{ name: 'Dee' }],
      })
    ).status,
  ).toBe(201);
});
afterAll(() => gw.close());

const v1Item = (m: any) => ({
  uuid: m.uuid,
  id: m.id,
  host: m.host,
  email: m.email,
  user_type: m.user_type,
  start_time: m.start_time,
  end_time: m.end_time ?? '',
  duration: expect.stringMatching(/^(\d{2,}:)?\d{2}:\d{2}$/),
  participants: m.participants,
  has_pstn: m.has_pstn,
  has_voip: m.has_voip,
  has_3rd_party_audio: m.has_3rd_party_audio,
  has_video: m.has_video,
  has_screen_share: m.has_screen_share,
  recording: m.has_recording ? 1 : 0,
});

describe('/metrics/meetings', () => {
  it("lists past meetings in the shape of the reference, with v2's values, newest first", async () => {
    const answer = await gw.v1('/metrics/meetings', { type: '2', ...MAY });
    expectExampleShape(answer, '/metrics/meetings', { inOrder: true });
    for (const m of answer.meetings) expectExampleShape(m, '/metrics/meetings', { item: 'meetings', inOrder: true });
    expect(answer).toMatchObject({
      from: '2024-05-01',
      to: '2024-05-31',
      page_count: 1,
      page_number: 1,
      page_size: 30,
      total_records: 3,
      type: 'Past Meetings',
    });
    const v2 = (await gw.v2('GET', '/metrics/meetings', { query: { type: 'past', ...MAY } })).body.meetings;
    expect(answer.meetings).toEqual(v2.map(v1Item));
    expect(answer.meetings.map((m: any) => m.duration)).toEqual(['01:00', '01:01:00', '04:00']);
  });

  it('lists live meetings: no end time yet, and from/to not needed', async () => {
    const answer = await gw.v1('/metrics/meetings', { type: '1' });
    expectExampleShape(answer, '/metrics/meetings', { inOrder: true });
    expect(answer.type).toBe('Live Meetings');
    expect(answer.meetings.map((m: any) => m.end_time)).toEqual(['']);
    expectExampleShape(answer.meetings[0], '/metrics/meetings', { item: 'meetings', inOrder: true });
  });

  it("pages by number over v2's token pages", async () => {
    const second = await gw.v1('/metrics/meetings', { type: '2', ...MAY, page_size: '2', page_number: '2' });
    expect(second).toMatchObject({ page_count: 2, page_number: 2, page_size: 2, total_records: 3 });
    expect(second.meetings.map((m: any) => m.start_time)).toEqual(['2024-05-02T10:00:00Z']);
  });

  it('answers v1 errors for a bad type, missing past dates or a page over 300 (v1 general maximum), and calls nothing', async () => {
    for (const params of [
      { type: '3' },
      { type: '2', from: '2024-05-01' },
      { type: '2', ...MAY, page_size: '301' },
      { type: '2', from: '2024-05-31', to: '2024-05-01' },
    ]) {
      const reply = await gw.v1Raw('/metrics/meetings', params);
      expectV1Error(reply.body, 300);
      expect(reply.headers.get('x-v2-calls')).toBe('0');
    }
  });
});

describe('/metrics/webinars', () => {
  it('lists past webinars under `meetings`, as the reference does', async () => {
    const answer = await gw.v1('/metrics/webinars', { type: '2', ...MAY });
    expectExampleShape(answer, '/metrics/webinars', { inOrder: true });
    expect(answer.type).toBe('Past Webinars');
    const v2 = (await gw.v2('GET', '/metrics/webinars', { query: { type: 'past', ...MAY } })).body.webinars;
    expect(answer.meetings).toEqual(v2.map(v1Item));
    expect(answer.meetings).toHaveLength(1);
    expectExampleShape(answer.meetings[0], '/metrics/webinars', { item: 'meetings', inOrder: true });
  });
});
