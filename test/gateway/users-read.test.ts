import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../src/gateway.js';
import { startFaultUpstream, startGatewayOver, type FaultUpstream } from '../support/fault-upstream.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { postV1 } from '../support/v1-form.js';
import { USER_ANSWERS } from '../../mappings/user-answers.js';
import { TOKEN_NO_LONGER_SUPPORTED } from '../../src/sandbox/users/tokens.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectV1Error, uniqueEmail, v2User } from '../support/v1-answers.js';
import { expectUserShape, v2Get } from './users-support.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

describe('/user/get', () => {
  it("answers the full user with get's additions, read from the v2 user, settings and tokens", async () => {
    const created = await v2User(gw, { first_name: 'Zoomie', last_name: 'Userton' });
    await gw.v2('PATCH', `/users/${created.id}`, { body: { timezone: 'America/Los_Angeles', dept: 'Engineer' } });
    const answer = await gw.v1('/user/get', { id: created.id });
    expectUserShape(answer, USER_ANSWERS.get.fields);
    const v2 = await v2Get(gw, `/users/${created.id}`);
    expect(answer).toMatchObject({
      id: created.id,
      email: created.email,
      account_id: v2.account_id,
      first_name: 'Zoomie',
      last_name: 'Userton',
      type: 2,
      pmi: Number(v2.pmi),
      timezone: 'America/Los_Angeles',
      dept: 'Engineer',
      status: 0,
      verified: 1,
      created_at: v2.created_at,
      vanity_url: '',
      lastClientVersion: '',
      lastLoginTime: '',
    });
    expect(answer.zak).toBe((await v2Get(gw, `/users/${created.id}/token`, { type: 'zak' })).token);
    // Today's v2 answers type=token with a text in the token's place; v1gate asks for no Zoom token and shows none.
    expect((await v2Get(gw, `/users/${created.id}/token`, { type: 'token' })).token).toBe(TOKEN_NO_LONGER_SUPPORTED);
    expect(answer.token).toBe('');
    expect(answer.zpk).toBe('');
  });

  it('shows settings changed through v2 under their v1 names (negated, composites, capacities)', async () => {
    const { id } = await v2User(gw);
    await gw.v2('PATCH', `/users/${id}/settings`, {
      body: {
        in_meeting: { chat: false, private_chat: false, attendee_on_hold: true, entry_exit_chime: 'host', waiting_room: true },
        recording: { local_recording: false, cloud_recording: true, auto_recording: 'local', record_speaker_view: true },
        email_notification: { jbh_reminder: false },
        schedule_meeting: { pstn_password_protected: true },
        feature: { large_meeting: true, large_meeting_capacity: 500, meeting_capacity: 200 },
      },
    });
    const answer = await gw.v1('/user/get', { id });
    expect(answer).toMatchObject({
      disable_chat: true,
      disable_private_chat: true,
      enable_silent_mode: true,
      enable_enter_exit_chime: true,
      enable_waiting_room: true,
      disable_recording: true,
      enable_cmr: true,
      enable_auto_recording: true,
      enable_cloud_auto_recording: false,
      enable_record_speaker_view: true,
      disable_jbh_reminder: true,
      enable_phone_participants_password: true,
      enable_large: true,
      large_capacity: 500,
      meeting_capacity: 200,
    });
  });

  it('shows status 1 for a deactivated user and 2 for a pending one', async () => {
    const { id } = await v2User(gw);
    await gw.v2('PUT', `/users/${id}/status`, { body: { action: 'deactivate' } });
    expect((await gw.v1('/user/get', { id })).status).toBe(1);
    const pending = await v2User(gw, {}, 'create');
    expect(await gw.v1('/user/get', { id: pending.id })).toMatchObject({ status: 2, verified: 0 });
  });

  it('answers 1001 for an unknown user, 300 for a missing id, 102 for a wrong secret', async () => {
    expectV1Error(await gw.v1('/user/get', { id: 'no-such-user' }), 1001);
    expect(await gw.v1('/user/get', {})).toEqual({ error: { code: 300, message: 'id is required.' } });
    expectV1Error(await gw.v1('/user/get', { id: 'x', api_secret: 'wrong' }), 102);
  });
});

describe("/user/get's parallel reads", () => {
  // A gateway of its own per case, over a proxy that sees every v2 call the sandbox receives: a
  // new gateway has not yet seen its pair accepted, so the user read goes first, alone, as the
  // pair's proof, and the settings and token reads wait for its answer. Those that wait are the
  // ones an answer can overtake.
  let sandbox: RunningSandbox;
  let proxy: FaultUpstream;
  let alone: RunningGateway | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox();
    proxy = await startFaultUpstream(`${sandbox.url}/v2`);
  });
  afterEach(async () => {
    await alone?.close();
    alone = undefined;
    proxy.seen.length = 0;
  });
  afterAll(async () => {
    await proxy?.close();
    await sandbox?.close();
  });
  const get = async (id: string) => {
    const { apiKey, apiSecret } = sandbox.sandbox.credentials;
    const response = await postV1(alone!.url, '/user/get', { api_key: apiKey, api_secret: apiSecret, id });
    return { calls: response.headers.get('x-v2-calls'), body: (await response.json()) as Record<string, any> };
  };
  const received = (id: string) => proxy.seen.filter((r) => r.path.startsWith(`/users/${id}`)).map((r) => r.path);

  it('sends none of the reads still waiting once the user read answers 404: not after the v1 answer, not ever', async () => {
    alone = await startGatewayOver(proxy.url);
    const unknown = `nobody-${Date.now()}`;
    const answer = await get(unknown);
    expectV1Error(answer.body, 1001);
    expect(answer.calls).toBe('1');
    // The next call's three reads come after anything the first call could still have sent.
    const { id } = (await sandbox.v2('POST', `/users`, { body: { action: 'create', user_info: { email: uniqueEmail(), type: 1 } } })).body;
    expect((await get(id)).calls).toBe('3');
    expect(received(id)).toHaveLength(3);
    expect(received(unknown)).toEqual([`/users/${unknown}`]);
  });

  it('still reads the user, its settings and its ZAK at once when the user exists', async () => {
    alone = await startGatewayOver(proxy.url);
    const { id } = (await sandbox.v2('POST', `/users`, { body: { action: 'create', user_info: { email: uniqueEmail(), type: 1 } } })).body;
    const answer = await get(id);
    expect(answer.body).toMatchObject({ id, token: '', zpk: '', zak: sandbox.sandbox.state.users.get(id)!.tokens.zak });
    expect(answer.calls).toBe('3');
    expect(received(id).sort()).toEqual([`/users/${id}`, `/users/${id}/settings`, `/users/${id}/token`]);
  });

  it('asks no Zoom token even of an account the service still gives one: the v1 token is empty either way', async () => {
    alone = await startGatewayOver(proxy.url);
    const { id } = (await sandbox.v2('POST', `/users`, { body: { action: 'create', user_info: { email: uniqueEmail(), type: 1 } } })).body;
    sandbox.sandbox.master.legacyTokenAllowlisted = true;
    try {
      const answer = await get(id);
      expect(answer.body).toMatchObject({ id, token: '', zak: sandbox.sandbox.state.users.get(id)!.tokens.zak });
      expect(received(id).filter((path) => path.endsWith('/token'))).toHaveLength(1);
    } finally {
      delete sandbox.sandbox.master.legacyTokenAllowlisted;
    }
  });
});

describe('/user/getbyemail', () => {
  it("answers the full user with getbyemail's additions (no account_id, no timezone)", async () => {
    const created = await v2User(gw);
    const answer = await gw.v1('/user/getbyemail', { email: created.email, login_type: 100 });
    expectUserShape(answer, USER_ANSWERS.getbyemail.fields);
    expect(answer).toMatchObject({ id: created.id, email: created.email, status: 0 });
  });

  it('answers 1001 for an unknown email and 300 for a malformed email or login_type', async () => {
    expectV1Error(await gw.v1('/user/getbyemail', { email: uniqueEmail('nobody') }), 1001);
    expect(await gw.v1('/user/getbyemail', {})).toEqual({ error: { code: 300, message: 'email is required.' } });
    expectV1Error(await gw.v1('/user/getbyemail', { email: 'nope' }), 300, /^Invalid parameter: email\./);
    expectV1Error(await gw.v1('/user/getbyemail', { email: uniqueEmail(), login_type: 7 }), 300, /^Invalid parameter: login_type\./);
    expectV1Error(await gw.v1('/user/getbyemail', { email: uniqueEmail(), api_secret: 'wrong' }), 102);
  });
});

describe('/user/list and /user/pending', () => {
  it('pages the active users in the v1 list shape', async () => {
    for (let i = 0; i < 3; i++) await v2User(gw);
    const total = (await v2Get(gw, '/users', { page_size: '1' })).total_records;
    const answer = await gw.v1('/user/list', { page_size: 2, page_number: 2 });
    expect(Object.keys(answer).sort()).toEqual(['page_count', 'page_number', 'page_size', 'total_records', 'users']);
    expect(answer).toMatchObject({ page_number: 2, page_size: 2, total_records: total, page_count: Math.ceil(total / 2) });
    expect(answer.users).toHaveLength(2);
    for (const item of answer.users) {
      expectUserShape(item, USER_ANSWERS.listItem.fields);
      expect(item).toMatchObject({ status: 0, verified: 1, token: '', zpk: '', zak: '' });
    }
    const v2Page = (await v2Get(gw, '/users', { page_size: '2', page_number: '2' })).users;
    expect(answer.users.map((u: { id: string }) => u.id)).toEqual(v2Page.map((u: { id: string }) => u.id));
    expect(answer.users[0].pmi).toBe(Number(v2Page[0].pmi));
  });

  it('defaults to page 1 of 30', async () => {
    expect(await gw.v1('/user/list', {})).toMatchObject({ page_number: 1, page_size: 30 });
  });

  it('lists users invited by /user/create under /user/pending only', async () => {
    const email = uniqueEmail('pending');
    const { id } = await gw.v1('/user/create', { email, type: 1 });
    const pending = await gw.v1('/user/pending', { page_size: 300 });
    const item = pending.users.find((u: { id: string }) => u.id === id);
    expectUserShape(item, USER_ANSWERS.listItem.fields);
    expect(item).toMatchObject({ email, status: 2, verified: 0 });
    const active = await gw.v1('/user/list', { page_size: 300 });
    expect(active.users.some((u: { id: string }) => u.id === id)).toBe(false);
  });

  it('answers 300 naming page_size or page_number when out of range, 102 for a wrong secret', async () => {
    for (const path of ['/user/list', '/user/pending']) {
      expectV1Error(await gw.v1(path, { page_size: 301 }), 300, /^Invalid parameter: page_size\./);
      expectV1Error(await gw.v1(path, { page_size: 'ten' }), 300, /^Invalid parameter: page_size\./);
      expectV1Error(await gw.v1(path, { page_number: 0 }), 300, /^Invalid parameter: page_number\./);
      expectV1Error(await gw.v1(path, { api_secret: 'wrong' }), 102);
    }
  });
});
