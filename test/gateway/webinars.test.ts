import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V2Error } from '../../src/upstream/errors.js';
import { openGate, type OutboundGate } from '../../src/upstream/client.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectV1Error, expectV1Shape, FUTURE, NO_LIMITS, V1_TIME, v1ExampleShape, gatewayWithTwoHosts } from '../support/v1-answers.js';

/**
 * What only webinars do. What meetings and webinars do alike (create, get, update, delete, end,
 * their shapes and errors) runs once over both kinds in sessions.test.ts.
 */
let gw: TestGateway;
let ownerId: string;
let otherId: string;
beforeAll(async () => {
  ({ gw, ownerId, otherId } = await gatewayWithTwoHosts('webinar-other@example.com'));
});
afterAll(() => gw.close());

const PAST = '2020-01-01T10:00:00Z';

/** The v1 webinar answer (v1 spec "Webinar output"), field by field, with its JSON types (the v1 reference examples'). */
const OUTPUT_TYPES = v1ExampleShape('/webinar/create');
const GET_TYPES = v1ExampleShape('/webinar/get');
/** The v1 reference's webinar list item (our /webinar/list/registration answers the same items). */
const ITEM_TYPES = v1ExampleShape('/webinar/list', 'webinars');

async function createWebinar(params: Record<string, string> = {}, g: TestGateway = gw, host = ownerId) {
  const answer = await g.v1('/webinar/create', { host_id: host, type: '5', topic: 'Launch', start_time: FUTURE, ...params });
  expect(answer.error, JSON.stringify(answer)).toBeUndefined();
  return answer;
}

const v2Webinar = async (id: string) => (await gw.v2('GET', `/webinars/${id}`)).body;
const snapshot = () => JSON.stringify([...gw.sandbox.state.meetings.values()]);

describe('/webinar/create', () => {
  // The service's own PHP sample, and the Ruby and Python bindings, create webinars with host_id and topic alone.
  it('creates a webinar (type 5, the documented default) when the call names no type', async () => {
    const answer = await gw.v1('/webinar/create', { host_id: ownerId, topic: 'No type' });
    expect(answer).toMatchObject({ type: 5, topic: 'No type' });
    expect(await v2Webinar(answer.id)).toMatchObject({ type: 5, topic: 'No type' });
    expectV1Error(await gw.v1('/webinar/create', { host_id: ownerId, topic: 'Bad', type: '2' }), 300, /^Invalid parameter: type\./);
  });

  it('answers an empty registration_url for a webinar without registration', async () => {
    const answer = await createWebinar();
    expectV1Shape(answer, OUTPUT_TYPES);
    expect(answer.registration_url).toBe('');
  });

  it('sets every webinar option through v1 and v2 holds it; dropped options are accepted', async () => {
    const answer = await createWebinar({
      approval_type: '1',
      registration_type: '1',
      option_audio: 'telephony',
      option_host_video: 'false',
      option_panelist_video: 'false',
      option_practice_session: 'true',
      option_enforce_login: 'true',
      option_enforce_login_domains: 'corp.com',
      option_alternative_host_ids: otherId,
      option_auto_record_type: 'none',
      option_close_registration: 'true',
      option_show_share_button: 'true',
      option_allow_multiple_devices: 'true',
      password: 'w3b',
      option_panelists_reminder: 'true',
      language: 'fr-FR',
      option_start_type: 'screen_share',
    });
    expect(answer.registration_url).toMatch(new RegExp(`/webinar/register/${answer.id}$`));
    expect(answer.option_alternative_hosts).toBe(otherId);
    const v2 = await v2Webinar(answer.id);
    expect(v2.settings).toMatchObject({
      approval_type: 1,
      registration_type: 1,
      audio: 'telephony',
      host_video: false,
      panelists_video: false,
      practice_session: true,
      enforce_login: true,
      enforce_login_domains: 'corp.com',
      alternative_hosts: otherId,
      auto_recording: 'none',
      close_registration: true,
      show_share_button: true,
      allow_multiple_devices: true,
    });
    expect(gw.sandbox.state.meetings.get(Number(answer.id))!.password).toBe('w3b');
  });

  it('adds the panelists after the create', async () => {
    const panelists = [
      { name: 'Ada', email: 'ada@example.com' },
      { name: 'Bob', email: 'bob@example.com' },
    ];
    const answer = await createWebinar({ panelists: JSON.stringify(panelists) });
    const listed = (await gw.v2('GET', `/webinars/${answer.id}/panelists`)).body;
    expect(listed.total_records).toBe(2);
    expect(listed.panelists.map((p: { name: string; email: string }) => ({ name: p.name, email: p.email }))).toEqual(panelists);
  });

  it.each([
    [{ panelists: '[{"name":"A"}' }, /^Invalid parameter: panelists\. Must be valid JSON/],
    [{ panelists: '[{"name":"A","email":"nope"}]' }, /^Invalid parameter: panelists\./],
    [{ panelists: '{"name":"A","email":"a@b.c"}' }, /^Invalid parameter: panelists\./],
    [{ language: 'de' }, /^Invalid parameter: language\./],
    [{ approval_type: '3' }, /^Invalid parameter: approval_type\./],
    [{ type: '2' }, /^Invalid parameter: type\./],
    [{ option_practice_session: 'maybe' }, /^Invalid parameter: option_practice_session\./],
  ])('refuses bad input %o with a 300 naming the field, changing nothing', async (params, message) => {
    const before = snapshot();
    const answer = await gw.v1('/webinar/create', { host_id: ownerId, type: '5', topic: 'T', start_time: FUTURE, ...params });
    expect(answer.error?.code, JSON.stringify(answer)).toBe(300);
    expect(answer.error.message).toMatch(message);
    expect(snapshot()).toBe(before);
  });

  it('deletes the new webinar when adding its panelists fails (no half-done work)', async () => {
    const failPanelists: OutboundGate = {
      ...openGate,
      schedule: (credentials, target, task, options) =>
        target.route.method === 'POST' && target.path.includes('/panelists')
          ? Promise.reject(new V2Error(500, 500, 'Panelist service down.'))
          : openGate.schedule(credentials, target, task, options),
    };
    const g = await startTestGateway(NO_LIMITS, { outbound: failPanelists });
    try {
      const owner = (await g.v2('GET', '/users/me')).body.id;
      const answer = await g.v1('/webinar/create', {
        host_id: owner,
        type: '5',
        topic: 'T',
        panelists: '[{"name":"A","email":"a@example.com"}]',
      });
      expect(answer.error).toEqual({ code: 503, message: 'Panelist service down.' });
      expect([...g.sandbox.state.meetings.values()].filter((m) => m.kind === 'webinar')).toEqual([]);
    } finally {
      await g.close();
    }
  });
});

describe('/webinar/get', () => {
  it('answers the registration page of a webinar that takes registrations', async () => {
    const created = await createWebinar({ approval_type: '0' });
    const answer = await gw.v1('/webinar/get', { id: created.id, host_id: ownerId });
    expectV1Shape(answer, GET_TYPES);
    expect(answer.registration_url).toMatch(new RegExp(`/webinar/register/${created.id}$`));
    expect(answer.registration_url).toBe(created.registration_url);
  });

  it('answers status 0 even while live: it never spends the report quota of GET /metrics/webinars on a status', async () => {
    const live = await createWebinar();
    expect((await gw.control('POST', `/meetings/${live.id}/start`, {})).status).toBe(201);
    const reply = await gw.v1Raw('/webinar/get', { id: live.id, host_id: ownerId });
    expectV1Shape(reply.body, GET_TYPES);
    expect(reply.body.status).toBe(0);
    // The webinar and its host: no metrics call (v2's report class is 1/s and 2000/day per account).
    expect(reply.headers.get('x-v2-calls')).toBe('2');
    await gw.v1('/webinar/end', { id: live.id, host_id: ownerId });
  });

  it('answers 3001 for a meeting number: a meeting is not a webinar', async () => {
    const meeting = (await gw.v2('POST', `/users/${ownerId}/meetings`, { body: { topic: 'M' } })).body;
    expect((await gw.v1('/webinar/get', { id: String(meeting.id), host_id: ownerId })).error.code).toBe(3001);
  });
});

describe('/webinar/update', () => {
  it('needs no type and answers {id, updated_at}', async () => {
    const created = await createWebinar({ option_practice_session: 'true' });
    const answer = await gw.v1('/webinar/update', { id: created.id, host_id: ownerId, agenda: 'New agenda', approval_type: '0' });
    expect(answer).toEqual({ id: String(created.id), updated_at: expect.stringMatching(V1_TIME) });
    const v2 = await v2Webinar(created.id);
    expect(v2.agenda).toBe('New agenda');
    expect(v2.settings).toMatchObject({ approval_type: 0, practice_session: true, host_video: true });
  });

  it('refuses panelists (v1 set them only at create), changing nothing', async () => {
    const created = await createWebinar();
    const before = snapshot();
    const panelists = await gw.v1('/webinar/update', { id: created.id, host_id: ownerId, panelists: '[{"name":"A","email":"a@b.co"}]' });
    expect(panelists.error).toMatchObject({ code: 300, message: expect.stringMatching(/^Invalid parameter: panelists\./) });
    expect(snapshot()).toBe(before);
  });
});

describe('/webinar/end', () => {
  it('leaves a past instance v2 reports on', async () => {
    const created = await createWebinar();
    await gw.control('POST', `/meetings/${created.id}/start`, {});
    expect((await gw.v1('/webinar/end', { id: created.id, host_id: ownerId })).error).toBeUndefined();
    const instances = (await gw.v2('GET', `/past_webinars/${created.id}/instances`)).body.webinars;
    expect(instances).toHaveLength(1);
  });
});

describe('/webinar/list and /webinar/list/registration', () => {
  it("split the host's webinars: registrationless ones, and upcoming ones with registration", async () => {
    const g = await startTestGateway(NO_LIMITS);
    try {
      const host = (
        await g.v2('POST', '/users', { body: { action: 'custCreate', user_info: { email: 'webinar-lister@example.com', type: 2 } } })
      ).body.id;
      const open1 = await createWebinar({ topic: 'Open 1' }, g, host);
      const open2 = await createWebinar({ topic: 'Open 2', type: '6' }, g, host);
      const open3 = await createWebinar({ topic: 'Open 3' }, g, host);
      const upcoming = await createWebinar({ topic: 'Reg upcoming', approval_type: '0' }, g, host);
      const series = await createWebinar(
        { topic: 'Reg series', approval_type: '1', type: '9', recurrence: '{"type":1,"end_times":2}' },
        g,
        host,
      );
      await createWebinar({ topic: 'Reg past', approval_type: '0', start_time: PAST }, g, host);

      // In progress, one of each list: still status 0 (webinars never read v2's report-class live list).
      for (const id of [open2.id, upcoming.id]) expect((await g.control('POST', `/meetings/${id}/start`, {})).status).toBe(201);

      const list = await g.v1('/webinar/list', { host_id: host, page_size: '2' });
      expect(Object.keys(list)).toEqual(['page_count', 'total_records', 'page_number', 'page_size', 'webinars']);
      expect(list).toMatchObject({ page_count: 2, total_records: 3, page_number: 1, page_size: 2 });
      expect(list.webinars.map((w: { id: string; status: number }) => [w.id, w.status])).toEqual([
        [open1.id, 0],
        [open2.id, 0],
      ]);
      for (const item of list.webinars) expectV1Shape(item, ITEM_TYPES);
      expect(
        (await g.v1('/webinar/list', { host_id: host, page_size: '2', page_number: '2' })).webinars.map((w: { id: string }) => w.id),
      ).toEqual([open3.id]);

      const registration = await g.v1('/webinar/list/registration', { host_id: host });
      expect(registration).toMatchObject({ page_count: 1, total_records: 2, page_number: 1, page_size: 30 });
      expect(registration.webinars.map((w: { id: string; status: number }) => [w.id, w.status])).toEqual([
        [upcoming.id, 0],
        [series.id, 0],
      ]);
      for (const item of registration.webinars) expectV1Shape(item, ITEM_TYPES);
    } finally {
      await g.close();
    }
  });

  it('answer 1001 for an unknown host and 300 for bad paging', async () => {
    expect((await gw.v1('/webinar/list', { host_id: 'no-such-user' })).error.code).toBe(1001);
    expect((await gw.v1('/webinar/list/registration', { host_id: 'no-such-user' })).error.code).toBe(1001);
    expect((await gw.v1('/webinar/list', { host_id: ownerId, page_size: 'many' })).error).toMatchObject({
      code: 300,
      message: expect.stringMatching(/page_size/),
    });
  });
});
