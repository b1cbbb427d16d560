import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestGateway } from '../support/gateway.js';
import { expectV1Error, expectV1Shape, V1_TIME, v1ExampleShape, gatewayWithTwoHosts } from '../support/v1-answers.js';
import { createWebinar, registerV2, snapshot, v2Registrants, type Session } from './registration-support.js';

let gw: TestGateway;
let ownerId: string;
let otherId: string;
beforeAll(async () => {
  ({ gw, ownerId, otherId } = await gatewayWithTwoHosts('registrants-other@example.com'));
});
afterAll(() => gw.close());

const PAGING_TYPES = { page_count: 'number', page_number: 'number', page_size: 'number', total_records: 'number' } as const;
const ATTENDEE_TYPES = v1ExampleShape('/webinar/registration', 'attendees');
const USER_TYPES = v1ExampleShape('/webinar/registrants/list', 'users');
/** The answer of /webinar/registrants/approve and /webinar/registration/cancel (the same in the reference). */
const ACTION_TYPES = v1ExampleShape('/webinar/registrants/approve');

/** A manual-approval webinar with `n` pending registrations (a0@…, a1@…); their ids in order. */
async function webinarWithPending(n: number, opts: { host?: string } = {}): Promise<{ webinar: Session; ids: string[] }> {
  const webinar = await createWebinar(gw, { approval: 1, ...opts });
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push(await registerV2(gw, webinar.id, { email: `a${i}@example.com`, first_name: `First${i}`, last_name: `Last${i}` }));
  return { webinar, ids };
}

const setStatus = (webinar: Session, action: string, ids: string[]) =>
  gw.v2('PUT', `/webinars/${webinar.id}/registrants/status`, { body: { action, registrants: ids.map((id) => ({ id })) } });

const ref = (webinar: Session, host = ownerId) => ({ id: String(webinar.id), host_id: host });

/** The host-check errors every one of these endpoints answers, and that nothing changed. */
function hostErrors(path: string, extra: (webinar: Session, ids: string[]) => Record<string, string>) {
  it("answers 3001 for an unknown webinar, 1001 for an unknown host, 3003 for another host's webinar, and changes nothing", async () => {
    const { webinar, ids } = await webinarWithPending(2, { host: otherId });
    const before = snapshot(gw);
    expectV1Error(await gw.v1(path, { id: '999999999', host_id: ownerId, ...extra(webinar, ids) }), 3001);
    expectV1Error(await gw.v1(path, { ...ref(webinar, 'nobody-here'), ...extra(webinar, ids) }), 1001);
    expectV1Error(await gw.v1(path, { ...ref(webinar, ownerId), ...extra(webinar, ids) }), 3003);
    expect(snapshot(gw)).toBe(before);
    // The real host (by id or by email) is served.
    expect((await gw.v1(path, { ...ref(webinar, 'registrants-other@example.com'), ...extra(webinar, ids) })).error).toBeUndefined();
    expect((await gw.v1(path, { ...ref(webinar, otherId), ...extra(webinar, [ids[1]!]) })).error).toBeUndefined();
  });

  it('answers 300 "Registration has not been enabled" for a webinar without registration', async () => {
    const webinar = await createWebinar(gw, { approval: 2 });
    const before = snapshot(gw);
    expectV1Error(await gw.v1(path, { ...ref(webinar), ...extra(webinar, ['x']) }), 300, /Registration has not been enabled/);
    expect(snapshot(gw)).toBe(before);
  });

  it('answers 300 naming id and host_id when they are missing', async () => {
    expect(await gw.v1(path, { host_id: ownerId })).toEqual({ error: { code: 300, message: 'id is required.' } });
    expect(await gw.v1(path, { id: '1' })).toEqual({ error: { code: 300, message: 'host_id is required.' } });
  });
}

describe('/webinar/registration', () => {
  it('lists every registration with its approval state, oldest first, each field typed as v1 did', async () => {
    const { webinar, ids } = await webinarWithPending(4);
    await setStatus(webinar, 'approve', [ids[0]!, ids[2]!]);
    await setStatus(webinar, 'deny', [ids[3]!]);
    const answer = await gw.v1('/webinar/registration', ref(webinar));
    expectV1Shape(answer, { ...PAGING_TYPES, attendees: 'array' });
    expect(answer).toMatchObject({ page_count: 1, page_number: 1, page_size: 30, total_records: 4 });
    for (const attendee of answer.attendees) expectV1Shape(attendee, ATTENDEE_TYPES);
    // Registrations made within one second have no order v2 can tell: compare as sets, and check the times ascend.
    expect(answer.attendees.map((a: any) => [a.id, a.approval]).sort()).toEqual(
      [
        [ids[0], 'approved'],
        [ids[1], 'pending'],
        [ids[2], 'approved'],
        [ids[3], 'denied'],
      ].sort(),
    );
    const times = answer.attendees.map((a: any) => a.create_time);
    expect(times).toEqual([...times].sort());
    const v2 = (await v2Registrants(gw, webinar.id, 'approved')).find((r) => r.id === ids[0])!;
    expect(answer.attendees.find((a: any) => a.id === ids[0])).toEqual({
      id: v2.id,
      first_name: 'First0',
      last_name: 'Last0',
      create_time: v2.create_time,
      approval: 'approved',
      email: 'a0@example.com',
      registration_url: v2.join_url,
    });
    for (const attendee of answer.attendees) expect(attendee.create_time).toMatch(V1_TIME);
  });

  it('pages the v1 way: page_size and page_number over the whole list', async () => {
    const { webinar, ids } = await webinarWithPending(5);
    await setStatus(webinar, 'approve', [ids[1]!, ids[4]!]);
    const all = (await gw.v1('/webinar/registration', ref(webinar))).attendees.map((a: any) => a.id);
    expect([...all].sort()).toEqual([...ids].sort());
    const answer = await gw.v1('/webinar/registration', { ...ref(webinar), page_size: '2', page_number: '2' });
    expect(answer).toMatchObject({ page_count: 3, page_number: 2, page_size: 2, total_records: 5 });
    expect(answer.attendees.map((a: any) => a.id)).toEqual(all.slice(2, 4));
    const last = await gw.v1('/webinar/registration', { ...ref(webinar), page_size: '2', page_number: '3' });
    expect(last.attendees.map((a: any) => a.id)).toEqual(all.slice(4));
    expectV1Error(await gw.v1('/webinar/registration', { ...ref(webinar), page_size: '301' }), 300, /\bpage_size\b/);
  });

  it('lists cancelled registrations no more', async () => {
    const { webinar, ids } = await webinarWithPending(2);
    await setStatus(webinar, 'cancel', [ids[0]!]);
    const answer = await gw.v1('/webinar/registration', ref(webinar));
    expect(answer.attendees.map((a: any) => a.id)).toEqual([ids[1]]);
  });

  hostErrors('/webinar/registration', () => ({}));
});

describe('/webinar/registrants/list', () => {
  it('type 0 (the default) lists pending registrants, type 1 approved ones, with v1 paging fields and type', async () => {
    const { webinar, ids } = await webinarWithPending(3);
    await setStatus(webinar, 'approve', [ids[1]!]);
    const pending = await gw.v1('/webinar/registrants/list', ref(webinar));
    expectV1Shape(pending, { ...PAGING_TYPES, type: 'number', users: 'array' });
    expect(pending).toMatchObject({ page_count: 1, page_number: 1, page_size: 30, total_records: 2, type: 0 });
    for (const user of pending.users) expectV1Shape(user, USER_TYPES);
    expect(pending.users.map((u: any) => u.id)).toEqual([ids[0], ids[2]]);
    expect(await gw.v1('/webinar/registrants/list', { ...ref(webinar), type: '0' })).toEqual(pending);

    const approved = await gw.v1('/webinar/registrants/list', { ...ref(webinar), type: '1' });
    expect(approved).toMatchObject({ total_records: 1, type: 1 });
    const v2 = (await v2Registrants(gw, webinar.id, 'approved'))[0]!;
    expect(approved.users).toEqual([
      { id: ids[1], first_name: 'First1', last_name: 'Last1', email: 'a1@example.com', registration_time: v2.create_time },
    ]);
  });

  it('pages through v2 pages', async () => {
    const { webinar, ids } = await webinarWithPending(3);
    const answer = await gw.v1('/webinar/registrants/list', { ...ref(webinar), page_size: '2', page_number: '2' });
    expect(answer).toMatchObject({ page_count: 2, page_number: 2, page_size: 2, total_records: 3, type: 0 });
    expect(answer.users.map((u: any) => u.id)).toEqual([ids[2]]);
  });

  it('answers 300 naming type for a type other than 0 or 1', async () => {
    const { webinar } = await webinarWithPending(1);
    for (const type of ['2', 'approved', '-1'])
      expectV1Error(await gw.v1('/webinar/registrants/list', { ...ref(webinar), type }), 300, /\btype\b/);
  });

  hostErrors('/webinar/registrants/list', () => ({}));
});

describe('/webinar/registration/cancel', () => {
  it('cancels the named registrations and answers id and updated_at', async () => {
    const { webinar, ids } = await webinarWithPending(3);
    await setStatus(webinar, 'approve', [ids[0]!]);
    const answer = await gw.v1('/webinar/registration/cancel', { ...ref(webinar), registrant_ids: `${ids[0]},${ids[1]}` });
    expectV1Shape(answer, ACTION_TYPES);
    expect(answer.id).toBe(String(webinar.id));
    expect(answer.updated_at).toMatch(V1_TIME);
    expect((await v2Registrants(gw, webinar.id, 'approved')).map((r) => r.id)).toEqual([]);
    expect((await v2Registrants(gw, webinar.id, 'pending')).map((r) => r.id)).toEqual([ids[2]]);
  });

  it("accepts the registrants_ids spelling of v1's own request example, and ids sent as registrant_ids[]", async () => {
    const { webinar, ids } = await webinarWithPending(3);
    expectV1Shape(await gw.v1('/webinar/registration/cancel', { ...ref(webinar), registrants_ids: ids[0] }), ACTION_TYPES);
    expectV1Shape(await gw.v1('/webinar/registration/cancel', { ...ref(webinar), registrant_ids: [ids[1]!] }), ACTION_TYPES);
    expect((await v2Registrants(gw, webinar.id, 'pending')).map((r) => r.id)).toEqual([ids[2]]);
  });

  it('answers 300 naming registrant_ids for more than 15 ids, for an unknown id, or for none, and cancels nothing', async () => {
    const { webinar, ids } = await webinarWithPending(16);
    const before = snapshot(gw);
    const cancel = (registrant_ids?: string) => gw.v1('/webinar/registration/cancel', { ...ref(webinar), registrant_ids });
    expectV1Error(await cancel(ids.join(',')), 300, /\bregistrant_ids\b/);
    expectV1Error(await cancel(`${ids[0]},no-such-registrant`), 300, /\bregistrant_ids\b/);
    expect((await cancel(`${ids[0]},no-such-registrant`)).error.message).toMatch(/no-such-registrant/);
    expect(await cancel()).toEqual({ error: { code: 300, message: 'registrant_ids is required.' } });
    expect(snapshot(gw)).toBe(before);
    // 15 is allowed.
    expectV1Shape(await cancel(ids.slice(0, 15).join(',')), ACTION_TYPES);
    expect((await v2Registrants(gw, webinar.id, 'pending')).map((r) => r.id)).toEqual([ids[15]]);
  });

  it('cancels a registration for one occurrence_id', async () => {
    const webinar = await createWebinar(gw, {
      body: { type: 9, recurrence: { type: 1, repeat_interval: 1, end_times: 2 }, settings: { approval_type: 0, registration_type: 1 } },
    });
    const occurrence = String((await gw.v2('GET', `/webinars/${webinar.id}`)).body.occurrences[0].occurrence_id);
    const id = await registerV2(gw, webinar.id, { email: 'occ@example.com' });
    expectV1Shape(
      await gw.v1('/webinar/registration/cancel', { ...ref(webinar), registrant_ids: id, occurrence_id: occurrence }),
      ACTION_TYPES,
    );
    expect(await v2Registrants(gw, webinar.id, 'approved')).toEqual([]);
    expectV1Error(
      await gw.v1('/webinar/registration/cancel', { ...ref(webinar), registrant_ids: id, occurrence_id: '1' }),
      300,
      /\boccurrence_id\b/,
    );
  });

  hostErrors('/webinar/registration/cancel', (_webinar, ids) => ({ registrant_ids: ids[0]! }));
});

describe('/webinar/registrants/approve', () => {
  it('approves the named pending registrants and answers id and updated_at', async () => {
    const { webinar, ids } = await webinarWithPending(3);
    const answer = await gw.v1('/webinar/registrants/approve', { ...ref(webinar), registrant_ids: `${ids[0]}, ${ids[2]}` });
    expectV1Shape(answer, ACTION_TYPES);
    expect(answer).toEqual({ id: String(webinar.id), updated_at: expect.stringMatching(V1_TIME) });
    expect((await v2Registrants(gw, webinar.id, 'approved')).map((r) => r.id)).toEqual([ids[0], ids[2]]);
    expect((await v2Registrants(gw, webinar.id, 'pending')).map((r) => r.id)).toEqual([ids[1]]);
  });

  it("approves more than v2's 30 per call, sent on in batches", async () => {
    const { webinar, ids } = await webinarWithPending(35);
    expectV1Shape(await gw.v1('/webinar/registrants/approve', { ...ref(webinar), registrants_ids: ids.join(',') }), ACTION_TYPES);
    expect((await v2Registrants(gw, webinar.id, 'approved')).map((r) => r.id)).toEqual(ids);
    expect(await v2Registrants(gw, webinar.id, 'pending')).toEqual([]);
  });

  it('answers 300 naming registrant_ids (and the unknown ids) for an unknown id, and approves nobody, in one batch or several', async () => {
    const { webinar, ids } = await webinarWithPending(35);
    const before = snapshot(gw);
    for (const list of [
      [ids[0]!, 'ghost-1'],
      [...ids, 'ghost-1', 'ghost-2'],
    ]) {
      const answer = await gw.v1('/webinar/registrants/approve', { ...ref(webinar), registrant_ids: list.join(',') });
      expectV1Error(answer, 300, /\bregistrant_ids\b/);
      expect(answer.error.message).toMatch(/ghost-1/);
    }
    expect(snapshot(gw)).toBe(before);
    expect(
      (await gw.v1('/webinar/registrants/approve', { ...ref(webinar), registrant_ids: [...ids, 'ghost-1', 'ghost-2'].join(',') })).error
        .message,
    ).toMatch(/ghost-1, ghost-2/);
  });

  hostErrors('/webinar/registrants/approve', (_webinar, ids) => ({ registrant_ids: ids[0]! }));
});

describe('/webinar/panelists', () => {
  it("answers total_records and each panelist's name, email and join_url", async () => {
    const webinar = await createWebinar(gw, { approval: 2 });
    const added = await gw.v2('POST', `/webinars/${webinar.id}/panelists`, {
      body: {
        panelists: [
          { name: 'Pat Panel', email: 'pat@example.com' },
          { name: 'Sam Speaker', email: 'sam@example.com' },
        ],
      },
    });
    expect(added.status).toBe(201);
    const answer = await gw.v1('/webinar/panelists', ref(webinar));
    expectV1Shape(answer, { total_records: 'number', panelists: 'array' });
    for (const panelist of answer.panelists) expectV1Shape(panelist, { name: 'string', email: 'string', join_url: 'string' });
    const v2 = (await gw.v2('GET', `/webinars/${webinar.id}/panelists`)).body.panelists;
    expect(answer).toEqual({ total_records: 2, panelists: v2.map((p: any) => ({ name: p.name, email: p.email, join_url: p.join_url })) });
  });

  it('answers an empty list for a webinar without panelists', async () => {
    const webinar = await createWebinar(gw);
    expect(await gw.v1('/webinar/panelists', ref(webinar))).toEqual({ total_records: 0, panelists: [] });
  });

  it("answers 3001 for an unknown webinar or a meeting, 1001 for an unknown host, 3003 for another host's webinar", async () => {
    const webinar = await createWebinar(gw, { host: otherId });
    const meeting = (await gw.v2('POST', '/users/me/meetings', { body: { topic: 'M', type: 2 } })).body;
    expectV1Error(await gw.v1('/webinar/panelists', { id: '999999999', host_id: ownerId }), 3001);
    expectV1Error(await gw.v1('/webinar/panelists', { id: String(meeting.id), host_id: ownerId }), 3001);
    expectV1Error(await gw.v1('/webinar/panelists', ref(webinar, 'nobody-here')), 1001);
    expectV1Error(await gw.v1('/webinar/panelists', ref(webinar, ownerId)), 3003);
    expect(await gw.v1('/webinar/panelists', ref(webinar, otherId))).toEqual({ total_records: 0, panelists: [] });
  });
});
