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
  'agenda',
  'created_at',
  'start_url',
  'join_url',
  'occurrences',
  'settings',
];
const LIST_FIELDS = ['uuid', 'id', 'host_id', 'topic', 'type', 'duration', 'timezone', 'created_at', 'join_url'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

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

async function createWebinar(body: Record<string, unknown> = {}, userId = 'me') {
  const res = await sb.v2('POST', `/users/${userId}/webinars`, { body: { topic: 'Launch', start_time: FUTURE, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const stored = (id: number): Meeting => sb.sandbox.state.meetings.get(id)!;
const snapshot = () => JSON.stringify([...sb.sandbox.state.meetings.values()]);

describe('POST /users/{userId}/webinars', () => {
  it('creates a webinar with the spec defaults and answers the full webinar, without password', async () => {
    const res = await sb.v2('POST', '/users/me/webinars', {
      body: { topic: 'Launch', start_time: FUTURE, duration: 90, timezone: 'Europe/Paris', agenda: 'All hands', password: 'secret' },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(FULL_FIELDS);
    expect(schemaProblems('POST', '/users/{userId}/webinars', 201, res.body)).toEqual([]);
    const w = res.body;
    expect(w).toMatchObject({
      host_id: owner.id,
      topic: 'Launch',
      type: 5,
      start_time: FUTURE,
      duration: 90,
      timezone: 'Europe/Paris',
      agenda: 'All hands',
      occurrences: [],
      join_url: `https://sandbox.v1gate.local/j/${w.id}`,
      start_url: `https://sandbox.v1gate.local/s/${w.id}?zak=${owner.tokens.zak}`,
    });
    expect(w.created_at).toMatch(ISO);
    expect(w.settings).toEqual({
      host_video: false,
      panelists_video: false,
      practice_session: false,
      hd_video: false,
      approval_type: 2,
      registration_type: 1,
      audio: 'both',
      auto_recording: 'none',
      meeting_authentication: false,
      authentication_option: '',
      authentication_domains: '',
      enforce_login: false,
      enforce_login_domains: '',
      alternative_hosts: '',
      close_registration: false,
      show_share_button: false,
      allow_multiple_devices: false,
    });
    expect(stored(w.id).password).toBe('secret');
    expect((await sb.v2('GET', `/webinars/${w.id}`)).body).toEqual(w);
  });

  it('creates a no-fixed-time series (6) without start_time and a fixed-time series (9) with occurrences', async () => {
    const floating = await createWebinar({ type: 6 });
    expect(floating.start_time).toBeUndefined();
    const series = await createWebinar({
      type: 9,
      start_time: '2035-01-01T18:00:00',
      timezone: 'America/New_York',
      recurrence: { type: 3, monthly_week: 1, monthly_week_day: 3, end_times: 2 },
    });
    // First Tuesdays (3) of January and February 2035, 18:00 in New York.
    expect(series.occurrences.map((o: { start_time: string }) => o.start_time)).toEqual(['2035-01-02T23:00:00Z', '2035-02-06T23:00:00Z']);
    expect(series.occurrences[0].occurrence_id).toBe(Date.parse('2035-01-02T23:00:00Z'));
    expect(schemaProblems('GET', '/webinars/{webinarId}', 200, series)).toEqual([]);
  });

  it('ignores meeting-only settings', async () => {
    const w = await createWebinar({ settings: { mute_upon_entry: true, hd_video: true } });
    expect(w.settings).not.toHaveProperty('mute_upon_entry');
    expect(w.settings.hd_video).toBe(true);
  });

  it.each([
    ['type', { type: 2 }],
    ['type', { type: 8 }],
    ['password', { password: 'way-too-long-pw' }],
    ['settings.hd_video', { settings: { hd_video: 1 } }],
    ['settings.approval_type', { settings: { approval_type: -1 } }],
    ['recurrence', { type: 9 }],
    ['recurrence.end_times', { type: 9, recurrence: { type: 2, end_times: 51 } }],
    ['timezone', { start_time: '2035-06-03T09:00:00' }],
  ])('answers 400 naming %s and creates nothing', async (field, body) => {
    const before = snapshot();
    const res = await sb.v2('POST', '/users/me/webinars', { body: { start_time: FUTURE, ...body } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 300, message: 'Validation Failed.' });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(snapshot()).toBe(before);
  });

  it('answers 400 for invalid JSON and 404 1001 for an unknown user', async () => {
    expect((await sb.v2('POST', '/users/me/webinars', { rawBody: 'nope' })).body.message).toBe(
      'Request Body should be a valid JSON object.',
    );
    expect((await sb.v2('POST', '/users/ghost@nowhere.example/webinars', { body: {} })).body.code).toBe(1001);
  });
});

describe('GET /users/{userId}/webinars', () => {
  it('lists every webinar of the user, with paging fields and list items (no start_time)', async () => {
    const host = addUser('webinar-host@example.com');
    await createWebinar({ topic: 'one' }, host.id);
    await createWebinar({ topic: 'two', start_time: '2020-01-01T00:00:00Z' }, host.id);
    await createWebinar({ topic: 'three', type: 6 }, host.id);
    await sb.v2('POST', `/users/${host.id}/meetings`, { body: { topic: 'a meeting' } });
    const res = await sb.v2('GET', `/users/${host.id}/webinars`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['page_size', 'total_records', 'next_page_token', 'webinars']);
    expect(res.body).toMatchObject({ page_size: 30, total_records: 3, next_page_token: '' });
    expect(res.body.webinars.map((w: { topic: string }) => w.topic)).toEqual(['one', 'two', 'three']);
    for (const item of res.body.webinars) expect(Object.keys(item)).toEqual(LIST_FIELDS);
    expect(schemaProblems('GET', '/users/{userId}/webinars', 200, res.body)).toEqual([]);
    const page = (await sb.v2('GET', `/users/${host.id}/webinars`, { query: { page_size: 2, page_number: 2 } })).body;
    expect(page.webinars.map((w: { topic: string }) => w.topic)).toEqual(['three']);
  });

  it('answers 400 for page_size over 300 and 404 1001 for an unknown user', async () => {
    expect((await sb.v2('GET', '/users/me/webinars', { query: { page_size: 301 } })).status).toBe(400);
    expect((await sb.v2('GET', '/users/ghost@nowhere.example/webinars')).body.code).toBe(1001);
  });
});

describe('GET, PATCH and DELETE /webinars/{webinarId}', () => {
  it('answers 404 3001 for an unknown number and for a meeting number', async () => {
    const meeting = (await sb.v2('POST', '/users/me/meetings', { body: {} })).body;
    for (const id of ['99999999999', String(meeting.id)]) {
      const res = await sb.v2('GET', `/webinars/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(3001);
      expect(res.body.message).toContain('Webinar');
    }
  });

  it('updates and answers 204 with no body', async () => {
    const w = await createWebinar();
    const res = await sb.v2('PATCH', `/webinars/${w.id}`, {
      body: {
        topic: 'Relaunch',
        type: 9,
        recurrence: { type: 1, end_times: 2 },
        settings: { practice_session: true, registrants_confirmation_email: false },
      },
    });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const got = (await sb.v2('GET', `/webinars/${w.id}`)).body;
    expect(got).toMatchObject({ topic: 'Relaunch', type: 9 });
    expect(got.occurrences).toHaveLength(2);
    expect(got.settings).toMatchObject({ practice_session: true, registrants_confirmation_email: false, hd_video: false });
  });

  it('refuses an invalid update, changing nothing, and answers 404 for an unknown webinar', async () => {
    const w = await createWebinar();
    const before = snapshot();
    const res = await sb.v2('PATCH', `/webinars/${w.id}`, { body: { topic: 'x', type: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('type');
    expect(snapshot()).toBe(before);
    expect((await sb.v2('PATCH', '/webinars/99999999999', { body: {} })).body.code).toBe(3001);
  });

  it('deletes one occurrence or the whole webinar', async () => {
    const w = await createWebinar({ type: 9, recurrence: { type: 2, weekly_days: 5, end_times: 2 } });
    expect((await sb.v2('DELETE', `/webinars/${w.id}`, { query: { occurrence_id: w.occurrences[1].occurrence_id } })).status).toBe(204);
    expect(stored(w.id).occurrences.map((o) => o.status)).toEqual(['available', 'deleted']);
    expect((await sb.v2('DELETE', `/webinars/${w.id}`, { query: { occurrence_id: 'tomorrow' } })).status).toBe(400);
    const res = await sb.v2('DELETE', `/webinars/${w.id}`);
    expect(res.status).toBe(204);
    expect((await sb.v2('GET', `/webinars/${w.id}`)).status).toBe(404);
    expect((await sb.v2('DELETE', `/webinars/${w.id}`)).body.code).toBe(3001);
  });
});

describe('PUT /webinars/{webinarId}/status', () => {
  async function startLive(id: number): Promise<Instance> {
    expect((await sb.control('POST', `/meetings/${id}/start`, {})).status).toBe(201);
    return stored(id).live!;
  }

  it('ends the live webinar with body action end', async () => {
    const w = await createWebinar();
    const instance = await startLive(w.id);
    // `status` is the name a former spec of ours gave the field; today's document names it `action`, so this ends nothing.
    expect((await sb.v2('PUT', `/webinars/${w.id}/status`, { body: { status: 'end' } })).status).toBe(204);
    expect(stored(w.id).live).toBe(instance);
    const res = await sb.v2('PUT', `/webinars/${w.id}/status`, { body: { action: 'end' } });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(stored(w.id).live).toBeNull();
    expect(instance.end_time).toMatch(ISO);
  });

  it('answers 400 for another action and 404 for an unknown webinar', async () => {
    const w = await createWebinar();
    const res = await sb.v2('PUT', `/webinars/${w.id}/status`, { body: { action: 'start' } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('action');
    expect((await sb.v2('PUT', '/webinars/99999999999/status', { body: { action: 'end' } })).body.code).toBe(3001);
  });
});

describe('webinar panelists', () => {
  const path = (id: number) => `/webinars/${id}/panelists`;

  it('adds panelists (201 id, join_url) and lists them (total_records, panelists)', async () => {
    const w = await createWebinar();
    const res = await sb.v2('POST', path(w.id), {
      body: {
        panelists: [
          { name: 'Grace Hopper', email: 'grace@example.com' },
          { name: 'Alan Turing', email: 'alan@example.com' },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['id', 'join_url']);
    expect(schemaProblems('POST', '/webinars/{webinarId}/panelists', 201, res.body)).toEqual([]);

    const listed = await sb.v2('GET', path(w.id));
    expect(listed.status).toBe(200);
    expect(schemaProblems('GET', '/webinars/{webinarId}/panelists', 200, listed.body)).toEqual([]);
    expect(listed.body.total_records).toBe(2);
    const [grace, alan] = listed.body.panelists;
    expect(grace).toEqual({
      id: expect.any(String),
      name: 'Grace Hopper',
      email: 'grace@example.com',
      join_url: expect.stringMatching(new RegExp(`^https://sandbox\\.v1gate\\.local/w/${w.id}\\?tk=`)),
    });
    expect(res.body).toEqual({ id: `${grace.id},${alan.id}`, join_url: grace.join_url });
  });

  it('keeps one panelist per email: adding it again renames that panelist', async () => {
    const w = await createWebinar();
    const first = (await sb.v2('POST', path(w.id), { body: { panelists: [{ name: 'G', email: 'g@example.com' }] } })).body;
    const again = (await sb.v2('POST', path(w.id), { body: { panelists: [{ name: 'Grace', email: 'G@example.com' }] } })).body;
    expect(again.id).toBe(first.id);
    const listed = (await sb.v2('GET', path(w.id))).body;
    expect(listed.total_records).toBe(1);
    expect(listed.panelists[0].name).toBe('Grace');
  });

  it.each([
    ['panelists', {}],
    ['panelists', { panelists: [] }],
    ['panelists', { panelists: Array.from({ length: 31 }, (_, i) => ({ name: `P${i}`, email: `p${i}@example.com` })) }],
    ['panelists.0.email', { panelists: [{ name: 'No Mail', email: 'nomail' }] }],
    ['panelists.0.name', { panelists: [{ email: 'noname@example.com' }] }],
  ])('answers 400 naming %s and adds nobody', async (field, body) => {
    const w = await createWebinar();
    const res = await sb.v2('POST', path(w.id), { body });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(stored(w.id).panelists).toEqual([]);
  });

  it('removes one panelist, then all; an unknown panelist is 404 3028', async () => {
    const w = await createWebinar();
    await sb.v2('POST', path(w.id), {
      body: {
        panelists: [
          { name: 'A', email: 'a@example.com' },
          { name: 'B', email: 'b@example.com' },
        ],
      },
    });
    const [a] = (await sb.v2('GET', path(w.id))).body.panelists;
    const res = await sb.v2('DELETE', `${path(w.id)}/${a.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await sb.v2('GET', path(w.id))).body.panelists.map((p: { email: string }) => p.email)).toEqual(['b@example.com']);
    const missing = await sb.v2('DELETE', `${path(w.id)}/${a.id}`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(3028);
    expect((await sb.v2('DELETE', path(w.id))).status).toBe(204);
    expect((await sb.v2('GET', path(w.id))).body).toEqual({ total_records: 0, panelists: [] });
  });

  it('answers 404 3001 for an unknown webinar, and for a meeting', async () => {
    const meeting = (await sb.v2('POST', '/users/me/meetings', { body: {} })).body;
    for (const id of [99999999999, meeting.id]) {
      expect((await sb.v2('GET', path(id))).body.code).toBe(3001);
      expect((await sb.v2('POST', path(id), { body: { panelists: [{ name: 'A', email: 'a@example.com' }] } })).body.code).toBe(3001);
      expect((await sb.v2('DELETE', path(id))).body.code).toBe(3001);
    }
  });
});

describe('webinar registrants', () => {
  it('registers, lists and approves registrants the way meetings do', async () => {
    const w = await createWebinar({ settings: { approval_type: 1 } });
    const res = await sb.v2('POST', `/webinars/${w.id}/registrants`, {
      body: { email: 'fan@example.com', first_name: 'Fan', last_name: 'Club', org: 'Fans Inc' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: w.id, topic: w.topic, start_time: w.start_time });
    expect(schemaProblems('POST', '/webinars/{webinarId}/registrants', 201, res.body)).toEqual([]);

    const pending = (await sb.v2('GET', `/webinars/${w.id}/registrants`, { query: { status: 'pending' } })).body;
    expect(pending.registrants).toHaveLength(1);
    expect(pending.registrants[0]).toMatchObject({ id: res.body.registrant_id, status: 'pending', org: 'Fans Inc' });
    // Unanswered enumerated questions are left out: '' is none of their values.
    expect(pending.registrants[0]).not.toHaveProperty('no_of_employees');
    expect(schemaProblems('GET', '/webinars/{webinarId}/registrants', 200, pending)).toEqual([]);

    const approve = await sb.v2('PUT', `/webinars/${w.id}/registrants/status`, {
      body: { action: 'approve', registrants: [{ email: 'fan@example.com' }] },
    });
    expect(approve.status).toBe(204);
    expect((await sb.v2('GET', `/webinars/${w.id}/registrants`)).body.total_records).toBe(1);
  });

  it("pages registrants by token as meetings do; a token of a meeting's list is not one of the webinar's", async () => {
    const w = await createWebinar({ settings: { approval_type: 0 } });
    for (const n of [1, 2, 3])
      await sb.v2('POST', `/webinars/${w.id}/registrants`, { body: { email: `w${n}@example.com`, first_name: 'F', last_name: 'L' } });
    const list = (query: Record<string, string | number>) => sb.v2('GET', `/webinars/${w.id}/registrants`, { query });
    const first = await list({ page_size: 2 });
    expect(schemaProblems('GET', '/webinars/{webinarId}/registrants', 200, first.body)).toEqual([]);
    expect(first.body).toMatchObject({ page_size: 2, total_records: 3 });
    expect(first.body).not.toHaveProperty('page_count');
    expect(first.body.next_page_token).not.toBe('');
    const rest = (await list({ page_size: 2, next_page_token: first.body.next_page_token })).body;
    expect(rest.registrants.map((r: { email: string }) => r.email)).toEqual(['w3@example.com']);
    expect(rest.next_page_token).toBe('');

    const meeting = (await sb.v2('POST', '/users/me/meetings', { body: { topic: 'M', settings: { approval_type: 0 } } })).body;
    for (const n of [1, 2])
      await sb.v2('POST', `/meetings/${meeting.id}/registrants`, { body: { email: `m${n}@example.com`, first_name: 'F', last_name: 'L' } });
    const meetingToken = (await sb.v2('GET', `/meetings/${meeting.id}/registrants`, { query: { page_size: 1 } })).body.next_page_token;
    const crossed = await list({ page_size: 1, next_page_token: meetingToken });
    expect(crossed.status).toBe(400);
    expect(crossed.body.errors).toEqual([{ field: 'next_page_token', message: expect.any(String) }]);
  });

  it('answers 400 when the webinar takes no registration and 404 3001 for an unknown webinar', async () => {
    const w = await createWebinar();
    const res = await sb.v2('POST', `/webinars/${w.id}/registrants`, { body: { email: 'x@example.com', first_name: 'X', last_name: 'Y' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 300, message: `Registration has not been enabled for this webinar: ${w.id}.` });
    expect((await sb.v2('GET', '/webinars/99999999999/registrants')).body.code).toBe(3001);
    expect((await sb.v2('PUT', '/webinars/99999999999/registrants/status', { body: { action: 'deny' } })).body.code).toBe(3001);
  });
});
