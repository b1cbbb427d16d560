import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectV1Shape, FUTURE, NO_LIMITS, V1_TIME, v1ExampleShape, v2User, type V1Shape } from '../support/v1-answers.js';

let gw: TestGateway;
let ownerId: string;
let otherId: string;
beforeAll(async () => {
  gw = await startTestGateway(NO_LIMITS);
  ownerId = (await gw.v2('GET', '/users/me')).body.id;
  otherId = (await v2User(gw, { email: 'other-host@example.com' })).id;
});
afterAll(() => gw.close());

/** The v1 meeting answers (the v1 reference examples'; our create answer adds real_id). */
const ITEM_TYPES = v1ExampleShape('/meeting/list', 'meetings');
const CREATE_TYPES: V1Shape = { ...v1ExampleShape('/meeting/create'), real_id: 'string' };
const GET_TYPES = v1ExampleShape('/meeting/get');

async function createMeeting(params: Record<string, string> = {}) {
  const answer = await gw.v1('/meeting/create', { host_id: ownerId, type: '2', topic: 'Weekly sync', start_time: FUTURE, ...params });
  expect(answer.error, JSON.stringify(answer)).toBeUndefined();
  return answer;
}

/** The gateway's default aux cache TTL (AUX_CACHE_TTL_MS unset). */
const AUX_TTL_MS = loadConfig({}).cache.auxTtlMs;

const v2Meeting = async (id: string) => (await gw.v2('GET', `/meetings/${id}`)).body;
const snapshot = () => JSON.stringify([...gw.sandbox.state.meetings.values()]);

describe('/meeting/create', () => {
  it('answers the v1 meeting with every field and its type, and v1 defaults where the call omits them', async () => {
    const answer = await createMeeting({ duration: '45', timezone: 'Europe/Paris', password: 'abc123' });
    expectV1Shape(answer, CREATE_TYPES);
    expect(answer).toMatchObject({
      host_id: ownerId,
      topic: 'Weekly sync',
      type: 2,
      start_time: FUTURE,
      duration: 45,
      timezone: 'Europe/Paris',
      password: 'abc123',
      option_jbh: false,
      option_start_type: 'video',
      option_host_video: true,
      option_participants_video: true,
      option_audio: 'both',
      option_enforce_login: false,
      option_enforce_login_domains: '',
      option_alternative_hosts: '',
      status: 0,
    });
    expect(answer.real_id).toBe(answer.id);
    expect(answer.created_at).toMatch(V1_TIME);
    const v2 = await v2Meeting(answer.id);
    expect(String(v2.id)).toBe(answer.id);
    // v1's defaults, not v2's: video on, local recording.
    expect(v2.settings).toMatchObject({
      host_video: true,
      participant_video: true,
      auto_recording: 'local',
      approval_type: 2,
      join_before_host: false,
    });
  });

  it('sets every meeting option through v1 and v2 holds it', async () => {
    const answer = await createMeeting({
      option_jbh: 'true',
      option_host_video: 'false',
      option_participants_video: 'false',
      option_cn_meeting: 'true',
      option_in_meeting: 'true',
      option_audio: 'voip',
      option_enforce_login: 'true',
      option_enforce_login_domains: 'example.com',
      option_alternative_hosts: 'other-host@example.com',
      option_use_pmi: 'true',
      option_auto_record_type: 'cloud',
      option_registration: 'true',
      option_start_type: 'screen_share',
    });
    const v2 = await v2Meeting(answer.id);
    expect(v2.settings).toMatchObject({
      join_before_host: true,
      host_video: false,
      participant_video: false,
      cn_meeting: true,
      in_meeting: true,
      audio: 'voip',
      enforce_login: true,
      enforce_login_domains: 'example.com',
      alternative_hosts: 'other-host@example.com',
      use_pmi: true,
      auto_recording: 'cloud',
      approval_type: 0,
    });
    // option_start_type has no v2 home: accepted, answered as v1's `video`.
    expect(answer.option_start_type).toBe('video');
  });

  it('merges option_alternative_hosts (emails) and option_alternative_host_ids into the one v2 list', async () => {
    const answer = await createMeeting({ option_alternative_hosts: 'other-host@example.com', option_alternative_host_ids: otherId });
    expect((await v2Meeting(answer.id)).settings.alternative_hosts).toBe(`other-host@example.com,${otherId}`);
    expect(answer.option_alternative_hosts).toBe(`other-host@example.com,${otherId}`);
  });

  it('creates a fixed-time recurring meeting from the v1 recurrence JSON', async () => {
    const answer = await createMeeting({ type: '8', recurrence: '{"type":1,"repeat_interval":"2","end_times":3}', registration_type: '2' });
    const v2 = await v2Meeting(answer.id);
    // v2 answers no recurrence object; its stored form is what the occurrences were computed from.
    expect(gw.sandbox.state.meetings.get(Number(answer.id))!.recurrence).toMatchObject({ type: 1, repeat_interval: 2, end_times: 3 });
    expect(v2.occurrences).toHaveLength(3);
    expect(v2.settings.registration_type).toBe(2);
  });

  it('a recurring meeting with no fixed time answers an empty start_time', async () => {
    const answer = await createMeeting({ type: '3' });
    expect(answer.type).toBe(3);
    expect(answer.start_time).toBe('');
  });

  it.each([
    [{ topic: 'x'.repeat(301) }, /^Invalid parameter: topic\./],
    [{ password: 'bad pass' }, /^Invalid parameter: password\./],
    [{ password: '12345678901' }, /^Invalid parameter: password\./],
    [{ type: '8', recurrence: '{not json' }, /^Invalid parameter: recurrence\. Must be valid JSON/],
    [{ type: '8', recurrence: '{"type":2,"repeat_interval":20}' }, /^Invalid parameter: recurrence\./],
    [{ type: '5' }, /^Invalid parameter: type\./],
    [{ option_jbh: 'yes' }, /^Invalid parameter: option_jbh\./],
    [{ option_audio: 'phone' }, /^Invalid parameter: option_audio\./],
    [{ option_auto_record_type: 'disk' }, /^Invalid parameter: option_auto_record_type\./],
    [{ option_start_type: 'audio' }, /^Invalid parameter: option_start_type\./],
    [{ duration: 'long' }, /^Invalid parameter: duration\./],
    [{ start_time: 'tomorrow' }, /^Invalid parameter: start_time\./],
  ])('refuses bad input %o with a 300 naming the field, changing nothing', async (params, message) => {
    const before = snapshot();
    const answer = await gw.v1('/meeting/create', { host_id: ownerId, type: '2', topic: 'T', start_time: FUTURE, ...params });
    expect(answer.error.code).toBe(300);
    expect(answer.error.message).toMatch(message);
    expect(snapshot()).toBe(before);
  });

  it('names v2-side refusals by the v1 field: a fixed-time series without recurrence, a local time without timezone, an unknown alternative host', async () => {
    const before = snapshot();
    const noRecurrence = await gw.v1('/meeting/create', { host_id: ownerId, type: '8', topic: 'T', start_time: FUTURE });
    expect(noRecurrence.error).toMatchObject({ code: 300, message: expect.stringMatching(/^Invalid parameter: recurrence\./) });
    const local = await gw.v1('/meeting/create', { host_id: ownerId, type: '2', topic: 'T', start_time: '2035-06-03T15:00:00' });
    expect(local.error).toMatchObject({ code: 300, message: expect.stringMatching(/^Invalid parameter: timezone\./) });
    const alt = await gw.v1('/meeting/create', { host_id: ownerId, type: '2', topic: 'T', option_alternative_hosts: 'nobody@example.com' });
    expect(alt.error).toMatchObject({ code: 300, message: expect.stringMatching(/^Invalid parameter: option_alternative_hosts\./) });
    expect(snapshot()).toBe(before);
  });

  it('answers missing required fields by name, and 1001 for an unknown host', async () => {
    expect(await gw.v1('/meeting/create', { host_id: ownerId, type: '2' })).toEqual({
      error: { code: 300, message: 'topic is required.' },
    });
    expect(await gw.v1('/meeting/create', { host_id: ownerId, topic: 'T' })).toEqual({
      error: { code: 300, message: 'type is required.' },
    });
    expect(await gw.v1('/meeting/create', { type: '2', topic: 'T' })).toEqual({ error: { code: 300, message: 'host_id is required.' } });
    const before = snapshot();
    expect((await gw.v1('/meeting/create', { host_id: 'no-such-user', type: '2', topic: 'T' })).error.code).toBe(1001);
    expect(snapshot()).toBe(before);
  });
});

describe('/meeting/get', () => {
  it('answers the v1 meeting with get-only fields and occurrences', async () => {
    const created = await createMeeting({ type: '8', recurrence: '{"type":2,"weekly_days":"2,4","end_times":2}', option_use_pmi: 'false' });
    const answer = await gw.v1('/meeting/get', { id: created.id, host_id: ownerId });
    expectV1Shape(answer, GET_TYPES);
    expect(answer).toMatchObject({
      id: created.id,
      uuid: created.uuid,
      type: 8,
      status: 0,
      option_cn_meeting: false,
      option_in_meeting: false,
      option_use_pmi: false,
    });
    expect(answer.occurrences).toHaveLength(2);
    for (const o of answer.occurrences) {
      expect(Object.keys(o).sort()).toEqual(['duration', 'occurrence_id', 'start_time', 'status']);
      expect(o).toEqual({
        occurrence_id: expect.stringMatching(/^\d+$/),
        start_time: expect.stringMatching(V1_TIME),
        duration: 60,
        status: 'available',
      });
    }
  });

  it('reads options set through v2', async () => {
    const { body } = await gw.v2('POST', `/users/${ownerId}/meetings`, {
      body: {
        topic: 'From v2',
        type: 2,
        start_time: FUTURE,
        password: '777',
        settings: {
          join_before_host: true,
          host_video: false,
          participant_video: true,
          cn_meeting: true,
          in_meeting: true,
          use_pmi: true,
          audio: 'telephony',
          enforce_login: true,
          enforce_login_domains: 'a.com',
          alternative_hosts: 'other-host@example.com',
          approval_type: 1,
        },
      },
    });
    const answer = await gw.v1('/meeting/get', { id: String(body.id), host_id: ownerId });
    expect(answer).toMatchObject({
      topic: 'From v2',
      password: '777',
      h323_password: '777',
      option_jbh: true,
      option_host_video: false,
      option_participants_video: true,
      option_cn_meeting: true,
      option_in_meeting: true,
      option_use_pmi: true,
      option_audio: 'telephony',
      option_enforce_login: true,
      option_enforce_login_domains: 'a.com',
      option_alternative_hosts: 'other-host@example.com',
      occurrences: [],
    });
  });

  it('answers status 1 while the meeting is in progress', async () => {
    const created = await createMeeting();
    expect((await gw.control('POST', `/meetings/${created.id}/start`, {})).status).toBe(201);
    expect((await gw.v1('/meeting/get', { id: created.id, host_id: ownerId })).status).toBe(1);
    // Ended outside v1gate (as a host ending it in the client would): seen within AUX_CACHE_TTL_MS.
    await gw.control('POST', `/meetings/${created.id}/end`, {});
    await new Promise((resolve) => setTimeout(resolve, AUX_TTL_MS + 50));
    expect((await gw.v1('/meeting/get', { id: created.id, host_id: ownerId })).status).toBe(0);
  });

  it("answers 3001 for an unknown meeting, 3003 for another host's, 1001 for an unknown host", async () => {
    const created = await createMeeting();
    expect((await gw.v1('/meeting/get', { id: '99999999999', host_id: ownerId })).error.code).toBe(3001);
    expect((await gw.v1('/meeting/get', { id: created.id, host_id: otherId })).error.code).toBe(3003);
    expect((await gw.v1('/meeting/get', { id: created.id, host_id: 'no-such-user' })).error.code).toBe(1001);
    expect((await gw.v1('/meeting/get', { id: created.id })).error).toEqual({ code: 300, message: 'host_id is required.' });
  });
});

describe('/meeting/update', () => {
  it('updates only the fields given and answers {id, updated_at}', async () => {
    const created = await createMeeting({ option_jbh: 'true' });
    const answer = await gw.v1('/meeting/update', {
      id: created.id,
      host_id: ownerId,
      type: '2',
      topic: 'Renamed',
      option_host_video: 'false',
    });
    expect(answer).toEqual({ id: created.id, updated_at: expect.stringMatching(V1_TIME) });
    const v2 = await v2Meeting(created.id);
    expect(v2.topic).toBe('Renamed');
    expect(v2.settings).toMatchObject({ host_video: false, join_before_host: true, participant_video: true });
  });

  it('changes the type: to a fixed-time series with a recurrence, then back to one meeting', async () => {
    const created = await createMeeting();
    const toSeries = await gw.v1('/meeting/update', {
      id: created.id,
      host_id: ownerId,
      type: '8',
      recurrence: '{"type":1,"end_times":4}',
    });
    expect(toSeries.error).toBeUndefined();
    expect((await v2Meeting(created.id)).occurrences).toHaveLength(4);
    await gw.v1('/meeting/update', { id: created.id, host_id: ownerId, type: '2' });
    const v2 = await v2Meeting(created.id);
    expect(v2.type).toBe(2);
    expect(v2.occurrences).toEqual([]);
    const noFixed = await gw.v1('/meeting/update', { id: created.id, host_id: ownerId, type: '3' });
    expect(noFixed.error).toBeUndefined();
    expect((await gw.v1('/meeting/get', { id: created.id, host_id: ownerId })).start_time).toBe('');
  });

  it('refuses a change to a fixed-time series without recurrence (300 naming recurrence), changing nothing', async () => {
    const created = await createMeeting();
    const before = snapshot();
    const answer = await gw.v1('/meeting/update', { id: created.id, host_id: ownerId, type: '8' });
    expect(answer.error).toMatchObject({ code: 300, message: expect.stringMatching(/^Invalid parameter: recurrence\./) });
    expect(snapshot()).toBe(before);
  });

  it("requires type, and answers 3003 for another host's meeting without changing it", async () => {
    const created = await createMeeting();
    expect(await gw.v1('/meeting/update', { id: created.id, host_id: ownerId, topic: 'x' })).toEqual({
      error: { code: 300, message: 'type is required.' },
    });
    const before = snapshot();
    expect((await gw.v1('/meeting/update', { id: created.id, host_id: otherId, type: '2', topic: 'Hijack' })).error.code).toBe(3003);
    expect((await gw.v1('/meeting/update', { id: created.id, host_id: ownerId, type: '2', topic: 'y'.repeat(301) })).error.code).toBe(300);
    expect((await gw.v1('/meeting/update', { id: '99999999999', host_id: ownerId, type: '2' })).error.code).toBe(3001);
    expect(snapshot()).toBe(before);
  });
});

describe('/meeting/delete', () => {
  it('deletes and answers {id, deleted_at}', async () => {
    const created = await createMeeting();
    expect(await gw.v1('/meeting/delete', { id: created.id, host_id: ownerId })).toEqual({
      id: created.id,
      deleted_at: expect.stringMatching(V1_TIME),
    });
    expect((await gw.v2('GET', `/meetings/${created.id}`)).status).toBe(404);
    expect((await gw.v1('/meeting/delete', { id: created.id, host_id: ownerId })).error.code).toBe(3001);
  });

  it('deletes one occurrence', async () => {
    const created = await createMeeting({ type: '8', recurrence: '{"type":1,"end_times":3}' });
    const occurrenceId = (await gw.v1('/meeting/get', { id: created.id, host_id: ownerId })).occurrences[1].occurrence_id;
    const answer = await gw.v1('/meeting/delete', { id: created.id, host_id: ownerId, occurrence_id: occurrenceId });
    expect(answer).toEqual({ id: created.id, deleted_at: expect.stringMatching(V1_TIME) });
    const statuses = (await v2Meeting(created.id)).occurrences.map((o: { status: string }) => o.status);
    expect(statuses).toEqual(['available', 'deleted', 'available']);
    expect((await gw.v1('/meeting/delete', { id: created.id, host_id: ownerId, occurrence_id: '123' })).error).toMatchObject({
      code: 300,
      message: expect.stringMatching(/occurrence_id/),
    });
  });

  it('refuses another host, changing nothing', async () => {
    const created = await createMeeting();
    const before = snapshot();
    expect((await gw.v1('/meeting/delete', { id: created.id, host_id: otherId })).error.code).toBe(3003);
    expect((await gw.v1('/meeting/delete', { id: created.id, host_id: 'no-such-user' })).error.code).toBe(1001);
    expect(snapshot()).toBe(before);
  });
});

describe('/meeting/end', () => {
  it('ends a live meeting and answers {id, ended_at}', async () => {
    const created = await createMeeting();
    await gw.control('POST', `/meetings/${created.id}/start`, {});
    const answer = await gw.v1('/meeting/end', { id: created.id, host_id: ownerId });
    expect(answer).toEqual({ id: created.id, ended_at: expect.stringMatching(V1_TIME) });
    expect(gw.sandbox.state.meetings.get(Number(created.id))!.live).toBeNull();
    const live = await gw.v2('GET', `/users/${ownerId}/meetings`, { query: { type: 'live' } });
    expect(live.body.meetings.map((m: { id: number }) => String(m.id))).not.toContain(created.id);
  });

  it('refuses another host without ending the meeting; 3001 for an unknown one', async () => {
    const created = await createMeeting();
    await gw.control('POST', `/meetings/${created.id}/start`, {});
    expect((await gw.v1('/meeting/end', { id: created.id, host_id: otherId })).error.code).toBe(3003);
    expect(gw.sandbox.state.meetings.get(Number(created.id))!.live).not.toBeNull();
    expect((await gw.v1('/meeting/end', { id: '99999999999', host_id: ownerId })).error.code).toBe(3001);
    await gw.control('POST', `/meetings/${created.id}/end`, {});
  });
});

describe('/meeting/list', () => {
  it("pages the host's scheduled meetings in the v1 list shape", async () => {
    const g = await startTestGateway(NO_LIMITS);
    try {
      const host = (await g.v2('POST', '/users', { body: { action: 'custCreate', user_info: { email: 'lister@example.com', type: 2 } } }))
        .body.id;
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.push((await g.v1('/meeting/create', { host_id: host, type: '2', topic: `M${i}`, start_time: FUTURE })).id);
      await g.v1('/meeting/create', { host_id: host, type: '1', topic: 'Instant' });
      await g.control('POST', `/meetings/${ids[0]}/start`, {});
      const first = await g.v1('/meeting/list', { host_id: host, page_size: '2' });
      expect(Object.keys(first)).toEqual(['page_count', 'total_records', 'page_number', 'page_size', 'meetings']);
      expect(first).toMatchObject({ page_count: 3, total_records: 5, page_number: 1, page_size: 2 });
      expect(first.meetings.map((m: { id: string }) => m.id)).toEqual(ids.slice(0, 2));
      for (const item of first.meetings) expectV1Shape(item, ITEM_TYPES);
      expect(first.meetings[0].status).toBe(1);
      expect(first.meetings[1].status).toBe(0);
      const third = await g.v1('/meeting/list', { host_id: host, page_size: '2', page_number: '3' });
      expect(third.meetings.map((m: { id: string }) => m.id)).toEqual(ids.slice(4));
      const all = await g.v1('/meeting/list', { host_id: host });
      expect(all).toMatchObject({ page_size: 30, page_number: 1, total_records: 5 });
    } finally {
      await g.close();
    }
  });

  it('refuses bad paging and unknown hosts', async () => {
    expect((await gw.v1('/meeting/list', { host_id: ownerId, page_size: '301' })).error).toMatchObject({
      code: 300,
      message: expect.stringMatching(/page_size/),
    });
    expect((await gw.v1('/meeting/list', { host_id: ownerId, page_number: '0' })).error).toMatchObject({
      code: 300,
      message: expect.stringMatching(/page_number/),
    });
    expect((await gw.v1('/meeting/list', { host_id: 'no-such-user' })).error.code).toBe(1001);
    expect(await gw.v1('/meeting/list', {})).toEqual({ error: { code: 300, message: 'host_id is required.' } });
  });
});

describe('/meeting/live', () => {
  it("lists the account's meetings in progress, every host, in the v1 list shape", async () => {
    const g = await startTestGateway(NO_LIMITS);
    try {
      const owner = (await g.v2('GET', '/users/me')).body.id;
      const other = (await g.v2('POST', '/users', { body: { action: 'custCreate', user_info: { email: 'live2@example.com', type: 2 } } }))
        .body.id;
      const a = await g.v1('/meeting/create', { host_id: owner, type: '2', topic: 'A', start_time: FUTURE });
      const b = await g.v1('/meeting/create', { host_id: other, type: '2', topic: 'B', start_time: FUTURE });
      const c = await g.v1('/meeting/create', { host_id: owner, type: '2', topic: 'C', start_time: FUTURE });
      expect((await g.v1('/meeting/live')).total_records).toBe(0);
      for (const m of [a, b]) await g.control('POST', `/meetings/${m.id}/start`, {});
      const answer = await g.v1('/meeting/live');
      expect(Object.keys(answer)).toEqual(['page_count', 'total_records', 'page_number', 'page_size', 'meetings']);
      expect(answer).toMatchObject({ page_count: 1, total_records: 2, page_number: 1, page_size: 30 });
      expect(answer.meetings.map((m: { id: string }) => m.id).sort()).toEqual([a.id, b.id].sort());
      expect(answer.meetings.map((m: { id: string }) => m.id)).not.toContain(c.id);
      for (const item of answer.meetings) {
        expectV1Shape(item, ITEM_TYPES);
        expect(item.status).toBe(1);
      }
      const second = await g.v1('/meeting/live', { page_size: '1', page_number: '2' });
      expect(second).toMatchObject({ page_count: 2, total_records: 2, page_number: 2, page_size: 1 });
      expect(second.meetings).toHaveLength(1);
      expect((await g.v1('/meeting/live', { page_size: '0' })).error.code).toBe(300);
    } finally {
      await g.close();
    }
  });
});
