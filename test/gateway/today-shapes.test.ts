import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { FUTURE, NO_LIMITS, expectV1Shape, v1ExampleShape } from '../support/v1-answers.js';

/**
 * v1 calls over today's v2 shapes (docs/live-evidence.md, "Today's shapes"): the login rule sent
 * as today's authentication settings and read back from them, the passcode a meeting is given
 * without one, and the user types that replaced corp.
 */
let gw: TestGateway;
let ownerId: string;
beforeAll(async () => {
  gw = await startTestGateway(NO_LIMITS);
  ownerId = (await gw.v2('GET', '/users/me')).body.id;
});
afterAll(() => gw.close());

const v2Meeting = async (id: string) => (await gw.v2('GET', `/meetings/${id}`)).body;

describe('option_enforce_login as meeting_authentication', () => {
  it('creates through v1 a meeting that reads back through v2 with meeting_authentication, and through v1 as enforced', async () => {
    const created = await gw.v1('/meeting/create', {
      host_id: ownerId,
      type: '2',
      topic: 'Signed in only',
      start_time: FUTURE,
      option_enforce_login: 'true',
      option_enforce_login_domains: 'example.com',
    });
    expect(created.error, JSON.stringify(created)).toBeUndefined();
    const v2 = await v2Meeting(created.id);
    expect(v2.settings).toMatchObject({ meeting_authentication: true, authentication_domains: 'example.com' });
    expect(created).toMatchObject({ option_enforce_login: true, option_enforce_login_domains: 'example.com' });
    expect(await gw.v1('/meeting/get', { id: created.id, host_id: ownerId })).toMatchObject({
      option_enforce_login: true,
      option_enforce_login_domains: 'example.com',
    });
  });

  it('turns it off through v1 meeting/update', async () => {
    const created = await gw.v1('/meeting/create', {
      host_id: ownerId,
      type: '2',
      topic: 'x',
      start_time: FUTURE,
      option_enforce_login: 'true',
    });
    expect((await v2Meeting(created.id)).settings.meeting_authentication).toBe(true);
    await gw.v1('/meeting/update', { id: created.id, host_id: ownerId, option_enforce_login: 'false' });
    expect((await v2Meeting(created.id)).settings.meeting_authentication).toBe(false);
    expect((await gw.v1('/meeting/get', { id: created.id, host_id: ownerId })).option_enforce_login).toBe(false);
  });
});

describe('a meeting created without a password', () => {
  it('has a generated passcode and its pwd in the join link, and v1 answers them in its own fields', async () => {
    const created = await gw.v1('/meeting/create', { host_id: ownerId, type: '2', topic: 'No password given', start_time: FUTURE });
    expectV1Shape(created, { ...v1ExampleShape('/meeting/create'), real_id: 'string' });
    const v2 = await v2Meeting(created.id);
    expect(v2.password).toMatch(/^[A-Za-z0-9]{6}$/);
    expect(v2.join_url).toBe(`https://sandbox.v1gate.local/j/${v2.id}?pwd=${v2.encrypted_password}`);
    // v1 answered the passcode as `password` (numeric H.323 one beside it) and the link participants join by.
    expect(created).toMatchObject({ password: v2.password, h323_password: v2.h323_password, join_url: v2.join_url });
    expect(created.h323_password).toMatch(/^\d{6}$/);
    expect(created).not.toHaveProperty('encrypted_password');
    expect(await gw.v1('/meeting/get', { id: created.id, host_id: ownerId })).toMatchObject({
      password: v2.password,
      join_url: v2.join_url,
    });
  });
});

describe("today's user types", () => {
  it('creates a v1 corp user (3) as a licensed one (2), and reads types 4 and 99 as basic (1)', async () => {
    const corp = await gw.v1('/user/custcreate', { email: `corp.${Date.now()}@example.com`, type: '3' });
    expect(corp.error, JSON.stringify(corp)).toBeUndefined();
    expect((await gw.v2('GET', `/users/${corp.id}`)).body.type).toBe(2);
    expect((await gw.v1('/user/get', { id: corp.id })).type).toBe(2);
    for (const type of [4, 99]) {
      const made = await gw.v2('POST', '/users', {
        body: { action: 'custCreate', user_info: { email: `t${type}.${Date.now()}@example.com`, type } },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect((await gw.v1('/user/get', { id: made.body.id })).type).toBe(1);
    }
  });
});
