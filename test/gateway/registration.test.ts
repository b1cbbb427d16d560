import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectV1Error, expectV1Shape, FUTURE, NO_LIMITS, v1ExampleShape, v2User } from '../support/v1-answers.js';
import { createMeeting, createWebinar, snapshot } from './registration-support.js';

let gw: TestGateway;
let ownerId: string;
beforeAll(async () => {
  gw = await startTestGateway(NO_LIMITS);
  ownerId = (await gw.v2('GET', '/users/me')).body.id;
});
afterAll(() => gw.close());

/** The v1 register answer (v1 swagger example): every field a string. */
const REGISTER_TYPES = v1ExampleShape('/webinar/register');

/** Every v1 registration field, with v1 values. */
const FULL_FORM = {
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  address: '1 Analytical Way',
  city: 'London',
  country: 'GB',
  zip: 'N1 9GU',
  state: 'Greater London',
  phone: '+44 20 0000 0000',
  industry: 'Computing',
  org: 'Engines Ltd',
  job_title: 'Programmer',
  purchasing_time_frame: '1-3 months',
  role_in_purchase_process: 'Decision Maker',
  no_of_employees: '251-500',
  comments: 'Looking forward',
  custom_questions: '[{"title":"Favourite number","value":"42"},{"title":"Newsletter","value":"yes"}]',
  language: 'fr-FR',
};

/** The v2 registrant the full form becomes (no_of_employees in v2's bracket; no language in v2). */
const FULL_V2 = {
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  address: '1 Analytical Way',
  city: 'London',
  country: 'GB',
  zip: 'N1 9GU',
  state: 'Greater London',
  phone: '+44 20 0000 0000',
  industry: 'Computing',
  org: 'Engines Ltd',
  job_title: 'Programmer',
  purchasing_time_frame: '1-3 months',
  role_in_purchase_process: 'Decision Maker',
  no_of_employees: '101-500',
  comments: 'Looking forward',
  custom_questions: [
    { title: 'Favourite number', value: '42' },
    { title: 'Newsletter', value: 'yes' },
  ],
};

for (const kind of ['meeting', 'webinar'] as const) {
  const create = (approval: 0 | 1 | 2 = 0) => (kind === 'meeting' ? createMeeting(gw, approval) : createWebinar(gw, { approval }));
  const listV2 = async (id: number, status = 'approved') =>
    (await gw.v2('GET', `/${kind}s/${id}/registrants`, { query: { status } })).body.registrants as Record<string, any>[];

  describe(`/${kind}/register`, () => {
    it('answers registrant_id, topic, start_time and join_url as strings and id as a number, and v2 holds every field of the form', async () => {
      const session = await create();
      const answer = await gw.v1(`/${kind}/register`, { id: String(session.id), ...FULL_FORM });
      expectV1Shape(answer, REGISTER_TYPES);
      const [registrant] = await listV2(session.id);
      expect(answer).toEqual({
        registrant_id: registrant!.id,
        id: session.id,
        topic: session.topic,
        start_time: FUTURE,
        join_url: registrant!.join_url,
      });
      expect(registrant).toMatchObject(FULL_V2);
      expect(registrant).not.toHaveProperty('language');
    });

    it('registers with only the required fields', async () => {
      const session = await create();
      const answer = await gw.v1(`/${kind}/register`, {
        id: String(session.id),
        email: 'min@example.com',
        first_name: 'Min',
        last_name: 'Imal',
      });
      expectV1Shape(answer, REGISTER_TYPES);
      expect(await listV2(session.id)).toMatchObject([
        { email: 'min@example.com', first_name: 'Min', last_name: 'Imal', custom_questions: [] },
      ]);
    });

    it('a manual-approval session registers as pending', async () => {
      const session = await create(1);
      const answer = await gw.v1(`/${kind}/register`, {
        id: String(session.id),
        email: 'wait@example.com',
        first_name: 'W',
        last_name: 'Ait',
      });
      expectV1Shape(answer, REGISTER_TYPES);
      expect((await listV2(session.id, 'pending')).map((r) => r.id)).toEqual([answer.registrant_id]);
    });

    it('answers 300 naming each missing required field, and registers nobody', async () => {
      const session = await create();
      const before = snapshot(gw);
      for (const field of ['email', 'first_name', 'last_name']) {
        const form: Record<string, string> = { id: String(session.id), email: 'a@example.com', first_name: 'A', last_name: 'B' };
        delete form[field];
        expect(await gw.v1(`/${kind}/register`, form)).toEqual({ error: { code: 300, message: `${field} is required.` } });
      }
      expect(await gw.v1(`/${kind}/register`, { email: 'a@example.com', first_name: 'A', last_name: 'B' })).toEqual({
        error: { code: 300, message: 'id is required.' },
      });
      expect(snapshot(gw)).toBe(before);
    });

    it('answers 300 naming custom_questions when it is not JSON, or not an array of title/value, and registers nobody', async () => {
      const session = await create();
      const before = snapshot(gw);
      for (const custom_questions of ['{"title":', '{"title":"a","value":"b"}', '[{"value":"b"}]', '["x"]']) {
        const answer = await gw.v1(`/${kind}/register`, {
          id: String(session.id),
          email: 'a@example.com',
          first_name: 'A',
          last_name: 'B',
          custom_questions,
        });
        expectV1Error(answer, 300, /\bcustom_questions\b/);
      }
      expect(snapshot(gw)).toBe(before);
      expect(await listV2(session.id)).toEqual([]);
    });

    it('answers 300 naming the enumerated field given a value outside v1 enumeration (v2 spellings too)', async () => {
      const session = await create();
      const before = snapshot(gw);
      const bad = {
        purchasing_time_frame: 'Next year',
        role_in_purchase_process: 'Boss',
        no_of_employees: '101-500',
        language: 'de-DE',
        email: 'not-an-email',
      };
      for (const [field, value] of Object.entries(bad)) {
        const answer = await gw.v1(`/${kind}/register`, {
          id: String(session.id),
          email: 'a@example.com',
          first_name: 'A',
          last_name: 'B',
          [field]: value,
        });
        expectV1Error(answer, 300, new RegExp(`\\b${field}\\b`));
      }
      expect(snapshot(gw)).toBe(before);
    });

    it('answers 3001 for an unknown number, and for the other kind of session', async () => {
      const other = kind === 'meeting' ? await createWebinar(gw) : await createMeeting(gw);
      for (const id of ['999999999', String(other.id)]) {
        expectV1Error(await gw.v1(`/${kind}/register`, { id, email: 'a@example.com', first_name: 'A', last_name: 'B' }), 3001);
      }
    });

    it('answers 300 "Registration has not been enabled" for a session without registration, and registers nobody', async () => {
      const session = await create(2);
      const before = snapshot(gw);
      const answer = await gw.v1(`/${kind}/register`, { id: String(session.id), email: 'a@example.com', first_name: 'A', last_name: 'B' });
      expectV1Error(answer, 300, /Registration has not been enabled/);
      expect(snapshot(gw)).toBe(before);
    });
  });
}

describe('/webinar/register occurrences', () => {
  it('registers for the occurrences named in occurrence_ids (comma-separated)', async () => {
    const webinar = await createWebinar(gw, {
      body: { type: 9, recurrence: { type: 1, repeat_interval: 1, end_times: 3 }, settings: { approval_type: 0, registration_type: 3 } },
    });
    const occurrences = (await gw.v2('GET', `/webinars/${webinar.id}`)).body.occurrences.map((o: any) => String(o.occurrence_id));
    expect(occurrences).toHaveLength(3);
    const answer = await gw.v1('/webinar/register', {
      id: String(webinar.id),
      email: 'occ@example.com',
      first_name: 'O',
      last_name: 'C',
      occurrence_ids: `${occurrences[0]},${occurrences[2]}`,
    });
    expectV1Shape(answer, REGISTER_TYPES);
    const listed = async (occurrence_id: string) =>
      (await gw.v2('GET', `/webinars/${webinar.id}/registrants`, { query: { occurrence_id } })).body.registrants.map((r: any) => r.email);
    expect(await listed(occurrences[0])).toEqual(['occ@example.com']);
    expect(await listed(occurrences[1])).toEqual([]);
    expect(await listed(occurrences[2])).toEqual(['occ@example.com']);
  });

  it('answers start_time "" for a recurring webinar with no fixed time', async () => {
    const webinar = await createWebinar(gw, { body: { type: 6, start_time: undefined } });
    const answer = await gw.v1('/webinar/register', {
      id: String(webinar.id),
      email: 'nofix@example.com',
      first_name: 'N',
      last_name: 'F',
    });
    expectV1Shape(answer, REGISTER_TYPES);
    expect(answer.start_time).toBe('');
  });

  it('answers 300 naming occurrence_ids for an occurrence the webinar does not have', async () => {
    const webinar = await createWebinar(gw, {
      body: { type: 9, recurrence: { type: 1, repeat_interval: 1, end_times: 2 }, settings: { approval_type: 0, registration_type: 3 } },
    });
    const before = snapshot(gw);
    const answer = await gw.v1('/webinar/register', {
      id: String(webinar.id),
      email: 'x@example.com',
      first_name: 'X',
      last_name: 'Y',
      occurrence_ids: '123',
    });
    expectV1Error(answer, 300, /\boccurrence_ids\b/);
    expect(snapshot(gw)).toBe(before);
  });

  it('is served for the webinar host too: no host_id needed', async () => {
    const otherId = (await v2User(gw, { email: 'register-host@example.com' })).id;
    const webinar = await createWebinar(gw, { host: otherId });
    const answer = await gw.v1('/webinar/register', { id: String(webinar.id), email: 'h@example.com', first_name: 'H', last_name: 'I' });
    expectV1Shape(answer, REGISTER_TYPES);
    expect(ownerId).not.toBe(otherId);
  });
});
