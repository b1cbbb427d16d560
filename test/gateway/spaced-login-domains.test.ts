import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { FUTURE } from '../support/v1-answers.js';

/**
 * The real service answered `"option_enforce_login_domains "` (trailing space) in exactly six
 * answers; clients coded against them read that key. v1gate answers it there, beside the unspaced
 * key and with its value, and nowhere else.
 */
const SPACED = 'option_enforce_login_domains ';
let gw: TestGateway;
let hostId: string;

beforeAll(async () => {
  gw = await startTestGateway();
  hostId = (await gw.v1('/user/getbyemail', { email: 'owner@sandbox.v1gate.local' })).id;
});
afterAll(() => gw.close());

const expectTwin = (item: Record<string, unknown>, value: string) => {
  const keys = Object.keys(item);
  expect(keys.indexOf(SPACED)).toBe(keys.indexOf('option_enforce_login_domains') + 1);
  expect(item[SPACED]).toBe(value);
  expect(item.option_enforce_login_domains).toBe(value);
};

describe('"option_enforce_login_domains " (with its trailing space)', () => {
  it("is in meeting create, list and live, with the unspaced key's value, and not in meeting get", async () => {
    const created = await gw.v1('/meeting/create', {
      host_id: hostId,
      type: 2,
      topic: 'Spaced',
      start_time: FUTURE,
      duration: 30,
      option_enforce_login: 'true',
      option_enforce_login_domains: 'example.com',
    });
    expectTwin(created, 'example.com');
    const listed = await gw.v1('/meeting/list', { host_id: hostId, page_size: 300 });
    expectTwin(
      listed.meetings.find((m: { id: string }) => m.id === created.id),
      'example.com',
    );
    expect(await gw.control('POST', `/meetings/${created.id}/start`)).toMatchObject({ status: 201 });
    const live = await gw.v1('/meeting/live', {});
    expectTwin(
      live.meetings.find((m: { id: string }) => m.id === created.id),
      'example.com',
    );
    const got = await gw.v1('/meeting/get', { id: created.id, host_id: hostId });
    expect(got.option_enforce_login_domains).toBe('example.com');
    expect(got).not.toHaveProperty([SPACED]);
  });

  it('is in webinar create, get and list', async () => {
    const created = await gw.v1('/webinar/create', { host_id: hostId, topic: 'Spaced webinar', type: 5, start_time: FUTURE, duration: 60 });
    expectTwin(created, '');
    expectTwin(await gw.v1('/webinar/get', { id: created.id, host_id: hostId }), '');
    const listed = await gw.v1('/webinar/list', { host_id: hostId, page_size: 300 });
    expectTwin(
      listed.webinars.find((w: { id: string }) => w.id === created.id),
      '',
    );
  });

  it('is left out of XML, where an element name cannot end in a space', async () => {
    const created = await gw.v1Raw('/webinar/create', {
      host_id: hostId,
      topic: 'Spaced xml',
      type: 5,
      start_time: FUTURE,
      duration: 60,
      data_type: 'XML',
    });
    expect(created.text.match(/<option_enforce_login_domains>/g)).toHaveLength(1);
    expect(created.text).not.toMatch(/option_enforce_login_domains_/);
  });
});
