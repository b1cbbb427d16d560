import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instance, Meeting } from '../../src/sandbox/model/meeting.js';
import type { User } from '../../src/sandbox/model/user.js';
import { newUser } from '../../src/sandbox/users/factory.js';
import { schemaProblems } from '../support/openapi.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';

let sb: RunningSandbox;
let owner: User;
beforeAll(async () => {
  sb = await startSandbox();
  owner = sb.sandbox.state.users.get(sb.sandbox.master.ownerId)!;
});
afterAll(() => sb.close());

const FUTURE = '2035-06-03T15:00:00Z';
const FULL_FIELDS = [
  'uuid',
  'id',
  'host_id',
  'topic',
  'type',
  'start_time',
  'duration',
  'timezone',
  'created_at',
  'agenda',
  'start_url',
  'join_url',
  'password',
  'h323_password',
  'encrypted_password',
  'occurrences',
  'settings',
];
const LIST_FIELDS = ['uuid', 'id', 'host_id', 'topic', 'type', 'start_time', 'duration', 'timezone', 'created_at', 'join_url'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** A user of the master account, added straight to the state (the users area owns its endpoints). */
function addUser(email: string): User {
  const user = newUser({
    accountId: sb.sandbox.master.id,
    email,
    type: 2,
    createdBy: 'custCreate',
    status: 'active',
    createdAt: sb.sandbox.state.nowIso(),
    host: 'https://sandbox.v1gate.local',
  });
  sb.sandbox.state.addUser(user);
  return user;
}

async function createMeeting(body: Record<string, unknown> = {}, userId = 'me') {
  const res = await sb.v2('POST', `/users/${userId}/meetings`, { body: { topic: 'Weekly sync', start_time: FUTURE, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const stored = (id: number): Meeting => sb.sandbox.state.meetings.get(id)!;
/** Everything the sandbox holds about meetings, to show a refused write changed nothing. */
const snapshot = () => JSON.stringify([...sb.sandbox.state.meetings.values()]);

/** Start the meeting through the control API (as its people would), answering its live instance. */
async function startLive(id: number): Promise<Instance> {
  const res = await sb.control('POST', `/meetings/${id}/start`, {});
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return stored(id).live!;
}

describe('POST /users/{userId}/meetings', () => {
  it('creates a scheduled meeting with the spec defaults and answers the full meeting', async () => {
    const res = await sb.v2('POST', '/users/me/meetings', {
      body: { topic: 'Planning', start_time: FUTURE, duration: 45, timezone: 'America/Los_Angeles', password: 'a1@-_*', agenda: 'Q3' },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(FULL_FIELDS);
    expect(schemaProblems('POST', '/users/{userId}/meetings', 201, res.body)).toEqual([]);
    const m = res.body;
    expect(m).toMatchObject({
      host_id: owner.id,
      topic: 'Planning',
      type: 2,
      start_time: FUTURE,
      duration: 45,
      timezone: 'America/Los_Angeles',
      agenda: 'Q3',
      password: 'a1@-_*',
      encrypted_password: expect.stringMatching(/^[A-Za-z0-9_-]{30}\.1$/),
      occurrences: [],
      // The passcode rides in the link, encrypted, as today's service writes it.
      join_url: `https://sandbox.v1gate.local/j/${m.id}?pwd=${m.encrypted_password}`,
      start_url: `https://sandbox.v1gate.local/s/${m.id}?zak=${owner.tokens.zak}`,
    });
    expect(Number.isInteger(m.id)).toBe(true);
    expect(String(m.id)).toMatch(/^[1-9]\d{8,10}$/);
    expect(m.uuid).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(m.created_at).toMatch(ISO);
    expect(m.h323_password).toMatch(/^\d+$/);
    expect(m.settings).toEqual({
      host_video: false,
      participant_video: false,
      cn_meeting: false,
      in_meeting: false,
      join_before_host: false,
      mute_upon_entry: false,
      watermark: false,
      use_pmi: false,
      approval_type: 2,
      registration_type: 1,
      audio: 'both',
      auto_recording: 'none',
      meeting_authentication: false,
      authentication_option: '',
      authentication_domains: '',
      // Deprecated, still answered: copies of the two above.
      enforce_login: false,
      enforce_login_domains: '',
      alternative_hosts: '',
    });
    const got = await sb.v2('GET', `/meetings/${m.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(m);
  });

  it('defaults everything for an empty body: type 2, now, 60 minutes, and a generated passcode in the join link', async () => {
    const res = await sb.v2('POST', '/users/me/meetings', { body: {} });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 2, duration: 60, topic: expect.any(String) });
    expect(res.body.password).toMatch(/^[A-Za-z0-9]{6}$/);
    expect(res.body.h323_password).toMatch(/^\d{6}$/);
    expect(res.body.join_url).toBe(`https://sandbox.v1gate.local/j/${res.body.id}?pwd=${res.body.encrypted_password}`);
    expect(Date.parse(res.body.start_time)).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("takes today's authentication settings and drops the retired enforce_login pair on create and update", async () => {
    const m = await createMeeting({
      settings: { meeting_authentication: true, authentication_domains: 'example.com', enforce_login_domains: 'x.test' },
    });
    expect(m.settings).toMatchObject({
      meeting_authentication: true,
      authentication_domains: 'example.com',
      enforce_login: true,
      enforce_login_domains: 'example.com',
    });
    await sb.v2('PATCH', `/meetings/${m.id}`, { body: { settings: { enforce_login: false } } });
    expect((await sb.v2('GET', `/meetings/${m.id}`)).body.settings).toMatchObject({ meeting_authentication: true, enforce_login: true });
  });

  it('reads a start_time without Z as local time in the given timezone', async () => {
    const m = await createMeeting({ start_time: '2035-06-03T09:00:00', timezone: 'Europe/Berlin' });
    expect(m.start_time).toBe('2035-06-03T07:00:00Z');
    expect(m.timezone).toBe('Europe/Berlin');
  });

  it('uses a numeric password as its own H.323 password', async () => {
    const m = await createMeeting({ password: '123456' });
    expect(m.h323_password).toBe('123456');
  });

  it('creates an instant meeting (type 1) starting now, and a no-fixed-time series (type 3) without start_time', async () => {
    const instant = await createMeeting({ type: 1 });
    expect(Math.abs(Date.parse(instant.start_time) - Date.now())).toBeLessThan(5000);
    const floating = await createMeeting({ type: 3 });
    expect(floating.start_time).toBeUndefined();
    expect(floating.occurrences).toEqual([]);
    expect(schemaProblems('POST', '/users/{userId}/meetings', 201, floating)).toEqual([]);
  });

  it('computes the occurrences of a fixed-time series (type 8) from its recurrence', async () => {
    const m = await createMeeting({
      type: 8,
      start_time: '2035-01-02T10:00:00Z',
      duration: 30,
      recurrence: { type: 2, weekly_days: '2,4', end_times: 3 },
    });
    // 2035-01-02 is a Tuesday: Mondays (2) and Wednesdays (4) from then on.
    expect(m.occurrences).toEqual([
      { occurrence_id: Date.parse('2035-01-03T10:00:00Z'), start_time: '2035-01-03T10:00:00Z', duration: 30, status: 'available' },
      { occurrence_id: Date.parse('2035-01-08T10:00:00Z'), start_time: '2035-01-08T10:00:00Z', duration: 30, status: 'available' },
      { occurrence_id: Date.parse('2035-01-10T10:00:00Z'), start_time: '2035-01-10T10:00:00Z', duration: 30, status: 'available' },
    ]);
    expect(m.start_time).toBe('2035-01-03T10:00:00Z');
    expect(schemaProblems('POST', '/users/{userId}/meetings', 201, m)).toEqual([]);
  });

  it('accepts the host by email and alternative hosts of the account', async () => {
    const alt = addUser('alt-host@example.com');
    const m = await createMeeting({ settings: { alternative_hosts: alt.email, approval_type: 0 } }, owner.email);
    expect(m.host_id).toBe(owner.id);
    expect(m.settings).toMatchObject({ alternative_hosts: alt.email, approval_type: 0 });
  });

  it('drops registrants_confirmation_email on create (it is an update-only setting)', async () => {
    const m = await createMeeting({ settings: { registrants_confirmation_email: true } });
    expect(m.settings).not.toHaveProperty('registrants_confirmation_email');
  });

  it('gives every meeting its own number', async () => {
    const a = await createMeeting();
    const b = await createMeeting();
    expect(a.id).not.toBe(b.id);
    expect(a.uuid).not.toBe(b.uuid);
  });

  it.each([
    ['type', { type: 5 }],
    ['type', { type: '2' }],
    ['start_time', { start_time: '03/06/2035 10:00' }],
    ['start_time', { start_time: '2035-02-30T10:00:00Z' }],
    ['timezone', { timezone: 'Mars/Olympus_Mons' }],
    ['timezone', { start_time: '2035-06-03T09:00:00' }],
    ['duration', { duration: -5 }],
    ['duration', { duration: 1.5 }],
    ['password', { password: 'abcdefghijk' }],
    ['password', { password: 'pa ss' }],
    ['topic', { topic: 42 }],
    ['settings.audio', { settings: { audio: 'radio' } }],
    ['settings.auto_recording', { settings: { auto_recording: 'tape' } }],
    ['settings.approval_type', { settings: { approval_type: 3 } }],
    ['settings.registration_type', { settings: { registration_type: 4 } }],
    ['settings.join_before_host', { settings: { join_before_host: 'yes' } }],
    ['settings.alternative_hosts', { settings: { alternative_hosts: 'nobody@nowhere.example' } }],
    ['recurrence', { type: 8 }],
    ['recurrence.type', { type: 8, recurrence: { type: 4 } }],
    ['recurrence.repeat_interval', { type: 8, recurrence: { type: 1, repeat_interval: 91 } }],
    ['recurrence.repeat_interval', { type: 8, recurrence: { type: 2, repeat_interval: 13 } }],
    ['recurrence.repeat_interval', { type: 8, recurrence: { type: 3, repeat_interval: 4 } }],
    ['recurrence.weekly_days', { type: 8, recurrence: { type: 2, weekly_days: '1,8' } }],
    ['recurrence.monthly_day', { type: 8, recurrence: { type: 3, monthly_day: 32 } }],
    ['recurrence.monthly_day', { type: 8, recurrence: { type: 3, monthly_day: 0 } }],
    ['recurrence.monthly_week', { type: 8, recurrence: { type: 3, monthly_week: 5, monthly_week_day: 2 } }],
    ['recurrence.monthly_week_day', { type: 8, recurrence: { type: 3, monthly_week: 1, monthly_week_day: 8 } }],
    ['recurrence.monthly_week_day', { type: 8, recurrence: { type: 3, monthly_week: 1 } }],
    ['recurrence.end_times', { type: 8, recurrence: { type: 1, end_times: 51 } }],
    ['recurrence.end_times', { type: 8, recurrence: { type: 1, end_times: 0 } }],
    ['recurrence.end_date_time', { type: 8, recurrence: { type: 1, end_date_time: '2035-07-01T00:00:00' } }],
    ['recurrence.end_date_time', { type: 8, recurrence: { type: 1, end_times: 2, end_date_time: '2035-07-01T00:00:00Z' } }],
    ['recurrence.end_date_time', { type: 8, recurrence: { type: 1, end_date_time: '2030-01-01T00:00:00Z' } }],
  ])('answers 400 naming %s and creates nothing', async (field, body) => {
    const before = snapshot();
    const res = await sb.v2('POST', '/users/me/meetings', { body: { start_time: FUTURE, ...body } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 300, message: 'Validation Failed.' });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(snapshot()).toBe(before);
  });

  it('answers 400 for a body that is not a JSON object', async () => {
    for (const rawBody of ['{"topic":', '[]', '']) {
      const res = await sb.v2('POST', '/users/me/meetings', { rawBody });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 300, message: 'Request Body should be a valid JSON object.' });
    }
  });

  it('answers 404 1001 for an unknown user', async () => {
    const res = await sb.v2('POST', '/users/nobody@nowhere.example/meetings', { body: {} });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(1001);
  });
});

describe('GET /meetings/{meetingId}', () => {
  it('answers 404 3001 for an unknown number, a non-number and a webinar number', async () => {
    const webinar = (await sb.v2('POST', '/users/me/webinars', { body: {} })).body;
    for (const id of ['12345678901', 'abc', String(webinar.id)]) {
      const res = await sb.v2('GET', `/meetings/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 3001, message: expect.stringContaining(id) });
    }
  });

  it('no longer finds a meeting whose host was deleted', async () => {
    const host = addUser('leaving-host@example.com');
    const m = await createMeeting({}, host.id);
    sb.sandbox.state.removeUser(host);
    expect((await sb.v2('GET', `/meetings/${m.id}`)).status).toBe(404);
    expect(sb.sandbox.state.meetings.has(m.id)).toBe(false);
  });
});

describe('PATCH /meetings/{meetingId}', () => {
  it('updates the given fields, merges settings and answers 204 with no body', async () => {
    const m = await createMeeting({ settings: { mute_upon_entry: true } });
    const res = await sb.v2('PATCH', `/meetings/${m.id}`, {
      body: { topic: 'Renamed', agenda: 'New agenda', password: 'xyz', settings: { audio: 'voip', registrants_confirmation_email: true } },
    });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const got = (await sb.v2('GET', `/meetings/${m.id}`)).body;
    expect(got).toMatchObject({ topic: 'Renamed', agenda: 'New agenda', password: 'xyz', start_time: m.start_time, duration: m.duration });
    expect(got.h323_password).toMatch(/^\d+$/);
    expect(got.settings).toMatchObject({ audio: 'voip', mute_upon_entry: true, registrants_confirmation_email: true });
    expect(schemaProblems('GET', '/meetings/{meetingId}', 200, got)).toEqual([]);
  });

  it('accepts an empty body', async () => {
    const m = await createMeeting();
    expect((await sb.v2('PATCH', `/meetings/${m.id}`, { rawBody: '' })).status).toBe(204);
  });

  it("reads a local start_time in the meeting's own timezone", async () => {
    const m = await createMeeting({ timezone: 'Asia/Tokyo' });
    await sb.v2('PATCH', `/meetings/${m.id}`, { body: { start_time: '2035-06-03T09:00:00' } });
    expect(stored(m.id).start_time).toBe('2035-06-03T00:00:00Z');
  });

  it('turns a scheduled meeting into a series and recomputes occurrences, keeping deleted ones deleted', async () => {
    const m = await createMeeting({ start_time: '2035-01-01T09:00:00Z' });
    expect((await sb.v2('PATCH', `/meetings/${m.id}`, { body: { type: 8, recurrence: { type: 1, end_times: 3 } } })).status).toBe(204);
    const series = (await sb.v2('GET', `/meetings/${m.id}`)).body;
    expect(series.occurrences.map((o: { start_time: string }) => o.start_time)).toEqual([
      '2035-01-01T09:00:00Z',
      '2035-01-02T09:00:00Z',
      '2035-01-03T09:00:00Z',
    ]);
    const second = series.occurrences[1].occurrence_id;
    expect((await sb.v2('DELETE', `/meetings/${m.id}`, { query: { occurrence_id: second } })).status).toBe(204);
    await sb.v2('PATCH', `/meetings/${m.id}`, { body: { recurrence: { type: 1, end_times: 4 } } });
    const again = (await sb.v2('GET', `/meetings/${m.id}`)).body;
    expect(again.occurrences.map((o: { status: string }) => o.status)).toEqual(['available', 'deleted', 'available', 'available']);
    // A duration change moves into every occurrence.
    await sb.v2('PATCH', `/meetings/${m.id}`, { body: { duration: 90 } });
    expect(stored(m.id).occurrences.every((o) => o.duration === 90)).toBe(true);
  });

  it.each([
    ['type', { type: 9 }],
    ['password', { password: 'has space' }],
    ['settings.audio', { settings: { audio: 'radio' } }],
    ['recurrence', { type: 8 }],
    ['recurrence.end_times', { type: 8, recurrence: { type: 1, end_times: 60 } }],
    ['settings.alternative_hosts', { topic: 'changed', settings: { alternative_hosts: 'ghost@nowhere.example' } }],
  ])('answers 400 naming %s and changes nothing', async (field, body) => {
    const m = await createMeeting();
    const before = snapshot();
    const res = await sb.v2('PATCH', `/meetings/${m.id}`, { body });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(snapshot()).toBe(before);
  });

  it('answers 400 for invalid JSON and 404 for an unknown meeting', async () => {
    const m = await createMeeting();
    expect((await sb.v2('PATCH', `/meetings/${m.id}`, { rawBody: '{nope' })).body).toEqual({
      code: 300,
      message: 'Request Body should be a valid JSON object.',
    });
    const res = await sb.v2('PATCH', '/meetings/99999999999', { body: { topic: 'x' } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(3001);
  });
});

describe('DELETE /meetings/{meetingId}', () => {
  it('deletes the meeting: 204, then 404', async () => {
    const m = await createMeeting();
    const res = await sb.v2('DELETE', `/meetings/${m.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await sb.v2('GET', `/meetings/${m.id}`)).status).toBe(404);
    expect((await sb.v2('DELETE', `/meetings/${m.id}`)).status).toBe(404);
  });

  it('with occurrence_id marks that occurrence deleted and keeps the meeting', async () => {
    const m = await createMeeting({ type: 8, recurrence: { type: 1, end_times: 2 } });
    const [first] = m.occurrences;
    expect((await sb.v2('DELETE', `/meetings/${m.id}`, { query: { occurrence_id: first.occurrence_id } })).status).toBe(204);
    const got = (await sb.v2('GET', `/meetings/${m.id}`)).body;
    expect(got.occurrences.map((o: { status: string }) => o.status)).toEqual(['deleted', 'available']);
  });

  it('answers 400 for an occurrence the meeting does not have (or no longer has) and changes nothing', async () => {
    const m = await createMeeting({ type: 8, recurrence: { type: 1, end_times: 2 } });
    await sb.v2('DELETE', `/meetings/${m.id}`, { query: { occurrence_id: m.occurrences[0].occurrence_id } });
    const before = snapshot();
    for (const occurrence_id of ['123', String(m.occurrences[0].occurrence_id)]) {
      const res = await sb.v2('DELETE', `/meetings/${m.id}`, { query: { occurrence_id } });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].field).toBe('occurrence_id');
    }
    expect(snapshot()).toBe(before);
  });

  it('ends a live meeting it deletes', async () => {
    const m = await createMeeting();
    const instance = await startLive(m.id);
    await sb.v2('DELETE', `/meetings/${m.id}`);
    expect(instance.end_time).toMatch(ISO);
    expect(stored(m.id)).toBeUndefined();
  });
});

describe('GET /users/{userId}/meetings', () => {
  let host: User;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    host = addUser('lister@example.com');
    ids.past = (await createMeeting({ topic: 'past', start_time: '2020-01-01T10:00:00Z' }, host.id)).id;
    ids.later = (await createMeeting({ topic: 'later', start_time: '2036-01-01T10:00:00Z' }, host.id)).id;
    ids.sooner = (await createMeeting({ topic: 'sooner', start_time: '2035-01-01T10:00:00Z' }, host.id)).id;
    ids.instant = (await createMeeting({ topic: 'instant', type: 1 }, host.id)).id;
    ids.floating = (await createMeeting({ topic: 'floating', type: 3 }, host.id)).id;
    ids.series = (
      await createMeeting({ topic: 'series', type: 8, start_time: '2035-06-01T10:00:00Z', recurrence: { type: 1, end_times: 2 } }, host.id)
    ).id;
    ids.pastSeries = (
      await createMeeting(
        { topic: 'past series', type: 8, start_time: '2020-06-01T10:00:00Z', recurrence: { type: 1, end_times: 2 } },
        host.id,
      )
    ).id;
    await startLive(ids.instant!);
  });
  const listed = async (query: Record<string, string | number>) => {
    const res = await sb.v2('GET', `/users/${host.id}/meetings`, { query });
    expect(res.status).toBe(200);
    return res;
  };
  const topics = (body: { meetings: { topic: string }[] }) => body.meetings.map((m) => m.topic);

  it("lists scheduled meetings by default (today's documents' default), with paging fields and list items", async () => {
    const res = await listed({});
    // Today's service leaves the deprecated page_count and page_number out of a user's meetings.
    expect(res.body).toMatchObject({ page_size: 30, total_records: 6, next_page_token: '' });
    expect(Object.keys(res.body)).toEqual(['page_size', 'total_records', 'next_page_token', 'meetings']);
    expect(topics(res.body)).toEqual(['past', 'later', 'sooner', 'floating', 'series', 'past series']);
    expect(topics((await listed({ type: 'live' })).body)).toEqual(['instant']);
    expect(Object.keys(res.body.meetings[0])).toEqual(LIST_FIELDS);
    expect(schemaProblems('GET', '/users/{userId}/meetings', 200, res.body)).toEqual([]);
  });

  it('lists every scheduled meeting (all but instant ones) for type scheduled', async () => {
    const res = await listed({ type: 'scheduled' });
    expect(topics(res.body)).toEqual(['past', 'later', 'sooner', 'floating', 'series', 'past series']);
    expect(schemaProblems('GET', '/users/{userId}/meetings', 200, res.body)).toEqual([]);
  });

  it('lists meetings still to come, soonest first, for type upcoming', async () => {
    expect(topics((await listed({ type: 'upcoming' })).body)).toEqual(['sooner', 'series', 'later']);
  });

  it('drops a series from upcoming once its future occurrences are deleted', async () => {
    const m = stored(ids.series!);
    for (const o of m.occurrences) await sb.v2('DELETE', `/meetings/${m.id}`, { query: { occurrence_id: o.occurrence_id } });
    expect(topics((await listed({ type: 'upcoming' })).body)).toEqual(['sooner', 'later']);
  });

  it('pages', async () => {
    const res = await listed({ type: 'scheduled', page_size: 4, page_number: 2 });
    expect(res.body).toMatchObject({ page_size: 4, total_records: 6, next_page_token: '' });
    expect(topics(res.body)).toEqual(['series', 'past series']);
  });

  it("lists only the user's own meetings", async () => {
    const other = (await sb.v2('GET', '/users/me/meetings', { query: { type: 'scheduled' } })).body;
    expect(other.meetings.some((m: { host_id: string }) => m.host_id === host.id)).toBe(false);
  });

  it('answers 400 for an unknown type or page_size over 300, and 404 1001 for an unknown user', async () => {
    for (const query of [{ type: 'past' }, { page_size: 301 }, { page_number: 0 }]) {
      const res = await sb.v2('GET', `/users/${host.id}/meetings`, { query });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(300);
    }
    const res = await sb.v2('GET', '/users/nobody@nowhere.example/meetings');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(1001);
  });
});

describe('PUT /meetings/{meetingId}/status', () => {
  it('ends the live instance: end_time set, participants leave, no longer live', async () => {
    const m = await createMeeting();
    const instance = await startLive(m.id);
    const res = await sb.v2('PUT', `/meetings/${m.id}/status`, { body: { action: 'end' } });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(stored(m.id).live).toBeNull();
    expect(instance.end_time).toMatch(ISO);
    expect(instance.participants[0]!.leave_time).toBe(instance.end_time);
    expect(stored(m.id).instances).toContain(instance);
    // The ended instance is what the post-meeting endpoints report.
    const past = await sb.v2('GET', `/past_meetings/${encodeURIComponent(encodeURIComponent(instance.uuid))}`);
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ uuid: instance.uuid, id: m.id, end_time: instance.end_time });
    const live = (await sb.v2('GET', '/users/me/meetings', { query: { type: 'live' } })).body;
    expect(live.meetings.some((x: { id: number }) => x.id === m.id)).toBe(false);
  });

  it('answers 204 and changes nothing for a meeting that is not live, or with no action', async () => {
    const m = await createMeeting();
    const before = snapshot();
    expect((await sb.v2('PUT', `/meetings/${m.id}/status`, { body: { action: 'end' } })).status).toBe(204);
    expect((await sb.v2('PUT', `/meetings/${m.id}/status`, { body: {} })).status).toBe(204);
    expect(snapshot()).toBe(before);
  });

  it('answers 400 for an unknown action (changing nothing) and 404 for an unknown meeting', async () => {
    const m = await createMeeting();
    await startLive(m.id);
    const res = await sb.v2('PUT', `/meetings/${m.id}/status`, { body: { action: 'pause' } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('action');
    expect(stored(m.id).live).not.toBeNull();
    expect((await sb.v2('PUT', '/meetings/99999999999/status', { body: { action: 'end' } })).body.code).toBe(3001);
  });
});

describe('meeting registrants', () => {
  const person = (email: string, extra: Record<string, unknown> = {}) => ({ email, first_name: 'Ada', last_name: 'Lovelace', ...extra });
  const register = (id: number, body: unknown, query?: Record<string, string>) =>
    sb.v2('POST', `/meetings/${id}/registrants`, { body, query });
  const list = (id: number, query: Record<string, string | number> = {}) => sb.v2('GET', `/meetings/${id}/registrants`, { query });

  it('registers with automatic approval and answers registrant_id, id, topic, start_time, join_url', async () => {
    const m = await createMeeting({ settings: { approval_type: 0 } });
    const res = await register(
      m.id,
      person('ada@example.com', {
        city: 'London',
        purchasing_time_frame: '1-3 months',
        role_in_purchase_process: 'Influencer',
        no_of_employees: '500-1,000',
        custom_questions: [{ title: 'Why?', value: 'Because.' }],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      registrant_id: expect.any(String),
      id: m.id,
      topic: m.topic,
      start_time: m.start_time,
      join_url: expect.stringMatching(new RegExp(`^https://sandbox\\.v1gate\\.local/w/${m.id}\\?tk=`)),
    });
    expect(schemaProblems('POST', '/meetings/{meetingId}/registrants', 201, res.body)).toEqual([]);

    const listedRes = await list(m.id);
    expect(listedRes.status).toBe(200);
    expect(Object.keys(listedRes.body)).toEqual(['page_size', 'total_records', 'next_page_token', 'registrants']);
    expect(listedRes.body).toMatchObject({ page_size: 30, total_records: 1, next_page_token: '' });
    expect(listedRes.body.registrants[0]).toEqual({
      id: res.body.registrant_id,
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      address: '',
      city: 'London',
      country: '',
      zip: '',
      state: '',
      phone: '',
      industry: '',
      org: '',
      job_title: '',
      purchasing_time_frame: '1-3 months',
      role_in_purchase_process: 'Influencer',
      no_of_employees: '500-1,000',
      comments: '',
      custom_questions: [{ title: 'Why?', value: 'Because.' }],
      status: 'approved',
      create_time: expect.stringMatching(ISO),
      join_url: res.body.join_url,
    });
    expect(schemaProblems('GET', '/meetings/{meetingId}/registrants', 200, listedRes.body)).toEqual([]);
  });

  it('makes registrations pending under manual approval; the list shows approved ones unless asked', async () => {
    const m = await createMeeting({ settings: { approval_type: 1 } });
    await register(m.id, person('pending@example.com'));
    expect((await list(m.id)).body.total_records).toBe(0);
    const pending = (await list(m.id, { status: 'pending' })).body;
    expect(pending.registrants.map((r: { email: string; status: string }) => [r.email, r.status])).toEqual([
      ['pending@example.com', 'pending'],
    ]);
  });

  it('answers 400 code 300 when the meeting has no registration, registering nobody', async () => {
    const m = await createMeeting();
    const res = await register(m.id, person('nope@example.com'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 300, message: `Registration has not been enabled for this meeting: ${m.id}.` });
    expect(stored(m.id).registrants).toEqual([]);
  });

  it('gives a repeat registration of the same email its existing registration back', async () => {
    const m = await createMeeting({ settings: { approval_type: 0 } });
    const first = (await register(m.id, person('twice@example.com'))).body;
    const second = await register(m.id, person('TWICE@example.com', { first_name: 'Other' }));
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first);
    expect((await list(m.id)).body.total_records).toBe(1);
  });

  it.each([
    ['email', person('not-an-email')],
    ['first_name', { email: 'a@example.com', last_name: 'L' }],
    ['last_name', { email: 'a@example.com', first_name: 'F' }],
    ['purchasing_time_frame', person('a@example.com', { purchasing_time_frame: 'Someday' })],
    ['role_in_purchase_process', person('a@example.com', { role_in_purchase_process: 'Boss' })],
    ['no_of_employees', person('a@example.com', { no_of_employees: '101-250' })],
    ['custom_questions.0.value', person('a@example.com', { custom_questions: [{ title: 'q', value: 3 }] })],
  ])('answers 400 naming %s and registers nobody', async (field, body) => {
    const m = await createMeeting({ settings: { approval_type: 0 } });
    const res = await register(m.id, body);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(stored(m.id).registrants).toEqual([]);
  });

  it('registers for chosen occurrences (registration type 3) and filters the list by occurrence', async () => {
    const m = await createMeeting({ type: 8, recurrence: { type: 1, end_times: 3 }, settings: { approval_type: 0, registration_type: 3 } });
    const [o1, o2, o3] = m.occurrences.map((o: { occurrence_id: number }) => String(o.occurrence_id));
    const res = await register(m.id, person('some@example.com'), { occurrence_ids: `${o2},${o3}` });
    expect(res.status).toBe(201);
    expect(res.body.start_time).toBe(m.occurrences[1].start_time);
    expect((await list(m.id, { occurrence_id: o1! })).body.total_records).toBe(0);
    expect((await list(m.id, { occurrence_id: o3! })).body.total_records).toBe(1);
    expect((await list(m.id)).body.total_records).toBe(1);
  });

  it('answers 400 for occurrence ids the meeting does not have, registering nobody', async () => {
    const m = await createMeeting({ type: 8, recurrence: { type: 1, end_times: 2 }, settings: { approval_type: 0, registration_type: 3 } });
    const res = await register(m.id, person('x@example.com'), { occurrence_ids: `${m.occurrences[0].occurrence_id},42` });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('occurrence_ids');
    expect(stored(m.id).registrants).toEqual([]);
    expect((await list(m.id, { occurrence_id: '42' })).status).toBe(400);
  });

  it('pages the list by page_number and refuses page_size over 300', async () => {
    const m = await createMeeting({ settings: { approval_type: 0 } });
    for (const n of [1, 2, 3]) await register(m.id, person(`r${n}@example.com`));
    const page = (await list(m.id, { page_size: 2, page_number: 2 })).body;
    expect(page).toEqual({
      page_size: 2,
      total_records: 3,
      next_page_token: '',
      registrants: [expect.objectContaining({ email: 'r3@example.com' })],
    });
    expect((await list(m.id, { page_size: 301 })).status).toBe(400);
    expect((await list(m.id, { status: 'cancelled' })).status).toBe(400);
  });

  it('answers a next_page_token whenever results exceed the page, which continues the list (also after a page_number)', async () => {
    const m = await createMeeting({ settings: { approval_type: 0 } });
    for (const n of [1, 2, 3, 4, 5]) await register(m.id, person(`r${n}@example.com`));
    const emails = (body: { registrants: { email: string }[] }) => body.registrants.map((r) => r.email);

    const first = await list(m.id, { page_size: 2 });
    expect(first.status).toBe(200);
    expect(schemaProblems('GET', '/meetings/{meetingId}/registrants', 200, first.body)).toEqual([]);
    expect(first.body).not.toHaveProperty('page_count');
    expect(first.body).toMatchObject({
      page_size: 2,
      total_records: 5,
      next_page_token: expect.stringMatching(/^[\w-]{16,}$/),
    });
    expect(emails(first.body)).toEqual(['r1@example.com', 'r2@example.com']);
    const second = (await list(m.id, { page_size: 2, next_page_token: first.body.next_page_token })).body;
    expect(emails(second)).toEqual(['r3@example.com', 'r4@example.com']);
    const last = (await list(m.id, { page_size: 2, next_page_token: second.next_page_token })).body;
    expect(last).toMatchObject({ next_page_token: '', total_records: 5 });
    expect(emails(last)).toEqual(['r5@example.com']);

    // A page_number page issues a token for the page after it; a token, when given, wins over page_number.
    const numbered = (await list(m.id, { page_size: 2, page_number: 2 })).body;
    expect(emails(numbered)).toEqual(['r3@example.com', 'r4@example.com']);
    expect(emails((await list(m.id, { page_size: 2, page_number: 1, next_page_token: numbered.next_page_token })).body)).toEqual([
      'r5@example.com',
    ]);
    // Everything on one page: no token.
    expect((await list(m.id)).body).toMatchObject({ total_records: 5, next_page_token: '' });
  });

  it('refuses an unknown token and a token of another list (status, occurrence or meeting) with 400 on next_page_token', async () => {
    const [m, other] = [await createMeeting({ settings: { approval_type: 0 } }), await createMeeting({ settings: { approval_type: 0 } })];
    for (const id of [m.id, other.id]) for (const n of [1, 2]) await register(id, person(`r${n}@example.com`));
    const { next_page_token } = (await list(m.id, { page_size: 1 })).body;
    for (const [id, query] of [
      [m.id, { next_page_token: 'not-a-token' }],
      [m.id, { status: 'pending', next_page_token }],
      [other.id, { next_page_token }],
    ] as const) {
      const res = await list(id, { page_size: 1, ...query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body).toMatchObject({ code: 300, message: 'Validation Failed.', errors: [{ field: 'next_page_token' }] });
    }
    // The token still works on its own list.
    expect((await list(m.id, { page_size: 1, next_page_token })).body.registrants).toHaveLength(1);
  });

  it('answers 404 3001 for an unknown meeting', async () => {
    expect((await register(99999999999, person('a@example.com'))).body.code).toBe(3001);
    expect((await list(99999999999)).body.code).toBe(3001);
  });
});

describe('PUT /meetings/{meetingId}/registrants/status', () => {
  const setStatus = (id: number, body: unknown, query?: Record<string, string>) =>
    sb.v2('PUT', `/meetings/${id}/registrants/status`, { body, query });
  const statuses = (id: number) => Object.fromEntries(stored(id).registrants.map((r) => [r.email, r.status]));

  async function meetingWithPending(...emails: string[]) {
    const m = await createMeeting({ settings: { approval_type: 1 } });
    const ids: string[] = [];
    for (const email of emails) {
      ids.push(
        (await sb.v2('POST', `/meetings/${m.id}/registrants`, { body: { email, first_name: 'F', last_name: 'L' } })).body.registrant_id,
      );
    }
    return { m, ids };
  }

  it('approves and denies the named registrants (by id or email) and answers 204', async () => {
    const { m, ids } = await meetingWithPending('a@example.com', 'b@example.com', 'c@example.com');
    const res = await setStatus(m.id, { action: 'approve', registrants: [{ id: ids[0] }, { email: 'B@example.com' }] });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(statuses(m.id)).toEqual({ 'a@example.com': 'approved', 'b@example.com': 'approved', 'c@example.com': 'pending' });
    await setStatus(m.id, { action: 'deny', registrants: [{ id: ids[2] }] });
    expect(statuses(m.id)['c@example.com']).toBe('denied');
    const denied = (await sb.v2('GET', `/meetings/${m.id}/registrants`, { query: { status: 'denied' } })).body;
    expect(denied.registrants.map((r: { id: string }) => r.id)).toEqual([ids[2]]);
  });

  it('applies the action to every registrant when no array is given', async () => {
    const { m } = await meetingWithPending('a@example.com', 'b@example.com');
    await setStatus(m.id, { action: 'approve' });
    expect(Object.values(statuses(m.id))).toEqual(['approved', 'approved']);
  });

  it('cancels: the registration disappears from every list and the email may register again', async () => {
    const { m, ids } = await meetingWithPending('a@example.com');
    await setStatus(m.id, { action: 'approve' });
    await setStatus(m.id, { action: 'cancel', registrants: [{ id: ids[0] }] });
    for (const status of ['pending', 'approved', 'denied']) {
      expect((await sb.v2('GET', `/meetings/${m.id}/registrants`, { query: { status } })).body.total_records).toBe(0);
    }
    expect((await setStatus(m.id, { action: 'approve', registrants: [{ id: ids[0] }] })).status).toBe(404);
    const again = await sb.v2('POST', `/meetings/${m.id}/registrants`, {
      body: { email: 'a@example.com', first_name: 'F', last_name: 'L' },
    });
    expect(again.body.registrant_id).not.toBe(ids[0]);
    expect(statuses(m.id)).toEqual({ 'a@example.com': 'pending' });
  });

  it('answers 404 3027 for an unknown registrant and changes no one', async () => {
    const { m, ids } = await meetingWithPending('a@example.com');
    const before = snapshot();
    const res = await setStatus(m.id, { action: 'approve', registrants: [{ id: ids[0] }, { email: 'ghost@example.com' }] });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(3027);
    expect(snapshot()).toBe(before);
  });

  it.each([
    ['action', {}],
    ['action', { action: 'archive' }],
    ['registrants', { action: 'approve', registrants: Array.from({ length: 31 }, (_, i) => ({ email: `r${i}@example.com` })) }],
    ['registrants.0', { action: 'approve', registrants: [{}] }],
  ])('answers 400 naming %s', async (field, body) => {
    const { m } = await meetingWithPending('a@example.com');
    const before = snapshot();
    const res = await setStatus(m.id, body);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(snapshot()).toBe(before);
  });

  it("limits the change to one occurrence's registrants with occurrence_id", async () => {
    const m = await createMeeting({ type: 8, recurrence: { type: 1, end_times: 2 }, settings: { approval_type: 1, registration_type: 2 } });
    const [o1, o2] = m.occurrences.map((o: { occurrence_id: number }) => String(o.occurrence_id));
    const reg = (email: string, occ: string) =>
      sb.v2('POST', `/meetings/${m.id}/registrants`, { query: { occurrence_ids: occ }, body: { email, first_name: 'F', last_name: 'L' } });
    await reg('one@example.com', o1);
    await reg('two@example.com', o2);
    expect((await setStatus(m.id, { action: 'approve' }, { occurrence_id: o2! })).status).toBe(204);
    expect(statuses(m.id)).toEqual({ 'one@example.com': 'pending', 'two@example.com': 'approved' });
    expect((await setStatus(m.id, { action: 'approve' }, { occurrence_id: '1' })).status).toBe(400);
  });

  it('answers 404 3001 for an unknown meeting and 400 for invalid JSON', async () => {
    expect((await setStatus(99999999999, { action: 'approve' })).body.code).toBe(3001);
    const { m } = await meetingWithPending();
    expect((await sb.v2('PUT', `/meetings/${m.id}/registrants/status`, { rawBody: 'x' })).body.message).toBe(
      'Request Body should be a valid JSON object.',
    );
  });
});
