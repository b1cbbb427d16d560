import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestGateway } from '../support/gateway.js';
import { expectV1Shape, FUTURE, V1_TIME, v1ExampleShape, type V1Shape, gatewayWithTwoHosts } from '../support/v1-answers.js';

/**
 * What /v1/meeting/* and /v1/webinar/* do alike, run once over both kinds, as the code is one
 * implementation over `SessionKind` (src/translators/sessions/). What only one kind does (the
 * meeting's live status and /meeting/live, the webinar's panelists and its two lists) is in
 * meetings.test.ts and webinars.test.ts.
 */
interface Kind {
  name: 'meeting' | 'webinar';
  /** The v2 collection: /meetings/{id} or /webinars/{id}. */
  v2: 'meetings' | 'webinars';
  /** v1 types: one session, a fixed-time series, a series with no fixed time. */
  single: string;
  series: string;
  noFixedTime: string;
  createTypes: V1Shape;
  getTypes: V1Shape;
  /** What v2 holds after a v1 create that sets no option: v1's defaults, not v2's. */
  v2Defaults: Record<string, unknown>;
}

const KINDS: Kind[] = [
  {
    name: 'meeting',
    v2: 'meetings',
    single: '2',
    series: '8',
    noFixedTime: '3',
    // Our create answer adds real_id to the v1 reference's example.
    createTypes: { ...v1ExampleShape('/meeting/create'), real_id: 'string' },
    getTypes: v1ExampleShape('/meeting/get'),
    v2Defaults: { host_video: true, participant_video: true, auto_recording: 'local', approval_type: 2, join_before_host: false },
  },
  {
    name: 'webinar',
    v2: 'webinars',
    single: '5',
    series: '9',
    noFixedTime: '6',
    createTypes: v1ExampleShape('/webinar/create'),
    getTypes: v1ExampleShape('/webinar/get'),
    v2Defaults: {
      host_video: true,
      panelists_video: true,
      auto_recording: 'local',
      approval_type: 2,
      practice_session: false,
      registration_type: 1,
    },
  },
];

let gw: TestGateway;
let ownerId: string;
let otherId: string;
beforeAll(async () => {
  ({ gw, ownerId, otherId } = await gatewayWithTwoHosts('session-other@example.com'));
});
afterAll(() => gw.close());

const snapshot = () => JSON.stringify([...gw.sandbox.state.meetings.values()]);

describe.each(KINDS)('/$name', (kind) => {
  const path = (action: string) => `/${kind.name}/${action}`;
  const v2Session = async (id: string) => (await gw.v2('GET', `/${kind.v2}/${id}`)).body;
  async function create(params: Record<string, string> = {}) {
    const answer = await gw.v1(path('create'), { host_id: ownerId, type: kind.single, topic: 'Quarterly', start_time: FUTURE, ...params });
    expect(answer.error, JSON.stringify(answer)).toBeUndefined();
    return answer;
  }
  /** A session in progress, as a host starting it in the client makes one. */
  async function live() {
    const created = await create();
    expect((await gw.control('POST', `/meetings/${created.id}/start`, {})).status).toBe(201);
    return created;
  }

  describe('create', () => {
    it("answers the v1 reference's fields and types, with v1's defaults for what the call omits, and v2 holds them", async () => {
      const answer = await create({ duration: '45', timezone: 'Europe/Paris' });
      expectV1Shape(answer, kind.createTypes);
      expect(answer).toMatchObject({
        host_id: ownerId,
        topic: 'Quarterly',
        type: Number(kind.single),
        start_time: FUTURE,
        duration: 45,
        timezone: 'Europe/Paris',
        status: 0,
        option_start_type: 'video',
        option_audio: 'both',
        option_enforce_login: false,
        option_enforce_login_domains: '',
        option_alternative_hosts: '',
      });
      // A session's number is a JSON number, as the live service answered it (docs/live-evidence.md).
      expect(Number.isSafeInteger(answer.id)).toBe(true);
      expect(answer.created_at).toMatch(V1_TIME);
      const v2 = await v2Session(answer.id);
      expect(v2.id).toBe(answer.id);
      expect(v2.settings).toMatchObject(kind.v2Defaults);
    });

    it('creates a fixed-time series from the v1 recurrence JSON (numbers as strings too)', async () => {
      const answer = await create({ type: kind.series, recurrence: '{"type":1,"repeat_interval":"2","end_times":3}' });
      expect(answer.type).toBe(Number(kind.series));
      expect(gw.sandbox.state.meetings.get(Number(answer.id))!.recurrence).toMatchObject({ type: 1, repeat_interval: 2, end_times: 3 });
      expect((await v2Session(answer.id)).occurrences).toHaveLength(3);
    });

    it('answers an empty start_time for a series with no fixed time', async () => {
      const answer = await create({ type: kind.noFixedTime });
      expect(answer).toMatchObject({ type: Number(kind.noFixedTime), start_time: '' });
    });

    it.each([
      ['topic', { topic: 'x'.repeat(301) }],
      ['password', { password: 'bad pass' }],
      ['password', { password: '12345678901' }],
      ['type', { type: '7' }],
      ['duration', { duration: 'long' }],
      ['start_time', { start_time: 'tomorrow' }],
      ['option_audio', { option_audio: 'phone' }],
      ['option_enforce_login', { option_enforce_login: 'yes' }],
      ['option_auto_record_type', { option_auto_record_type: 'disk' }],
      ['option_start_type', { option_start_type: 'audio' }],
      ['recurrence', { type: kind.series, recurrence: '{not json' }],
      ['recurrence', { type: kind.series, recurrence: '{"type":2,"repeat_interval":20}' }],
    ])('refuses a bad %s with a 300 naming it, changing nothing (%o)', async (field, params) => {
      const before = snapshot();
      const answer = await gw.v1(path('create'), { host_id: ownerId, type: kind.single, topic: 'T', start_time: FUTURE, ...params });
      expect(answer.error, JSON.stringify(answer)).toMatchObject({ code: 300 });
      expect(answer.error.message.startsWith(`Invalid parameter: ${field}.`), answer.error.message).toBe(true);
      expect(snapshot()).toBe(before);
    });

    it('names v2-side refusals by the v1 field: a fixed-time series without recurrence, a local time without timezone', async () => {
      const before = snapshot();
      const noRecurrence = await gw.v1(path('create'), { host_id: ownerId, type: kind.series, topic: 'T', start_time: FUTURE });
      expect(noRecurrence.error).toMatchObject({ code: 300, message: expect.stringMatching(/^Invalid parameter: recurrence\./) });
      const local = await gw.v1(path('create'), { host_id: ownerId, type: kind.single, topic: 'T', start_time: '2035-06-03T15:00:00' });
      expect(local.error).toMatchObject({ code: 300, message: expect.stringMatching(/^Invalid parameter: timezone\./) });
      expect(snapshot()).toBe(before);
    });

    it('names missing required fields, and answers 1001 for an unknown host, changing nothing', async () => {
      expect(await gw.v1(path('create'), { host_id: ownerId, type: kind.single })).toEqual({
        error: { code: 300, message: 'topic is required.' },
      });
      expect(await gw.v1(path('create'), { type: kind.single, topic: 'T' })).toEqual({
        error: { code: 300, message: 'host_id is required.' },
      });
      const before = snapshot();
      expect((await gw.v1(path('create'), { host_id: 'no-such-user', type: kind.single, topic: 'T' })).error.code).toBe(1001);
      expect(snapshot()).toBe(before);
    });
  });

  describe('get', () => {
    it("answers the v1 reference's fields and types, with the occurrences of a series", async () => {
      const created = await create({ type: kind.series, recurrence: '{"type":2,"weekly_days":"2,4","end_times":2}' });
      const answer = await gw.v1(path('get'), { id: created.id, host_id: ownerId });
      expectV1Shape(answer, kind.getTypes);
      expect(answer).toMatchObject({ id: created.id, uuid: created.uuid, type: Number(kind.series), status: 0 });
      expect(answer.occurrences).toHaveLength(2);
      for (const o of answer.occurrences) {
        // v1's occurrence: these four fields, the id as a string.
        expect(o).toStrictEqual({
          occurrence_id: expect.stringMatching(/^\d+$/),
          start_time: expect.stringMatching(V1_TIME),
          duration: 60,
          status: 'available',
        });
      }
    });

    it('reads the options a v2 client set', async () => {
      const { body } = await gw.v2('POST', `/users/${ownerId}/${kind.v2}`, {
        body: {
          topic: 'From v2',
          type: Number(kind.noFixedTime),
          settings: {
            audio: 'voip',
            meeting_authentication: true,
            authentication_domains: 'x.org',
            alternative_hosts: 'session-other@example.com',
          },
        },
      });
      expect(await gw.v1(path('get'), { id: String(body.id), host_id: ownerId })).toMatchObject({
        topic: 'From v2',
        type: Number(kind.noFixedTime),
        start_time: '',
        option_audio: 'voip',
        option_enforce_login: true,
        option_enforce_login_domains: 'x.org',
        option_alternative_hosts: 'session-other@example.com',
        occurrences: [],
      });
    });

    it("answers 3001 for an unknown id, 3003 for another host's, 1001 for an unknown host, 300 without host_id", async () => {
      const created = await create();
      expect((await gw.v1(path('get'), { id: '99999999999', host_id: ownerId })).error.code).toBe(3001);
      expect((await gw.v1(path('get'), { id: created.id, host_id: otherId })).error.code).toBe(3003);
      expect((await gw.v1(path('get'), { id: created.id, host_id: 'no-such-user' })).error.code).toBe(1001);
      expect((await gw.v1(path('get'), { id: created.id })).error).toEqual({ code: 300, message: 'host_id is required.' });
    });
  });

  describe('update', () => {
    it('changes only the fields it names and answers {id, updated_at}', async () => {
      const created = await create({ option_host_video: 'false', duration: '30' });
      const answer = await gw.v1(path('update'), { id: created.id, host_id: ownerId, type: kind.single, topic: 'Renamed' });
      // The action answers quote the number, as the live service's own answers did.
      expect(answer).toStrictEqual({ id: String(created.id), updated_at: expect.stringMatching(V1_TIME) });
      const v2 = await v2Session(created.id);
      expect(v2).toMatchObject({ topic: 'Renamed', duration: 30 });
      expect(v2.settings).toMatchObject({ host_video: false, auto_recording: 'local' });
    });

    it('turns a session into a fixed-time series only with a recurrence (300 naming recurrence otherwise, changing nothing)', async () => {
      const created = await create();
      const before = snapshot();
      const refused = await gw.v1(path('update'), { id: created.id, host_id: ownerId, type: kind.series });
      expect(refused.error).toMatchObject({ code: 300, message: expect.stringMatching(/^Invalid parameter: recurrence\./) });
      expect(snapshot()).toBe(before);
      const series = await gw.v1(path('update'), {
        id: created.id,
        host_id: ownerId,
        type: kind.series,
        recurrence: '{"type":1,"end_times":4}',
      });
      expect(series.error).toBeUndefined();
      expect((await v2Session(created.id)).occurrences).toHaveLength(4);
      await gw.v1(path('update'), { id: created.id, host_id: ownerId, type: kind.single });
      expect(await v2Session(created.id)).toMatchObject({ type: Number(kind.single), occurrences: [] });
      expect((await gw.v1(path('update'), { id: created.id, host_id: ownerId, type: kind.noFixedTime })).error).toBeUndefined();
      expect((await gw.v1(path('get'), { id: created.id, host_id: ownerId })).start_time).toBe('');
    });

    it("answers 3003 for another host's session, 3001 for an unknown one and 300 for bad input, changing nothing", async () => {
      const created = await create();
      const before = snapshot();
      const change = { type: kind.single, topic: 'Hijack' };
      expect((await gw.v1(path('update'), { id: created.id, host_id: otherId, ...change })).error.code).toBe(3003);
      expect((await gw.v1(path('update'), { id: '99999999999', host_id: ownerId, ...change })).error.code).toBe(3001);
      expect(
        (await gw.v1(path('update'), { id: created.id, host_id: ownerId, type: kind.single, topic: 'y'.repeat(301) })).error.code,
      ).toBe(300);
      expect((await gw.v1(path('update'), { id: created.id, host_id: ownerId, type: kind.single, option_audio: 'loud' })).error.code).toBe(
        300,
      );
      expect(await gw.v1(path('update'), { host_id: ownerId, type: kind.single })).toEqual({
        error: { code: 300, message: 'id is required.' },
      });
      expect(snapshot()).toBe(before);
    });
  });

  describe('delete', () => {
    it('deletes and answers {id, deleted_at}; a second delete is 3001', async () => {
      const created = await create();
      expect(await gw.v1(path('delete'), { id: created.id, host_id: ownerId })).toStrictEqual({
        id: String(created.id),
        deleted_at: expect.stringMatching(V1_TIME),
      });
      expect((await gw.v2('GET', `/${kind.v2}/${created.id}`)).status).toBe(404);
      expect((await gw.v1(path('delete'), { id: created.id, host_id: ownerId })).error.code).toBe(3001);
    });

    it('deletes one occurrence of a series, and refuses an occurrence_id it does not have', async () => {
      const created = await create({ type: kind.series, recurrence: '{"type":1,"end_times":3}' });
      const occurrenceId = (await gw.v1(path('get'), { id: created.id, host_id: ownerId })).occurrences[1].occurrence_id;
      expect(await gw.v1(path('delete'), { id: created.id, host_id: ownerId, occurrence_id: occurrenceId })).toStrictEqual({
        id: String(created.id),
        deleted_at: expect.stringMatching(V1_TIME),
      });
      expect((await v2Session(created.id)).occurrences.map((o: { status: string }) => o.status)).toEqual([
        'available',
        'deleted',
        'available',
      ]);
      expect((await gw.v1(path('delete'), { id: created.id, host_id: ownerId, occurrence_id: '123' })).error).toMatchObject({
        code: 300,
        message: expect.stringMatching(/occurrence_id/),
      });
    });

    it('refuses another host and an unknown host, changing nothing', async () => {
      const created = await create();
      const before = snapshot();
      expect((await gw.v1(path('delete'), { id: created.id, host_id: otherId })).error.code).toBe(3003);
      expect((await gw.v1(path('delete'), { id: created.id, host_id: 'no-such-user' })).error.code).toBe(1001);
      expect(snapshot()).toBe(before);
    });
  });

  describe('end', () => {
    it('ends a session in progress and answers {id, ended_at}', async () => {
      const created = await live();
      expect(await gw.v1(path('end'), { id: created.id, host_id: ownerId })).toStrictEqual({
        id: String(created.id),
        ended_at: expect.stringMatching(V1_TIME),
      });
      expect(gw.sandbox.state.meetings.get(Number(created.id))!.live).toBeNull();
    });

    it('refuses another host without ending it; 3001 for an unknown one', async () => {
      const created = await live();
      expect((await gw.v1(path('end'), { id: created.id, host_id: otherId })).error.code).toBe(3003);
      expect(gw.sandbox.state.meetings.get(Number(created.id))!.live).not.toBeNull();
      expect((await gw.v1(path('end'), { id: '99999999999', host_id: ownerId })).error.code).toBe(3001);
      await gw.control('POST', `/meetings/${created.id}/end`, {});
    });
  });
});
