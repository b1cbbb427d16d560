import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaProblems, type SchemaProblem } from '../support/openapi.js';
import { signV2Token, startSandbox, type RunningSandbox } from '../support/sandbox.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
/** How clients that know the rule send every uuid: encoded twice. */
const twice = (uuid: string) => encodeURIComponent(encodeURIComponent(uuid));
const once = (uuid: string) => encodeURIComponent(uuid);

/**
 * Both our spec and the reference type an ended meeting's host_id as an integer, but host ids are
 * the users' opaque string ids in every other answer (and no integer could name a user), so the
 * sandbox answers the string. The only schema problem these tests tolerate.
 */
const withoutStringHostId = (problems: SchemaProblem[]) => problems.filter((p) => p.instancePath !== '/host_id');

async function createMeeting(body: Record<string, unknown> = {}): Promise<number> {
  const res = await sb.v2('POST', '/users/me/meetings', {
    body: { topic: 'Weekly sync', type: 2, start_time: '2030-01-01T10:00:00Z', duration: 45, ...body },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function createWebinar(body: Record<string, unknown> = {}): Promise<number> {
  const res = await sb.v2('POST', '/users/me/webinars', { body: { topic: 'Launch', ...body } });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** Make meeting or webinar `id` happen through the control API; returns the ended instance. */
async function happen(id: number, body: Record<string, unknown> = {}) {
  const res = await sb.control('POST', `/meetings/${id}/happen`, body);
  expect(res.status).toBe(201);
  return res.body;
}

describe('GET /past_meetings/{meetingUUID}', () => {
  it('answers the ended meeting with its host, times, minutes and participant count', async () => {
    const id = await createMeeting();
    const instance = await happen(id, {
      start_time: '2024-03-05T10:00:00Z',
      duration_minutes: 45,
      participants: [
        { name: 'Ada Guest', email: 'ada@example.com' },
        { name: 'Bob', joined_after_minutes: 5, left_after_minutes: 20 },
      ],
    });
    const res = await sb.v2('GET', `/past_meetings/${twice(instance.uuid)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      uuid: instance.uuid,
      id,
      host_id: sb.sandbox.master.ownerId,
      type: 2,
      topic: 'Weekly sync',
      user_name: 'Sandbox Owner',
      user_email: 'owner@sandbox.v1gate.local',
      start_time: '2024-03-05T10:00:00Z',
      end_time: '2024-03-05T10:45:00Z',
      duration: 45,
      // host 45 + Ada 45 + Bob 15
      total_minutes: 105,
      participants_count: 3,
    });
    expect(withoutStringHostId(schemaProblems('GET', '/past_meetings/{meetingUUID}', 200, res.body))).toEqual([]);
  });

  it('accepts the uuid encoded once or twice, even when it starts with / and holds // and +', async () => {
    const id = await createMeeting();
    const instance = await happen(id);
    const awkward = forceInstanceUuid(instance.uuid, '/ab+cd//efGHijKLmnOPqr==');
    for (const path of [`/past_meetings/${once(awkward)}`, `/past_meetings/${twice(awkward)}`]) {
      const res = await sb.v2('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.body.uuid).toBe(awkward);
    }
    const participants = await sb.v2('GET', `/past_meetings/${twice(awkward)}/participants`);
    expect(participants.status).toBe(200);
  });

  it('answers 404 (3001) for an unknown uuid, a live instance, a webinar and another account', async () => {
    expect((await sb.v2('GET', `/past_meetings/${twice('nope+nope/nope==')}`)).body).toEqual({ code: 3001, message: expect.any(String) });

    const live = await createMeeting();
    const started = await sb.control('POST', `/meetings/${live}/start`);
    const liveAnswer = await sb.v2('GET', `/past_meetings/${twice(started.body.uuid)}`);
    expect(liveAnswer.status).toBe(404);
    expect(liveAnswer.body.code).toBe(3001);

    const webinarInstance = await happen(await createWebinar());
    expect((await sb.v2('GET', `/past_meetings/${twice(webinarInstance.uuid)}`)).status).toBe(404);

    const ended = await happen(await createMeeting());
    const sub = await subAccount('past-other@example.com');
    const foreign = await sb.v2('GET', `/past_meetings/${twice(ended.uuid)}`, { as: sub });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe(3001);
  });
});

describe('GET /past_meetings/{meetingUUID}/participants', () => {
  it('pages with next_page_token until the last page, which has an empty token', async () => {
    const id = await createMeeting();
    const names = ['P1', 'P2', 'P3', 'P4', 'P5'];
    const instance = await happen(id, { participants: names.map((name) => ({ name })) });
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = await sb.v2('GET', `/past_meetings/${twice(instance.uuid)}/participants`, {
        query: { page_size: 2, next_page_token: token },
      });
      expect(res.status).toBe(200);
      expect(schemaProblems('GET', '/past_meetings/{meetingUUID}/participants', 200, res.body)).toEqual([]);
      expect(res.body).toMatchObject({ page_size: 2, total_records: 6 });
      expect(res.body).not.toHaveProperty('page_count');
      for (const p of res.body.participants) {
        expect(Object.keys(p).sort()).toEqual(['id', 'name']);
        expect(p.id).toEqual(expect.any(String));
        seen.push(p.name);
      }
      token = res.body.next_page_token;
      pages += 1;
    } while (token);
    expect(pages).toBe(3);
    expect(seen).toEqual(['Sandbox Owner', ...names]);
  });

  it('defaults to 30 per page and answers an empty token when everything fits', async () => {
    const instance = await happen(await createMeeting(), { participants: [{ name: 'Solo' }] });
    const res = await sb.v2('GET', `/past_meetings/${once(instance.uuid)}/participants`);
    expect(res.body).toEqual({
      page_size: 30,
      total_records: 2,
      next_page_token: '',
      participants: [
        { id: sb.sandbox.master.ownerId, name: 'Sandbox Owner' },
        { id: expect.any(String), name: 'Solo' },
      ],
    });
  });

  it('enforces page_size 1 to 300', async () => {
    const instance = await happen(await createMeeting());
    for (const page_size of [0, 301, 'ten']) {
      const res = await sb.v2('GET', `/past_meetings/${twice(instance.uuid)}/participants`, { query: { page_size } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 300, message: 'Validation Failed.', errors: [{ field: 'page_size', message: expect.any(String) }] });
    }
    expect((await sb.v2('GET', `/past_meetings/${twice(instance.uuid)}/participants`, { query: { page_size: 300 } })).status).toBe(200);
  });

  it('refuses an unknown token and a token of another list', async () => {
    const first = await happen(await createMeeting(), { participants: [{ name: 'A' }, { name: 'B' }] });
    const second = await happen(await createMeeting());
    const page = await sb.v2('GET', `/past_meetings/${twice(first.uuid)}/participants`, { query: { page_size: 1 } });
    const token = page.body.next_page_token;
    expect(token).not.toBe('');
    for (const [uuid, next] of [
      [first.uuid, 'made-up-token'],
      [second.uuid, token],
    ]) {
      const res = await sb.v2('GET', `/past_meetings/${twice(uuid)}/participants`, { query: { page_size: 1, next_page_token: next } });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'next_page_token', message: expect.any(String) }]);
    }
  });

  it('lets a token expire after 15 minutes', async () => {
    let nowMs = Date.parse('2024-06-01T12:00:00Z');
    const timed = await startSandbox({ clock: { now: () => new Date(nowMs) } });
    try {
      const creds = timed.sandbox.credentials;
      // Tokens signed against the real clock; the sandbox's clock moves on its own below.
      const token = await signV2Token(creds.apiKey, creds.apiSecret, 10 * 365 * 86_400);
      const created = await timed.v2('POST', '/users/me/meetings', { token, body: { topic: 't' } });
      const instance = (
        await timed.control('POST', `/meetings/${created.body.id}/happen`, { participants: [{ name: 'A' }, { name: 'B' }] })
      ).body;
      const path = `/past_meetings/${twice(instance.uuid)}/participants`;
      const first = await timed.v2('GET', path, { token, query: { page_size: 1 } });
      nowMs += 14 * 60_000;
      const inTime = await timed.v2('GET', path, { token, query: { page_size: 1, next_page_token: first.body.next_page_token } });
      expect(inTime.status).toBe(200);
      expect(inTime.body.participants[0].name).toBe('A');
      nowMs += 60_000;
      const late = await timed.v2('GET', path, { token, query: { page_size: 1, next_page_token: first.body.next_page_token } });
      expect(late.status).toBe(400);
      expect(late.body.errors[0].field).toBe('next_page_token');
    } finally {
      await timed.close();
    }
  });

  it('answers 404 for an unknown uuid', async () => {
    const res = await sb.v2('GET', `/past_meetings/${twice('unknown/uuid==')}/participants`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(3001);
  });
});

describe('GET /past_meetings/{meetingId}/instances and /past_webinars/{webinarId}/instances', () => {
  it('lists the ended instances of a meeting, oldest first, and not the live one', async () => {
    const id = await createMeeting();
    const a = await happen(id, { start_time: '2024-01-01T09:00:00Z', duration_minutes: 30 });
    const b = await happen(id, { start_time: '2024-01-08T09:00:00Z', duration_minutes: 30 });
    expect((await sb.control('POST', `/meetings/${id}/start`)).status).toBe(201);
    const res = await sb.v2('GET', `/past_meetings/${id}/instances`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      meetings: [
        { uuid: a.uuid, start_time: '2024-01-01T09:00:00Z' },
        { uuid: b.uuid, start_time: '2024-01-08T09:00:00Z' },
      ],
    });
    expect(schemaProblems('GET', '/past_meetings/{meetingId}/instances', 200, res.body)).toEqual([]);
  });

  it('lists the ended instances of a webinar under `webinars`', async () => {
    const id = await createWebinar();
    expect((await sb.v2('GET', `/past_webinars/${id}/instances`)).body).toEqual({ webinars: [] });
    const a = await happen(id, { start_time: '2024-02-01T15:00:00Z', duration_minutes: 60 });
    const res = await sb.v2('GET', `/past_webinars/${id}/instances`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ webinars: [{ uuid: a.uuid, start_time: '2024-02-01T15:00:00Z' }] });
    expect(schemaProblems('GET', '/past_webinars/{webinarId}/instances', 200, res.body)).toEqual([]);
  });

  it('answers 404 (3001) for an unknown number or the other kind', async () => {
    const meeting = await createMeeting();
    const webinar = await createWebinar();
    for (const path of [
      '/past_meetings/123456789/instances',
      `/past_meetings/${webinar}/instances`,
      `/past_webinars/${meeting}/instances`,
    ]) {
      const res = await sb.v2('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe(3001);
    }
  });
});

describe('GET /report/webinars/{webinarId}/participants', () => {
  it('reports the latest ended instance by webinar id, or the instance named by uuid', async () => {
    const id = await createWebinar({ settings: { approval_type: 0 } });
    const registered = await sb.v2('POST', `/webinars/${id}/registrants`, {
      body: { email: 'reg@example.com', first_name: 'Reg', last_name: 'Istrant' },
    });
    expect(registered.status).toBe(201);
    const older = await happen(id, { start_time: '2024-04-01T10:00:00Z', duration_minutes: 60, participants: [{ name: 'Early' }] });
    await happen(id, {
      start_time: '2024-04-08T10:00:00Z',
      duration_minutes: 60,
      participants: [{ name: 'Reg Istrant', email: 'reg@example.com', joined_after_minutes: 10, left_after_minutes: 50 }],
    });

    const latest = await sb.v2('GET', `/report/webinars/${id}/participants`);
    expect(latest.status).toBe(200);
    expect(schemaProblems('GET', '/report/webinars/{webinarId}/participants', 200, latest.body)).toEqual([]);
    expect(latest.body).toMatchObject({ page_size: 30, total_records: 2, next_page_token: '' });
    expect(latest.body).not.toHaveProperty('page_count');
    expect(latest.body.participants[1]).toEqual({
      id: expect.any(String),
      user_id: expect.stringMatching(/^\d+$/),
      name: 'Reg Istrant',
      user_email: 'reg@example.com',
      join_time: '2024-04-08T10:10:00Z',
      leave_time: '2024-04-08T10:50:00Z',
      duration: 2400,
      attentiveness_score: '',
      registrant_id: registered.body.registrant_id,
    });
    expect(latest.body.participants[0]).toMatchObject({
      name: 'Sandbox Owner',
      join_time: '2024-04-08T10:00:00Z',
      leave_time: '2024-04-08T11:00:00Z',
      duration: 3600,
    });

    const byUuid = await sb.v2('GET', `/report/webinars/${twice(older.uuid)}/participants`);
    expect(byUuid.status).toBe(200);
    expect(byUuid.body.participants.map((p: { name: string }) => p.name)).toEqual(['Sandbox Owner', 'Early']);
    expect(byUuid.body.participants[1].registrant_id).toBe('');
  });

  it('pages with page_size and next_page_token', async () => {
    const id = await createWebinar();
    await happen(id, { participants: [{ name: 'A' }, { name: 'B' }] });
    const first = await sb.v2('GET', `/report/webinars/${id}/participants`, { query: { page_size: 2 } });
    expect(first.body.participants).toHaveLength(2);
    const second = await sb.v2('GET', `/report/webinars/${id}/participants`, {
      query: { page_size: 2, next_page_token: first.body.next_page_token },
    });
    expect(second.body).toMatchObject({ total_records: 3, next_page_token: '' });
    expect(second.body.participants.map((p: { name: string }) => p.name)).toEqual(['B']);
    expect((await sb.v2('GET', `/report/webinars/${id}/participants`, { query: { page_size: 301 } })).status).toBe(400);
  });

  it('answers 404 (3001) for an unknown webinar, one that never ended, a meeting, and an unknown uuid', async () => {
    const neverEnded = await createWebinar();
    await sb.control('POST', `/meetings/${neverEnded}/start`);
    const meeting = await createMeeting();
    await happen(meeting);
    for (const ref of ['987654321', String(neverEnded), String(meeting), twice('no/such+uuid==')]) {
      const res = await sb.v2('GET', `/report/webinars/${ref}/participants`);
      expect(res.status, ref).toBe(404);
      expect(res.body.code).toBe(3001);
    }
  });
});

describe('GET /report/meetings/{meetingId}/participants', () => {
  it('shares the webinar report, with the meeting kind of attentiveness score', async () => {
    const id = await createMeeting();
    const instance = await happen(id, { participants: [{ name: 'Ann', email: 'ann@example.com' }] });
    for (const ref of [String(id), twice(instance.uuid)]) {
      const res = await sb.v2('GET', `/report/meetings/${ref}/participants`);
      expect(res.status).toBe(200);
      expect(schemaProblems('GET', '/report/meetings/{meetingId}/participants', 200, res.body)).toEqual([]);
      expect(res.body.participants[1]).toMatchObject({ name: 'Ann', user_email: 'ann@example.com', attentiveness_score: 0 });
    }
    expect((await sb.v2('GET', `/report/meetings/${await createWebinar()}/participants`)).status).toBe(404);
  });
});

describe('GET /report/webinars/{webinarId}/polls and /qa', () => {
  it('reports poll answers and Q&A of the latest instance, or of the uuid given', async () => {
    const id = await createWebinar();
    const older = await happen(id, {
      start_time: '2024-05-01T10:00:00Z',
      duration_minutes: 30,
      polls: [{ name: 'Old', email: 'old@example.com', question_details: [{ question: 'Q?', answer: 'old' }] }],
    });
    await happen(id, {
      start_time: '2024-05-02T10:00:00Z',
      duration_minutes: 30,
      polls: [
        {
          name: 'Ann',
          email: 'ann@example.com',
          question_details: [
            { question: 'Ready?', answer: 'Yes' },
            { question: 'Size?', answer: 'L' },
          ],
        },
      ],
      questions: [{ name: 'Bob', question_details: [{ question: 'When is the next one?', answer: 'In May.' }] }],
    });

    const polls = await sb.v2('GET', `/report/webinars/${id}/polls`);
    expect(polls.status).toBe(200);
    expect(schemaProblems('GET', '/report/webinars/{webinarId}/polls', 200, polls.body)).toEqual([]);
    expect(polls.body).toEqual({
      id,
      uuid: expect.any(String),
      start_time: '2024-05-02T10:00:00Z',
      questions: [
        {
          name: 'Ann',
          email: 'ann@example.com',
          question_details: [
            { question: 'Ready?', answer: 'Yes' },
            { question: 'Size?', answer: 'L' },
          ],
        },
      ],
    });

    const qa = await sb.v2('GET', `/report/webinars/${id}/qa`);
    expect(qa.status).toBe(200);
    expect(schemaProblems('GET', '/report/webinars/{webinarId}/qa', 200, qa.body)).toEqual([]);
    expect(qa.body.questions).toEqual([
      { name: 'Bob', email: '', question_details: [{ question: 'When is the next one?', answer: 'In May.' }] },
    ]);

    const olderPolls = await sb.v2('GET', `/report/webinars/${twice(older.uuid)}/polls`);
    expect(olderPolls.body).toMatchObject({ uuid: older.uuid, start_time: '2024-05-01T10:00:00Z', questions: [{ name: 'Old' }] });
    expect((await sb.v2('GET', `/report/webinars/${twice(older.uuid)}/qa`)).body.questions).toEqual([]);
  });

  it('answers 404 (3001) for an unknown webinar and one that never happened', async () => {
    const unheld = await createWebinar();
    for (const path of [
      '/report/webinars/123123123/polls',
      '/report/webinars/123123123/qa',
      `/report/webinars/${unheld}/polls`,
      `/report/webinars/${unheld}/qa`,
    ]) {
      const res = await sb.v2('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe(3001);
    }
  });

  it('also reports meeting polls (GET /report/meetings/{meetingId}/polls)', async () => {
    const id = await createMeeting();
    await happen(id, { polls: [{ name: 'Ann', question_details: [{ question: 'Q', answer: 'A' }] }] });
    const res = await sb.v2('GET', `/report/meetings/${id}/polls`);
    expect(res.status).toBe(200);
    expect(schemaProblems('GET', '/report/meetings/{meetingId}/polls', 200, res.body)).toEqual([]);
    expect(res.body.questions).toHaveLength(1);
  });
});

describe('GET /metrics/meetings', () => {
  it('lists live meetings (the default type) with who is in now and the time so far', async () => {
    const metrics = await startSandbox();
    try {
      const created = await metrics.v2('POST', '/users/me/meetings', { body: { topic: 'Live one', settings: { host_video: true } } });
      const start = new Date(Date.now() - 90_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const started = await metrics.control('POST', `/meetings/${created.body.id}/start`, { start_time: start });
      await metrics.control('POST', `/meetings/${created.body.id}/participants`, { name: 'Guest' });
      const webinar = await metrics.v2('POST', '/users/me/webinars', { body: { topic: 'not a meeting' } });
      await metrics.control('POST', `/meetings/${webinar.body.id}/start`);

      const res = await metrics.v2('GET', '/metrics/meetings');
      expect(res.status).toBe(200);
      expect(schemaProblems('GET', '/metrics/meetings', 200, res.body)).toEqual([]);
      const today = new Date().toISOString().slice(0, 10);
      expect(res.body).toEqual({
        from: today,
        to: today,
        page_count: 1,
        page_size: 30,
        total_records: 1,
        next_page_token: '',
        meetings: [
          {
            uuid: started.body.uuid,
            id: created.body.id,
            topic: 'Live one',
            host: 'Sandbox Owner',
            email: 'owner@sandbox.v1gate.local',
            user_type: 'Pro',
            start_time: start,
            duration: expect.stringMatching(/^00:0[12]:\d{2}$/),
            participants: 2,
            has_pstn: false,
            has_voip: true,
            has_3rd_party_audio: false,
            has_video: true,
            has_screen_share: false,
            has_recording: false,
            has_sip: false,
          },
        ],
      });
      await metrics.control('POST', `/meetings/${created.body.id}/end`);
      expect((await metrics.v2('GET', '/metrics/meetings', { query: { type: 'live' } })).body.meetings).toEqual([]);
    } finally {
      await metrics.close();
    }
  });

  it('lists past meetings that started within from..to, newest first, and pastOne those where the host was alone', async () => {
    const metrics = await startSandbox();
    try {
      const id = (await metrics.v2('POST', '/users/me/meetings', { body: { topic: 'Past' } })).body.id;
      const happened = async (body: object) => (await metrics.control('POST', `/meetings/${id}/happen`, body)).body;
      const alone = await happened({ start_time: '2024-01-10T08:00:00Z', duration_minutes: 5 });
      const busy = await happened({
        start_time: '2024-01-20T08:00:00Z',
        duration_minutes: 64,
        participants: [{ name: 'X' }],
        recording: true,
      });
      await happened({ start_time: '2024-02-01T08:00:00Z', duration_minutes: 5 });

      const past = await metrics.v2('GET', '/metrics/meetings', { query: { type: 'past', from: '2024-01-01', to: '2024-01-31' } });
      expect(past.status).toBe(200);
      expect(schemaProblems('GET', '/metrics/meetings', 200, past.body)).toEqual([]);
      expect(past.body).toMatchObject({ from: '2024-01-01', to: '2024-01-31', total_records: 2 });
      expect(past.body.meetings.map((m: { uuid: string }) => m.uuid)).toEqual([busy.uuid, alone.uuid]);
      expect(past.body.meetings[0]).toMatchObject({
        end_time: '2024-01-20T09:04:00Z',
        duration: '01:04:00',
        participants: 2,
        has_recording: true,
      });

      const pastOne = await metrics.v2('GET', '/metrics/meetings', { query: { type: 'pastOne', from: '2024-01-01', to: '2024-01-31' } });
      expect(pastOne.body.meetings.map((m: { uuid: string }) => m.uuid)).toEqual([alone.uuid]);

      const paged = await metrics.v2('GET', '/metrics/meetings', {
        query: { type: 'past', from: '2024-01-01', to: '2024-12-31', page_size: 2 },
      });
      expect(paged.body).toMatchObject({ page_count: 2, total_records: 3 });
      const rest = await metrics.v2('GET', '/metrics/meetings', {
        query: { type: 'past', from: '2024-01-01', to: '2024-12-31', page_size: 2, next_page_token: paged.body.next_page_token },
      });
      expect(rest.body.meetings.map((m: { uuid: string }) => m.uuid)).toEqual([alone.uuid]);
      // A token belongs to its filters.
      const otherRange = await metrics.v2('GET', '/metrics/meetings', {
        query: { type: 'past', from: '2024-01-01', to: '2024-06-30', page_size: 2, next_page_token: paged.body.next_page_token },
      });
      expect(otherRange.status).toBe(400);
    } finally {
      await metrics.close();
    }
  });

  it.each(['meetings', 'webinars'])('GET /metrics/%s answers 400 naming each invalid query field', async (collection) => {
    const cases: [Record<string, string | number>, string[]][] = [
      [{ type: 'past' }, ['from', 'to']],
      [{ type: 'past', from: '2024-02-01', to: '2024-01-01' }, ['to']],
      [{ type: 'past', from: '2024-02-30', to: '2024-03-01' }, ['from']],
      [{ type: 'past', from: '01/02/2024', to: '2024-03-01' }, ['from']],
      [{ type: 'ended' }, ['type']],
      [{ page_size: 500 }, ['page_size']],
      [{ page_size: 0 }, ['page_size']],
      [{ next_page_token: 'made-up' }, ['next_page_token']],
    ];
    for (const [query, fields] of cases) {
      const res = await sb.v2('GET', `/metrics/${collection}`, { query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.message).toBe('Validation Failed.');
      expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(fields);
    }
    const past = await sb.v2('GET', `/metrics/${collection}`, { query: { type: 'past' } });
    expect(past.body.errors.map((e: { message: string }) => e.message)).toEqual([
      `Required for past ${collection}.`,
      `Required for past ${collection}.`,
    ]);
  });
});

describe('GET /metrics/webinars', () => {
  it('lists live webinars (the default type), not meetings, with the WebinarMetric fields', async () => {
    const metrics = await startSandbox();
    try {
      const created = await metrics.v2('POST', '/users/me/webinars', {
        body: { topic: 'Live webinar', settings: { host_video: false, panelists_video: true, auto_recording: 'cloud' } },
      });
      const start = new Date(Date.now() - 90_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const started = await metrics.control('POST', `/meetings/${created.body.id}/start`, { start_time: start });
      await metrics.control('POST', `/meetings/${created.body.id}/participants`, { name: 'Attendee' });
      const meeting = await metrics.v2('POST', '/users/me/meetings', { body: { topic: 'not a webinar' } });
      await metrics.control('POST', `/meetings/${meeting.body.id}/start`);

      const res = await metrics.v2('GET', '/metrics/webinars');
      expect(res.status).toBe(200);
      expect(schemaProblems('GET', '/metrics/webinars', 200, res.body)).toEqual([]);
      const today = new Date().toISOString().slice(0, 10);
      expect(res.body).toEqual({
        from: today,
        to: today,
        page_count: 1,
        page_size: 30,
        total_records: 1,
        next_page_token: '',
        webinars: [
          {
            uuid: started.body.uuid,
            id: created.body.id,
            topic: 'Live webinar',
            host: 'Sandbox Owner',
            email: 'owner@sandbox.v1gate.local',
            user_type: 'Pro',
            start_time: start,
            duration: expect.stringMatching(/^00:0[12]:\d{2}$/),
            participants: 2,
            has_pstn: false,
            has_voip: true,
            has_3rd_party_audio: false,
            has_video: true,
            has_screen_share: false,
            has_recording: true,
            has_sip: false,
          },
        ],
      });
      // Meetings list only the meeting.
      expect((await metrics.v2('GET', '/metrics/meetings')).body.meetings.map((m: { id: number }) => m.id)).toEqual([meeting.body.id]);

      await metrics.v2('PUT', `/webinars/${created.body.id}/status`, { body: { action: 'end' } });
      expect((await metrics.v2('GET', '/metrics/webinars', { query: { type: 'live' } })).body.webinars).toEqual([]);
    } finally {
      await metrics.close();
    }
  });

  it('lists past webinars within from..to, newest first, pages by token, and refuses a token of the meetings list', async () => {
    const metrics = await startSandbox();
    try {
      const id = (await metrics.v2('POST', '/users/me/webinars', { body: { topic: 'Past webinar' } })).body.id;
      const happened = async (body: object) => (await metrics.control('POST', `/meetings/${id}/happen`, body)).body;
      const alone = await happened({ start_time: '2024-01-10T08:00:00Z', duration_minutes: 5 });
      const busy = await happened({ start_time: '2024-01-20T08:00:00Z', duration_minutes: 30, participants: [{ name: 'X' }] });
      await happened({ start_time: '2024-02-01T08:00:00Z', duration_minutes: 5 });
      const meetingId = (await metrics.v2('POST', '/users/me/meetings', { body: { topic: 'Past meeting' } })).body.id;
      await metrics.control('POST', `/meetings/${meetingId}/happen`, { start_time: '2024-01-15T08:00:00Z', duration_minutes: 5 });

      const range = { type: 'past', from: '2024-01-01', to: '2024-01-31' };
      const past = await metrics.v2('GET', '/metrics/webinars', { query: range });
      expect(past.status).toBe(200);
      expect(schemaProblems('GET', '/metrics/webinars', 200, past.body)).toEqual([]);
      expect(past.body).toMatchObject({ from: '2024-01-01', to: '2024-01-31', total_records: 2, next_page_token: '' });
      expect(past.body.webinars.map((w: { uuid: string }) => w.uuid)).toEqual([busy.uuid, alone.uuid]);
      expect(past.body.webinars[0]).toMatchObject({
        id,
        end_time: '2024-01-20T08:30:00Z',
        duration: '00:30:00',
        participants: 2,
        has_recording: false,
      });
      const pastOne = await metrics.v2('GET', '/metrics/webinars', { query: { ...range, type: 'pastOne' } });
      expect(pastOne.body.webinars.map((w: { uuid: string }) => w.uuid)).toEqual([alone.uuid]);

      const first = await metrics.v2('GET', '/metrics/webinars', { query: { ...range, page_size: 1 } });
      expect(first.body).toMatchObject({ page_count: 2, page_size: 1, total_records: 2 });
      expect(first.body.next_page_token).not.toBe('');
      const second = await metrics.v2('GET', '/metrics/webinars', {
        query: { ...range, page_size: 1, next_page_token: first.body.next_page_token },
      });
      expect(second.body.webinars.map((w: { uuid: string }) => w.uuid)).toEqual([alone.uuid]);
      expect(second.body.next_page_token).toBe('');
      // The meetings list with the same filters is another list: a webinars token is not its token.
      const webinarsAll = await metrics.v2('GET', '/metrics/webinars', {
        query: { type: 'past', from: '2024-01-01', to: '2024-12-31', page_size: 1 },
      });
      const crossed = await metrics.v2('GET', '/metrics/meetings', {
        query: { type: 'past', from: '2024-01-01', to: '2024-12-31', page_size: 1, next_page_token: webinarsAll.body.next_page_token },
      });
      expect(crossed.status).toBe(400);
      expect(crossed.body.errors.map((e: { field: string }) => e.field)).toEqual(['next_page_token']);
    } finally {
      await metrics.close();
    }
  });
});

describe('GET /users/{userId}/recordings', () => {
  it('lists the cloud recordings of meetings and webinars the user hosted within from..to, newest first', async () => {
    const id = await createMeeting({ topic: 'Recorded' });
    const webinar = await createWebinar({ topic: 'Recorded webinar' });
    const march = await happen(id, { start_time: '2023-03-05T10:00:00Z', duration_minutes: 10, recording: true });
    const april = await happen(webinar, {
      start_time: '2023-04-10T10:00:00Z',
      duration_minutes: 20,
      recording: { files: [{ file_type: 'MP4', file_size: 1000 }, { file_type: 'CHAT' }] },
    });
    await happen(id, { start_time: '2023-03-20T10:00:00Z', duration_minutes: 10, recording: false });
    await happen(id, { start_time: '2023-06-01T10:00:00Z', duration_minutes: 10, recording: true });

    const res = await sb.v2('GET', '/users/me/recordings', { query: { from: '2023-03-01', to: '2023-04-30' } });
    expect(res.status).toBe(200);
    expect(schemaProblems('GET', '/users/{userId}/recordings', 200, res.body)).toEqual([]);
    expect(res.body).toMatchObject({
      from: '2023-03-01',
      to: '2023-04-30',
      page_count: 1,
      page_size: 30,
      total_records: 2,
      next_page_token: '',
    });
    expect(res.body.meetings.map((m: { uuid: string }) => m.uuid)).toEqual([april.uuid, march.uuid]);

    const [aprilItem, marchItem] = res.body.meetings;
    expect(aprilItem).toMatchObject({ id: webinar, topic: 'Recorded webinar', duration: 20, recording_count: '2' });
    expect(aprilItem.total_size).toBe(String(aprilItem.recording_files[0].file_size + aprilItem.recording_files[1].file_size));
    expect(aprilItem.recording_files.map((f: { recording_type: string }) => f.recording_type)).toEqual([
      'shared_screen_with_speaker_view',
      'chat_file',
    ]);
    expect(marchItem).toEqual({
      uuid: march.uuid,
      id,
      account_id: sb.sandbox.master.id,
      host_id: sb.sandbox.master.ownerId,
      topic: 'Recorded',
      start_time: '2023-03-05T10:00:00Z',
      duration: 10,
      total_size: expect.stringMatching(/^\d+$/),
      recording_count: '2',
      recording_files: [expect.any(Object), expect.any(Object)],
    });
    for (const file of marchItem.recording_files) {
      expect(file).toEqual({
        id: expect.any(String),
        meeting_id: march.uuid,
        recording_start: '2023-03-05T10:00:00Z',
        recording_end: '2023-03-05T10:10:00Z',
        file_type: expect.stringMatching(/^(MP4|M4A)$/),
        file_size: expect.any(Number),
        play_url: expect.stringMatching(/^https:\/\/sandbox\.v1gate\.local\/rec\/play\//),
        // Served where the request came (the sandbox streams the bytes there, behind the bearer check).
        download_url: `${sb.url}/rec/download/${file.download_url.split('/rec/download/')[1]}`,
        status: 'completed',
        recording_type: expect.any(String),
      });
    }

    const byEmail = await sb.v2('GET', '/users/owner@sandbox.v1gate.local/recordings', {
      query: { from: '2023-03-01', to: '2023-04-30', page_size: 1 },
    });
    expect(byEmail.body).toMatchObject({ page_count: 2, total_records: 2 });
    expect(byEmail.body.next_page_token).not.toBe('');
    expect(
      (await sb.v2('GET', '/users/me/recordings', { query: { from: '2023-03-01', to: '2023-04-30', trash: 'true' } })).body.meetings,
    ).toEqual([]);
  });

  it('makes a cloud recording when a meeting set to record to the cloud ends', async () => {
    const id = await createMeeting({ settings: { auto_recording: 'cloud' } });
    await sb.control('POST', `/meetings/${id}/start`);
    const ended = await sb.control('POST', `/meetings/${id}/end`);
    expect(ended.body.recording_files.map((f: { file_type: string }) => f.file_type)).toEqual(['MP4', 'M4A']);
    const today = new Date().toISOString().slice(0, 10);
    const res = await sb.v2('GET', '/users/me/recordings', { query: { from: today, to: today } });
    expect(res.body.meetings.map((m: { uuid: string }) => m.uuid)).toContain(ended.body.uuid);
  });

  it('answers 400 without from and to, 404 (1001) for an unknown user', async () => {
    const missing = await sb.v2('GET', '/users/me/recordings');
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['from', 'to']);
    const reversed = await sb.v2('GET', '/users/me/recordings', { query: { from: '2024-02-01', to: '2024-01-01' } });
    expect(reversed.body.errors).toEqual([{ field: 'to', message: expect.any(String) }]);
    const unknown = await sb.v2('GET', '/users/nobody@example.com/recordings', { query: { from: '2024-01-01', to: '2024-01-31' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(1001);
  });
});

/** A sub account of the master, with its API credentials (read from the control API). */
async function subAccount(email: string) {
  const created = await sb.v2('POST', '/accounts', { body: { first_name: 'Sub', last_name: 'Owner', email, password: 'Secret123' } });
  expect(created.status).toBe(201);
  const listed = await sb.control('GET', '/accounts');
  const account = listed.body.accounts.find((a: { id: string }) => a.id === created.body.id);
  return { apiKey: account.api_key as string, apiSecret: account.api_secret as string };
}

/**
 * Test-only: give an ended instance a chosen uuid, to test uuids of the shapes that need double
 * encoding (random ones rarely start with `/`). Keeps `instancesByUuid` in step.
 */
function forceInstanceUuid(uuid: string, wanted: string): string {
  const state = sb.sandbox.state;
  const entry = state.instancesByUuid.get(uuid)!;
  state.instancesByUuid.delete(uuid);
  entry.instance.uuid = wanted;
  state.instancesByUuid.set(wanted, entry);
  return wanted;
}

describe('ISO times', () => {
  it('prints every time of the answers without milliseconds', async () => {
    const instance = await happen(await createMeeting());
    const res = await sb.v2('GET', `/past_meetings/${twice(instance.uuid)}`);
    expect(res.body.start_time).toMatch(ISO);
    expect(res.body.end_time).toMatch(ISO);
  });
});
