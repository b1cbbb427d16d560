import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectV1Shape, FUTURE, NO_LIMITS, V1_TIME, v1ExampleShape, type V1Shape, gatewayWithTwoHosts } from '../support/v1-answers.js';

/**
 * What only meetings do. What meetings and webinars do alike (create, get, update, delete, end,
 * their shapes and errors) runs once over both kinds in sessions.test.ts.
 */
let gw: TestGateway;
let ownerId: string;
let otherId: string;
beforeAll(async () => {
  ({ gw, ownerId, otherId } = await gatewayWithTwoHosts('other-host@example.com'));
});
afterAll(() => gw.close());

/** The v1 meeting answers (the v1 reference examples'; our create answer adds real_id). */
const ITEM_TYPES = v1ExampleShape('/meeting/list', 'meetings');
const CREATE_TYPES: V1Shape = { ...v1ExampleShape('/meeting/create'), real_id: 'string' };

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
  it("answers real_id as its number and the meeting options' v1 defaults", async () => {
    const answer = await createMeeting();
    expectV1Shape(answer, CREATE_TYPES);
    // real_id stays quoted: no evidence says otherwise; the number it repeats is a JSON number.
    expect(answer.real_id).toBe(String(answer.id));
    expect(answer).toMatchObject({ option_jbh: false, option_host_video: true, option_participants_video: true });
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

  it.each([
    [{ type: '5' }, /^Invalid parameter: type\./],
    [{ option_jbh: 'yes' }, /^Invalid parameter: option_jbh\./],
    [{ option_host_video: 'no' }, /^Invalid parameter: option_host_video\./],
  ])('refuses bad input %o with a 300 naming the field, changing nothing', async (params, message) => {
    const before = snapshot();
    const answer = await gw.v1('/meeting/create', { host_id: ownerId, type: '2', topic: 'T', start_time: FUTURE, ...params });
    expect(answer.error.code).toBe(300);
    expect(answer.error.message).toMatch(message);
    expect(snapshot()).toBe(before);
  });

  it('names an unknown alternative host, refused by v2, by its v1 field, changing nothing', async () => {
    const before = snapshot();
    const alt = await gw.v1('/meeting/create', { host_id: ownerId, type: '2', topic: 'T', option_alternative_hosts: 'nobody@example.com' });
    expect(alt.error).toMatchObject({ code: 300, message: expect.stringMatching(/^Invalid parameter: option_alternative_hosts\./) });
    expect(snapshot()).toBe(before);
  });

  it('requires type (a webinar has a default, a meeting none)', async () => {
    expect(await gw.v1('/meeting/create', { host_id: ownerId, topic: 'T' })).toEqual({
      error: { code: 300, message: 'type is required.' },
    });
  });
});

describe('/meeting/get', () => {
  it('reads the meeting options a v2 client set', async () => {
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
          meeting_authentication: true,
          authentication_domains: 'a.com',
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
});

describe('/meeting/update', () => {
  // Clients update with id, host_id and what changes, as the service's own sample did (docs/live-evidence.md).
  it("keeps the meeting's own type when the call names none: a series stays a series", async () => {
    const series = await createMeeting({ type: '8', recurrence: '{"type":1,"end_times":3}' });
    const answer = await gw.v1('/meeting/update', { id: series.id, host_id: ownerId, topic: 'Renamed' });
    expect(answer).toEqual({ id: String(series.id), updated_at: expect.stringMatching(V1_TIME) });
    const v2 = (await gw.v2('GET', `/meetings/${series.id}`)).body;
    expect(v2).toMatchObject({ topic: 'Renamed', type: 8 });
    expect(v2.occurrences).toHaveLength(3);
    const noFixedTime = await createMeeting({ type: '3' });
    expect((await gw.v1('/meeting/update', { id: noFixedTime.id, host_id: ownerId, duration: '15' })).error).toBeUndefined();
    expect((await gw.v2('GET', `/meetings/${noFixedTime.id}`)).body).toMatchObject({ type: 3, duration: 15 });
  });

  it('changes nothing for an update with only id and host_id, and still checks the host', async () => {
    const created = await createMeeting();
    const before = snapshot();
    expect(await gw.v1('/meeting/update', { id: created.id, host_id: ownerId })).toEqual({
      id: String(created.id),
      updated_at: expect.stringMatching(V1_TIME),
    });
    expect(snapshot()).toBe(before);
    expect((await gw.v1('/meeting/update', { id: created.id, host_id: 'no-such-user' })).error.code).toBe(1001);
    expect(snapshot()).toBe(before);
  });
});

describe('/meeting/end', () => {
  it("takes the meeting off its host's live list", async () => {
    const created = await createMeeting();
    await gw.control('POST', `/meetings/${created.id}/start`, {});
    await gw.v1('/meeting/end', { id: created.id, host_id: ownerId });
    const live = await gw.v2('GET', `/users/${ownerId}/meetings`, { query: { type: 'live' } });
    expect(live.body.meetings.map((m: { id: number }) => m.id)).not.toContain(created.id);
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
