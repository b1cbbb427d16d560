import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectExampleShape, expectV1Error, NO_LIMITS, v1ExampleShape, v2User } from '../support/v1-answers.js';
import { meetingHappened } from './reports-support.js';

/**
 * v1's account usage reports over meetings that really happened in the sandbox (control API), in
 * March 2024 so that the month and the ranges hold nothing else: exact shapes from the v1
 * reference's examples, values from v2's own reports.
 */

let gw: TestGateway;
let ownerId: string;
let guestHost: { id: string; email: string };
let idle: { id: string; email: string };
const MARCH = { from: '2024-03-01', to: '2024-03-31' };

beforeAll(async () => {
  gw = await startTestGateway(NO_LIMITS);
  ownerId = (await gw.v2('GET', '/users/me')).body.id;
  guestHost = await v2User(gw, { first_name: 'Grace', last_name: 'Hopper' });
  idle = await v2User(gw, { first_name: 'Idle', last_name: 'User' });
  await meetingHappened(gw, ownerId, '2024-03-04T09:00:00Z', [{ name: 'Ann', email: 'ann@example.com' }, { name: 'Bo' }], 45);
  await meetingHappened(gw, ownerId, '2024-03-04T15:00:00Z', [{ name: 'Cy' }], 10);
  await meetingHappened(gw, ownerId, '2024-03-20T23:30:00Z', [{ name: 'Di' }, { name: 'Ed' }, { name: 'Fay' }], 61);
  await meetingHappened(gw, guestHost.id, '2024-03-20T08:00:00Z', [{ name: 'Gil' }], 20);
  // Outside March: must not be counted.
  await meetingHappened(gw, ownerId, '2024-04-01T00:00:00Z', [{ name: 'Hal' }], 15);
});
afterAll(() => gw.close());

describe('/report/getdailyreport', () => {
  it("answers one row per day of the month in the shape of the reference, with v2's counts", async () => {
    const answer = await gw.v1('/report/getdailyreport', { year: '2024', month: '3' });
    expectExampleShape(answer, '/report/getdailyreport', { inOrder: true });
    expect(answer).toMatchObject({ year: 2024, month: 3 });
    expect(answer.dates).toHaveLength(31);
    for (const day of answer.dates) expectExampleShape(day, '/report/getdailyreport', { item: 'dates', inOrder: true });

    const v2 = (await gw.v2('GET', '/report/daily', { query: { year: 2024, month: 3 } })).body;
    expect(answer.dates).toEqual(
      v2.dates.map((d: any) => ({
        meetings: d.meetings,
        date: d.date,
        new_user: d.new_users,
        participants: d.participants,
        meeting_minutes: d.meeting_minutes,
      })),
    );
    const fourth = answer.dates.find((d: any) => d.date === '2024-03-04');
    // The host joins each meeting too: participants count them.
    expect(fourth).toEqual({ meetings: 2, date: '2024-03-04', new_user: 0, participants: 5, meeting_minutes: 55 });
    expect(answer.dates.find((d: any) => d.date === '2024-03-20')).toMatchObject({ meetings: 2, participants: 6, meeting_minutes: 81 });
  });

  it('counts the users created on a day as its new users', async () => {
    const now = new Date();
    const answer = await gw.v1('/report/getdailyreport', { year: String(now.getUTCFullYear()), month: String(now.getUTCMonth() + 1) });
    const today = answer.dates.find((d: any) => d.date === now.toISOString().slice(0, 10));
    expect(today.new_user).toBeGreaterThanOrEqual(2); // the two users made above, at least
  });

  it('answers a v1 error for a missing or impossible year or month, and calls nothing', async () => {
    expect(await gw.v1('/report/getdailyreport', { year: '2024' })).toEqual({ error: { code: 300, message: 'month is required.' } });
    const bad = await gw.v1Raw('/report/getdailyreport', { year: '2024', month: '13' });
    expectV1Error(bad.body, 300, /month/);
    expect(bad.headers.get('x-v2-calls')).toBe('0');
  });
});

describe('/report/getaccountreport', () => {
  it("answers the hosts of the range with the account totals, in the shape of the reference, with v2's values", async () => {
    const answer = await gw.v1('/report/getaccountreport', MARCH);
    expectExampleShape(answer, '/report/getaccountreport', { inOrder: true });
    expect(answer).toMatchObject({
      page_count: 1,
      page_number: 1,
      page_size: 30,
      total_records: 2,
      from: '2024-3-1',
      to: '2024-3-31',
      total_meetings: 4,
      total_participants: 11,
      total_meeting_minutes: 136,
    });
    for (const user of answer.users) expectExampleShape(user, '/report/getaccountreport', { item: 'users', inOrder: true });

    const v2 = (await gw.v2('GET', '/report/users', { query: { type: 'active', ...MARCH } })).body;
    expect(answer.users.map((u: any) => [u.user_id, u.email, u.type, u.meetings, u.participants, u.meeting_minutes])).toEqual(
      v2.users.map((u: any) => [u.id, u.email, u.type, u.meetings, u.participants, u.meeting_minutes]),
    );
    expect(answer.users.map((u: any) => u.user_id)).toEqual([ownerId, guestHost.id]);
    expect(answer.users.map((u: any) => u.user_id)).not.toContain(idle.id);
    // Login time and client version come from v2's user list (empty for users who never signed in).
    const listed = (await gw.v2('GET', '/users', { query: { page_size: 300 } })).body.users;
    const owner = listed.find((u: any) => u.id === ownerId);
    expect(answer.users[0]).toMatchObject({ last_login_time: owner.last_login_time, last_client_version: owner.last_client_version });
  });

  it('pages like v2: page_size and page_number', async () => {
    const second = await gw.v1('/report/getaccountreport', { ...MARCH, page_size: '1', page_number: '2' });
    expect(second).toMatchObject({ page_count: 2, page_number: 2, page_size: 1, total_records: 2 });
    expect(second.users.map((u: any) => u.user_id)).toEqual([guestHost.id]);
  });

  it('accepts v1 date spellings and answers the dates as v1 printed them', async () => {
    const answer = await gw.v1('/report/getaccountreport', { from: '03/01/2024', to: '2024-3-31' });
    expect(answer).toMatchObject({ from: '2024-3-1', to: '2024-3-31', total_meetings: 4 });
  });

  it('reads a date-time as the date written in it, as the Ruby and Python bindings send report dates', async () => {
    const asDates = await gw.v1('/report/getaccountreport', MARCH);
    // Ruby's `strftime("%FT%TZ")` and Python's `date_to_str` of the caller's own dates and local times.
    for (const range of [
      { from: '2024-03-01T00:00:00Z', to: '2024-03-31T00:00:00Z' },
      { from: '2024-03-01T23:30:00Z', to: '2024-03-31T23:59:59Z' },
      { from: '2024-03-01T00:00:00+02:00', to: '2024-03-31T08:15:00-05:00' },
    ]) {
      expect(await gw.v1('/report/getaccountreport', range), JSON.stringify(range)).toEqual(asDates);
    }
    expectV1Error(
      await gw.v1('/report/getaccountreport', { from: '2024-03-01T25:00:00Z', to: '2024-03-31' }),
      300,
      /^Invalid parameter: from\./,
    );
  });

  it('answers a v1 error for a missing, impossible or backwards range, and calls nothing', async () => {
    expect(await gw.v1('/report/getaccountreport', { from: '2024-03-01' })).toEqual({ error: { code: 300, message: 'to is required.' } });
    for (const params of [
      { from: '2024-02-30', to: '2024-03-31' },
      { from: '2024-03-31', to: '2024-03-01' },
      { ...MARCH, page_size: '301' },
    ]) {
      const reply = await gw.v1Raw('/report/getaccountreport', params);
      expectV1Error(reply.body, 300);
      expect(reply.headers.get('x-v2-calls')).toBe('0');
    }
  });
});

describe('/report/getuserreport', () => {
  it("answers the meetings the user hosted, each with its participants as v1 nested them, with v2's values", async () => {
    const answer = await gw.v1('/report/getuserreport', { user_id: ownerId, ...MARCH });
    expectExampleShape(answer, '/report/getuserreport', { inOrder: true });
    expect(answer).toMatchObject({ page_count: 1, page_number: 1, page_size: 30, total_records: 3, from: '2024-3-1', to: '2024-3-31' });
    const participantShape = v1ExampleShape('/report/getuserreport', 'meetings.participants');
    for (const meeting of answer.meetings) {
      // The reference's fields, and the number again as `id`, where the Moodle plugin reads it.
      const { number, ...rest } = meeting;
      expect(meeting.id).toBe(number);
      const { id: _id, ...withoutId } = rest;
      expectExampleShape({ number, ...withoutId }, '/report/getuserreport', { item: 'meetings', inOrder: true });
      for (const p of meeting.participants) expect(Object.keys(p)).toEqual(Object.keys(participantShape));
    }

    const v2 = (await gw.v2('GET', `/report/users/${ownerId}/meetings`, { query: MARCH })).body.meetings;
    expect(answer.meetings.map((m: any) => [m.number, m.topic, m.start_time, m.end_time, m.duration])).toEqual(
      v2.map((m: any) => [m.id, m.topic, m.start_time, m.end_time, m.duration]),
    );
    for (const [i, meeting] of v2.entries()) {
      const reported = (await gw.v2('GET', `/report/meetings/${encodeURIComponent(meeting.uuid)}/participants`)).body.participants;
      expect(answer.meetings[i].participants).toEqual(
        reported.map((p: any) => ({ name: p.name, join_time: p.join_time, leave_time: p.leave_time })),
      );
    }
    expect(answer.meetings.map((m: any) => m.participants.map((p: any) => p.name))).toEqual([
      ['Sandbox Owner', 'Ann', 'Bo'],
      ['Sandbox Owner', 'Cy'],
      ['Sandbox Owner', 'Di', 'Ed', 'Fay'],
    ]);
    expect(answer.meetings[0]).toMatchObject({ start_time: '2024-03-04T09:00:00Z', end_time: '2024-03-04T09:45:00Z', duration: 45 });
  });

  it("pages by number over v2's token pages, reading participants only for the meetings on the page", async () => {
    const reply = await gw.v1Raw('/report/getuserreport', { user_id: ownerId, ...MARCH, page_size: '2', page_number: '2' });
    expect(reply.body).toMatchObject({ page_count: 2, page_number: 2, page_size: 2, total_records: 3 });
    expect(reply.body.meetings.map((m: any) => m.start_time)).toEqual(['2024-03-20T23:30:00Z']);
    expect(reply.headers.get('x-v2-calls')).toBe('2'); // the meetings list, then one participant report
  });

  it("answers an empty page for a user who hosted nothing, and v1's errors for unknown users and bad input", async () => {
    expect(await gw.v1('/report/getuserreport', { user_id: idle.id, ...MARCH })).toEqual({
      page_count: 0,
      page_number: 1,
      page_size: 30,
      total_records: 0,
      from: '2024-3-1',
      to: '2024-3-31',
      meetings: [],
    });
    expectV1Error(await gw.v1('/report/getuserreport', { user_id: 'nobody-here', ...MARCH }), 1001);
    expect(await gw.v1('/report/getuserreport', MARCH)).toEqual({ error: { code: 300, message: 'user_id is required.' } });
    const backwards = await gw.v1Raw('/report/getuserreport', { user_id: ownerId, from: '2024-03-31', to: '2024-03-01' });
    expectV1Error(backwards.body, 300, /to/);
    expect(backwards.headers.get('x-v2-calls')).toBe('0');
  });
});
