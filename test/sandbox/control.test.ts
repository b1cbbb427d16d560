import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signV2Token, startSandbox, type RunningSandbox } from '../support/sandbox.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const isoAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

async function createMeeting(body: Record<string, unknown> = {}): Promise<number> {
  const res = await sb.v2('POST', '/users/me/meetings', { body: { topic: 'Control', ...body } });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function createWebinar(body: Record<string, unknown> = {}): Promise<number> {
  const res = await sb.v2('POST', '/users/me/webinars', { body: { topic: 'Control webinar', ...body } });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** A snapshot of everything the control API writes about a meeting, to prove a rejected call wrote nothing. */
function snapshot(id: number) {
  const meeting = sb.sandbox.state.meetings.get(id)!;
  return JSON.stringify({ instances: meeting.instances, live: meeting.live, indexed: sb.sandbox.state.instancesByUuid.size });
}

const fieldsOf = (body: { errors?: { field: string }[] }) => (body.errors ?? []).map((e) => e.field).sort();

describe('POST /sandbox/meetings/{id}/start', () => {
  it('starts a live instance with a new uuid; the host joins first', async () => {
    const id = await createMeeting();
    const res = await sb.control('POST', `/meetings/${id}/start`);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id,
      kind: 'meeting',
      uuid: expect.any(String),
      start_time: expect.stringMatching(ISO),
      end_time: null,
      participants: [
        {
          id: sb.sandbox.master.ownerId,
          user_id: '16778240',
          name: 'Sandbox Owner',
          user_email: 'owner@sandbox.v1gate.local',
          join_time: res.body.start_time,
          leave_time: null,
          duration: 0,
          registrant_id: '',
        },
      ],
      recording_files: [],
      polls: [],
      questions: [],
    });
    const meeting = sb.sandbox.state.meetings.get(id)!;
    expect(res.body.uuid).not.toBe(meeting.uuid);
    expect(meeting.live?.uuid).toBe(res.body.uuid);
    expect(sb.sandbox.state.instancesByUuid.get(res.body.uuid)?.meeting).toBe(meeting);
    // The meetings area sees the same state: the meeting is listed as live.
    const live = await sb.v2('GET', '/users/me/meetings', { query: { type: 'live' } });
    expect(live.body.meetings.map((m: { id: number }) => m.id)).toContain(id);
  });

  it('starts a webinar, and accepts a start time in the past', async () => {
    const id = await createWebinar();
    const start = isoAgo(10);
    const res = await sb.control('POST', `/meetings/${id}/start`, { start_time: start });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: 'webinar', start_time: start });
  });

  it('answers 409 when already live, 404 (3001) for an unknown meeting, 400 for a bad body; none changes anything', async () => {
    const id = await createMeeting();
    expect((await sb.control('POST', `/meetings/${id}/start`)).status).toBe(201);
    const before = snapshot(id);
    const again = await sb.control('POST', `/meetings/${id}/start`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ code: 409, message: expect.stringMatching(/in progress/) });

    for (const path of ['/meetings/999999999/start', '/meetings/not-a-number/start']) {
      const unknown = await sb.control('POST', path);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ code: 3001, message: expect.any(String) });
    }

    const other = await createMeeting();
    const otherBefore = snapshot(other);
    const future = await sb.control('POST', `/meetings/${other}/start`, { start_time: '2999-01-01T00:00:00Z' });
    expect(future.status).toBe(400);
    expect(fieldsOf(future.body)).toEqual(['start_time']);
    const local = await sb.control('POST', `/meetings/${other}/start`, { start_time: '2024-01-01T00:00:00' });
    expect(fieldsOf(local.body)).toEqual(['start_time']);
    const unknownField = await sb.control('POST', `/meetings/${other}/start`, { when: 'now' });
    expect(fieldsOf(unknownField.body)).toEqual(['when']);
    const notJson = await fetch(`${sb.url}/sandbox/meetings/${other}/start`, {
      method: 'POST',
      body: '{oops',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ code: 300, message: 'Request Body should be a valid JSON object.' });
    expect(snapshot(id)).toBe(before);
    expect(snapshot(other)).toBe(otherBefore);
  });
});

describe('POST /sandbox/meetings/{id}/participants', () => {
  it('adds a participant to the live instance; a sandbox user keeps their id', async () => {
    const id = await createMeeting();
    const started = await sb.control('POST', `/meetings/${id}/start`, { start_time: isoAgo(5) });
    const guest = await sb.control('POST', `/meetings/${id}/participants`, {
      name: 'Guest',
      email: 'guest@example.com',
      join_time: isoAgo(2),
    });
    expect(guest.status).toBe(201);
    expect(guest.body).toEqual({
      uuid: started.body.uuid,
      id: expect.any(String),
      user_id: '16779264',
      name: 'Guest',
      user_email: 'guest@example.com',
      join_time: expect.stringMatching(ISO),
      leave_time: null,
      duration: 0,
      registrant_id: '',
    });
    const owner = await sb.control('POST', `/meetings/${id}/participants`, { name: 'Owner again', email: 'OWNER@sandbox.v1gate.local' });
    expect(owner.body.id).toBe(sb.sandbox.master.ownerId);
    expect(sb.sandbox.state.meetings.get(id)!.live!.participants).toHaveLength(3);
  });

  it('links an approved webinar registrant by email', async () => {
    const id = await createWebinar({ settings: { approval_type: 0 } });
    const registrant = await sb.v2('POST', `/webinars/${id}/registrants`, {
      body: { email: 'fan@example.com', first_name: 'Fan', last_name: 'One' },
    });
    expect(registrant.status).toBe(201);
    await sb.control('POST', `/meetings/${id}/start`);
    const joined = await sb.control('POST', `/meetings/${id}/participants`, { name: 'Fan One', email: 'Fan@Example.com' });
    expect(joined.body.registrant_id).toBe(registrant.body.registrant_id);
  });

  it('answers 409 when nothing is live and 400 for invalid fields, changing nothing', async () => {
    const id = await createMeeting();
    const notLive = await sb.control('POST', `/meetings/${id}/participants`, { name: 'Early bird' });
    expect(notLive.status).toBe(409);
    expect(notLive.body.code).toBe(409);

    await sb.control('POST', `/meetings/${id}/start`, { start_time: isoAgo(5) });
    const before = snapshot(id);
    const invalid = await sb.control('POST', `/meetings/${id}/participants`, { name: '', email: 'not-an-email' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe('Validation Failed.');
    expect(fieldsOf(invalid.body)).toEqual(['email', 'name']);
    const tooEarly = await sb.control('POST', `/meetings/${id}/participants`, { name: 'X', join_time: isoAgo(60) });
    expect(fieldsOf(tooEarly.body)).toEqual(['join_time']);
    const missing = await sb.control('POST', `/meetings/${id}/participants`);
    expect(missing.status).toBe(400);
    expect(snapshot(id)).toBe(before);
    expect((await sb.control('POST', '/meetings/123/participants', { name: 'X' })).status).toBe(404);
  });
});

describe('POST /sandbox/meetings/{id}/polls and /questions', () => {
  const entry = { name: 'Ann', email: 'ann@example.com', question_details: [{ question: 'Ready?', answer: 'Yes' }] };

  it('records on the live instance, then on the latest ended one', async () => {
    const id = await createWebinar();
    const started = await sb.control('POST', `/meetings/${id}/start`);
    const poll = await sb.control('POST', `/meetings/${id}/polls`, entry);
    expect(poll.status).toBe(201);
    expect(poll.body).toEqual({ uuid: started.body.uuid, ...entry });
    await sb.control('POST', `/meetings/${id}/end`);
    const question = await sb.control('POST', `/meetings/${id}/questions`, {
      name: 'Bob',
      question_details: [{ question: 'Slides?', answer: 'Sent.' }],
    });
    expect(question.status).toBe(201);
    expect(question.body).toMatchObject({ uuid: started.body.uuid, email: '' });

    const instance = sb.sandbox.state.instancesByUuid.get(started.body.uuid)!.instance;
    expect(instance.polls).toEqual([entry]);
    expect(instance.questions).toEqual([{ name: 'Bob', email: '', question_details: [{ question: 'Slides?', answer: 'Sent.' }] }]);
  });

  it('answers 409 before the first start, 400 for Q&A on a meeting and for invalid entries, changing nothing', async () => {
    const webinar = await createWebinar();
    const never = await sb.control('POST', `/meetings/${webinar}/polls`, entry);
    expect(never.status).toBe(409);

    const meeting = await createMeeting();
    await sb.control('POST', `/meetings/${meeting}/start`);
    const before = snapshot(meeting);
    const qa = await sb.control('POST', `/meetings/${meeting}/questions`, entry);
    expect(qa.status).toBe(400);
    expect(qa.body).toEqual({ code: 300, message: expect.stringMatching(/webinar/) });
    const empty = await sb.control('POST', `/meetings/${meeting}/polls`, { name: 'Ann', question_details: [] });
    expect(fieldsOf(empty.body)).toEqual(['question_details']);
    const badDetail = await sb.control('POST', `/meetings/${meeting}/polls`, { name: 'Ann', question_details: [{ question: 'Q' }] });
    expect(fieldsOf(badDetail.body)).toEqual(['question_details.0.answer']);
    expect(snapshot(meeting)).toBe(before);
    expect((await sb.control('POST', '/meetings/1/polls', entry)).status).toBe(404);
  });
});

describe('POST /sandbox/meetings/{id}/end', () => {
  it('ends the live instance: end time, everyone leaves, no recording unless asked', async () => {
    const id = await createMeeting();
    await sb.control('POST', `/meetings/${id}/start`, { start_time: isoAgo(30) });
    await sb.control('POST', `/meetings/${id}/participants`, { name: 'Late', join_time: isoAgo(10) });
    const res = await sb.control('POST', `/meetings/${id}/end`);
    expect(res.status).toBe(200);
    expect(res.body.end_time).toMatch(ISO);
    const [host, late] = res.body.participants;
    expect(host.leave_time).toBe(res.body.end_time);
    expect(host.duration).toBeGreaterThanOrEqual(30 * 60 - 2);
    expect(late.duration).toBeGreaterThanOrEqual(10 * 60 - 2);
    expect(late.duration).toBeLessThan(11 * 60);
    expect(res.body.recording_files).toEqual([]);
    expect(sb.sandbox.state.meetings.get(id)!.live).toBeNull();
    // It can start again, as a new instance.
    const again = await sb.control('POST', `/meetings/${id}/start`);
    expect(again.status).toBe(201);
    expect(again.body.uuid).not.toBe(res.body.uuid);
  });

  it('makes the recording files asked for', async () => {
    const id = await createMeeting();
    await sb.control('POST', `/meetings/${id}/start`, { start_time: isoAgo(10) });
    const res = await sb.control('POST', `/meetings/${id}/end`, {
      recording: { files: [{ file_type: 'MP4', recording_type: 'gallery_view', file_size: 1234 }, { file_type: 'TRANSCRIPT' }] },
    });
    expect(res.body.recording_files).toEqual([
      expect.objectContaining({
        file_type: 'MP4',
        recording_type: 'gallery_view',
        file_size: 1234,
        status: 'completed',
        meeting_id: res.body.uuid,
      }),
      expect.objectContaining({ file_type: 'TRANSCRIPT', recording_type: 'audio_transcript', recording_end: res.body.end_time }),
    ]);
    const defaults = await createMeeting();
    await sb.control('POST', `/meetings/${defaults}/start`);
    const pair = await sb.control('POST', `/meetings/${defaults}/end`, { recording: true });
    expect(pair.body.recording_files.map((f: { file_type: string }) => f.file_type)).toEqual(['MP4', 'M4A']);
  });

  it('answers 409 when nothing is live, 400 for a bad recording, leaving the meeting live', async () => {
    const id = await createMeeting();
    expect((await sb.control('POST', `/meetings/${id}/end`)).status).toBe(409);
    await sb.control('POST', `/meetings/${id}/start`);
    const before = snapshot(id);
    const bad = await sb.control('POST', `/meetings/${id}/end`, { recording: { files: [{ file_type: 'AVI' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Validation Failed.');
    expect(snapshot(id)).toBe(before);
    expect(sb.sandbox.state.meetings.get(id)!.live).not.toBeNull();
  });

  it('is what the v2 status action "end" does to a live meeting', async () => {
    const id = await createMeeting();
    const started = await sb.control('POST', `/meetings/${id}/start`);
    expect((await sb.v2('PUT', `/meetings/${id}/status`, { body: { action: 'end' } })).status).toBe(204);
    const past = await sb.v2('GET', `/past_meetings/${encodeURIComponent(encodeURIComponent(started.body.uuid))}`);
    expect(past.status).toBe(200);
    expect(past.body.participants_count).toBe(1);
  });
});

describe('POST /sandbox/meetings/{id}/happen', () => {
  it('starts, fills and ends an instance in the past in one call', async () => {
    const id = await createWebinar({ duration: 90 });
    const res = await sb.control('POST', `/meetings/${id}/happen`, {
      start_time: '2024-09-01T10:00:00Z',
      duration_minutes: 60,
      participants: [
        { name: 'All along', email: 'along@example.com' },
        { name: 'Brief', joined_after_minutes: 15, left_after_minutes: 25 },
      ],
      recording: true,
      polls: [{ name: 'All along', question_details: [{ question: 'Q1', answer: 'A1' }] }],
      questions: [{ name: 'Brief', email: 'brief@example.com', question_details: [{ question: 'Why?', answer: 'Because.' }] }],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id, kind: 'webinar', start_time: '2024-09-01T10:00:00Z', end_time: '2024-09-01T11:00:00Z' });
    expect(
      res.body.participants.map((p: { name: string; join_time: string; leave_time: string; duration: number }) => [
        p.name,
        p.join_time,
        p.leave_time,
        p.duration,
      ]),
    ).toEqual([
      ['Sandbox Owner', '2024-09-01T10:00:00Z', '2024-09-01T11:00:00Z', 3600],
      ['All along', '2024-09-01T10:00:00Z', '2024-09-01T11:00:00Z', 3600],
      ['Brief', '2024-09-01T10:15:00Z', '2024-09-01T10:25:00Z', 600],
    ]);
    expect(res.body.recording_files).toHaveLength(2);
    expect(res.body.polls).toHaveLength(1);
    expect(res.body.questions).toHaveLength(1);
    expect(sb.sandbox.state.meetings.get(id)!.live).toBeNull();
    expect(sb.sandbox.state.instancesByUuid.has(res.body.uuid)).toBe(true);
  });

  it('by default lasts the scheduled duration and ends now', async () => {
    const id = await createMeeting({ type: 2, start_time: '2030-01-01T10:00:00Z', duration: 40 });
    const res = await sb.control('POST', `/meetings/${id}/happen`);
    expect(res.status).toBe(201);
    const minutes = (Date.parse(res.body.end_time) - Date.parse(res.body.start_time)) / 60_000;
    expect(minutes).toBe(40);
    expect(Math.abs(Date.parse(res.body.end_time) - Date.now())).toBeLessThan(5_000);
  });

  it('answers 400 for times that do not fit and 409 while live, changing nothing', async () => {
    const id = await createMeeting();
    const before = snapshot(id);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ start_time: isoAgo(10), duration_minutes: 30 }, ['start_time']],
      [{ duration_minutes: 10, participants: [{ name: 'X', joined_after_minutes: 10 }] }, ['participants.0.joined_after_minutes']],
      [{ duration_minutes: 10, participants: [{ name: 'X', left_after_minutes: 11 }] }, ['participants.0.left_after_minutes']],
      [{ participants: [{ name: 'X', joined_after_minutes: 5, left_after_minutes: 5 }] }, ['participants.0.left_after_minutes']],
      [{ duration_minutes: 0 }, ['duration_minutes']],
      [{ duration_minutes: 24 * 60 + 1 }, ['duration_minutes']],
      [{ questions: [{ name: 'Q', question_details: [{ question: 'q', answer: 'a' }] }] }, ['questions']],
      [{ recording: 'yes' }, ['recording']],
    ];
    for (const [body, fields] of cases) {
      const res = await sb.control('POST', `/meetings/${id}/happen`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(res.body), JSON.stringify(body)).toEqual(fields);
    }
    expect(snapshot(id)).toBe(before);

    await sb.control('POST', `/meetings/${id}/start`);
    const live = snapshot(id);
    expect((await sb.control('POST', `/meetings/${id}/happen`)).status).toBe(409);
    expect(snapshot(id)).toBe(live);
    expect((await sb.control('POST', '/meetings/5/happen')).body.code).toBe(3001);
  });
});

describe('GET /sandbox/accounts', () => {
  it('lists every account with API credentials that sign v2 tokens', async () => {
    const created = await sb.v2('POST', '/accounts', {
      body: { first_name: 'Sub', last_name: 'One', email: 'sub-one@example.com', password: 'Secret123' },
    });
    expect(created.status).toBe(201);
    const res = await sb.control('GET', '/accounts');
    expect(res.status).toBe(200);
    expect(res.body.total_records).toBe(res.body.accounts.length);
    expect(res.body.accounts[0]).toEqual({
      id: sb.sandbox.master.id,
      account_name: 'Sandbox Master Account',
      account_type: 'Master Account',
      owner_email: 'owner@sandbox.v1gate.local',
      master_account_id: null,
      disassociated: false,
      api_key: sb.sandbox.credentials.apiKey,
      api_secret: sb.sandbox.credentials.apiSecret,
      oauth_apps: [
        {
          client_id: sb.sandbox.oauthApp.clientId,
          client_secret: sb.sandbox.oauthApp.clientSecret,
          account_id: sb.sandbox.master.id,
          name: expect.any(String),
          created_at: expect.any(String),
        },
      ],
    });
    const sub = res.body.accounts.find((a: { id: string }) => a.id === created.body.id);
    expect(sub).toMatchObject({
      account_type: 'Sub Account',
      owner_email: 'sub-one@example.com',
      master_account_id: sb.sandbox.master.id,
      oauth_apps: [],
    });
    const me = await sb.v2('GET', '/users/me', { as: { apiKey: sub.api_key, apiSecret: sub.api_secret } });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('sub-one@example.com');
  });
});

describe('POST /sandbox/users/{id}/activate', () => {
  it('confirms a pending user, by id or email, once', async () => {
    const created = await sb.v2('POST', '/users', { body: { action: 'create', user_info: { email: 'pending@example.com', type: 1 } } });
    expect(created.status).toBe(201);
    expect((await sb.v2('GET', `/users/${created.body.id}`)).body.status).toBe('pending');

    const res = await sb.control('POST', '/users/pending@example.com/activate');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: created.body.id, email: 'pending@example.com', status: 'active' });
    const user = await sb.v2('GET', `/users/${created.body.id}`);
    expect(user.body).toMatchObject({ status: 'active', verified: 1 });

    const again = await sb.control('POST', `/users/${created.body.id}/activate`);
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/not pending/);
  });

  it('answers 404 (1001) for an unknown user', async () => {
    const res = await sb.control('POST', '/users/nobody@example.com/activate');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 1001, message: expect.any(String) });
  });
});

describe('the control API is no v2 endpoint', () => {
  it('needs no token, while v2 does', async () => {
    const token = await signV2Token('nobody', 'nothing');
    expect((await sb.v2('GET', '/users/me', { token })).status).toBe(401);
    expect((await sb.control('GET', '/accounts')).status).toBe(200);
  });
});
