import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaProblems } from '../support/openapi.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { createUser, expectFieldError, expectUserNotFound, getUser, plantSubAccount, uniqueEmail } from './users-support.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({ ownerEmail: 'owner@users.test' });
});
afterAll(() => sb.close());

const SINGLE_USER_FIELDS = [
  'id',
  'first_name',
  'last_name',
  'email',
  'type',
  'pmi',
  'timezone',
  'dept',
  'created_at',
  'last_login_time',
  'last_client_version',
  'account_id',
  'status',
  'verified',
  'language',
  'use_pmi',
  'vanity_url',
  'personal_meeting_url',
  'pic_url',
  'cms_user_id',
  'host_key',
  'group_ids',
  'im_group_ids',
].sort();

const LIST_ITEM_FIELDS = [
  'id',
  'first_name',
  'last_name',
  'email',
  'type',
  'pmi',
  'timezone',
  'dept',
  'created_at',
  'last_login_time',
  'last_client_version',
  'group_ids',
  'im_group_ids',
].sort();

describe('POST /users', () => {
  it('creates a pending, unverified user with action create and answers the five fields', async () => {
    const email = uniqueEmail('create');
    const res = await sb.v2('POST', '/users', {
      body: { action: 'create', user_info: { email, type: 1, first_name: 'Ada', last_name: 'Lovelace' } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[\w-]{22}$/), first_name: 'Ada', last_name: 'Lovelace', email, type: 1 });
    expect(schemaProblems('POST', '/users', 201, res.body)).toEqual([]);
    expect(res.headers.get('content-location')).toMatch(new RegExp(`/v2/users/${res.body.id}$`));
    const user = await getUser(sb, res.body.id);
    expect(user).toMatchObject({ status: 'pending', verified: 0, email, type: 1 });
  });

  it.each(['autoCreate', 'custCreate', 'ssoCreate'])('creates an active, verified user with action %s', async (action) => {
    const { id } = await createUser(sb, { type: 1 }, action);
    expect(await getUser(sb, id)).toMatchObject({ status: 'active', verified: 1 });
  });

  it('accepts a password with autoCreate only', async () => {
    await createUser(sb, { password: 'longenough1' }, 'autoCreate');
    const res = await sb.v2('POST', '/users', {
      body: { action: 'create', user_info: { email: uniqueEmail(), type: 1, password: 'longenough1' } },
    });
    expectFieldError(res, 'user_info.password');
  });

  it('gives a non-basic ssoCreate user a vanity url from the email user name, or a random one when taken', async () => {
    const local = `sso${Date.now()}`;
    const first = await createUser(sb, { email: `${local}@one.example`, type: 2 }, 'ssoCreate');
    expect((await getUser(sb, first.id)).vanity_url).toBe(`https://sandbox.v1gate.local/my/${local}`);
    const second = await createUser(sb, { email: `${local}@two.example`, type: 2 }, 'ssoCreate');
    expect((await getUser(sb, second.id)).vanity_url).toMatch(/\/my\/u\d{10}$/);
    const basic = await createUser(sb, { type: 1 }, 'ssoCreate');
    expect((await getUser(sb, basic.id)).vanity_url).toBe('');
  });

  it('answers 409 code 1005 for an email that exists, in any case, and creates nothing', async () => {
    const { email } = await createUser(sb);
    const before = (await sb.v2('GET', '/users', { query: { page_size: 300 } })).body.total_records;
    const res = await sb.v2('POST', '/users', { body: { action: 'create', user_info: { email: email.toUpperCase(), type: 1 } } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 1005, message: `User already in the account: ${email.toUpperCase()}` });
    expect((await sb.v2('GET', '/users', { query: { page_size: 300 } })).body.total_records).toBe(before);
  });

  it.each([
    ['action', { action: 'make', user_info: { email: 'a@b.example', type: 1 } }],
    ['action', { user_info: { email: 'a@b.example', type: 1 } }],
    ['user_info', { action: 'create' }],
    ['user_info.email', { action: 'create', user_info: { type: 1 } }],
    ['user_info.email', { action: 'create', user_info: { email: 'not-an-email', type: 1 } }],
    ['user_info.email', { action: 'create', user_info: { email: `${'a'.repeat(120)}@b.example`, type: 1 } }],
    // 3 (corp) is gone today: 1, 2, 4 and 99 are taken.
    ['user_info.type', { action: 'create', user_info: { email: 'a@b.example', type: 3 } }],
    ['user_info.type', { action: 'create', user_info: { email: 'a@b.example', type: '1' } }],
    ['user_info.first_name', { action: 'create', user_info: { email: 'a@b.example', type: 1, first_name: 'x'.repeat(65) } }],
    ['user_info.last_name', { action: 'create', user_info: { email: 'a@b.example', type: 1, last_name: '一二三四五六' } }],
    ['user_info.password', { action: 'autoCreate', user_info: { email: 'a@b.example', type: 1, password: 'x'.repeat(32) } }],
    ['user_info.nickname', { action: 'create', user_info: { email: 'a@b.example', type: 1, nickname: 'x' } }],
  ])('answers 400 naming %s for %j', async (field, body) => {
    expectFieldError(await sb.v2('POST', '/users', { body }), field);
    expect((await sb.v2('GET', '/users/email', { query: { email: 'a@b.example' } })).body.existed_email).toBe(false);
  });

  it('accepts names of 64 characters and 5 Chinese characters', async () => {
    await createUser(sb, { first_name: 'x'.repeat(64), last_name: '一二三四五' });
  });

  it('answers 400 code 300 for a body that is not a JSON object', async () => {
    for (const rawBody of ['{"action":', '[1]', '']) {
      const res = await sb.v2('POST', '/users', { rawBody });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 300, message: 'Request Body should be a valid JSON object.' });
    }
  });
});

describe('GET /users', () => {
  it('lists active users by default with the list-item fields and paging', async () => {
    const res = await sb.v2('GET', '/users');
    expect(res.status).toBe(200);
    expect(schemaProblems('GET', '/users', 200, res.body)).toEqual([]);
    expect(res.body).toMatchObject({ page_number: 1, page_size: 30, page_count: expect.any(Number), total_records: expect.any(Number) });
    const owner = res.body.users.find((u: { email: string }) => u.email === 'owner@users.test');
    expect(Object.keys(owner).sort()).toEqual(LIST_ITEM_FIELDS);
    expect(owner).toMatchObject({ type: 2, pmi: expect.any(Number), group_ids: [], im_group_ids: [] });
    expect(res.body.users.every((u: { id: string }) => typeof u.id === 'string')).toBe(true);
  });

  it('filters by status', async () => {
    const pending = await createUser(sb, { type: 1 }, 'create');
    const inactive = await createUser(sb);
    expect((await sb.v2('PUT', `/users/${inactive.id}/status`, { body: { action: 'deactivate' } })).status).toBe(204);
    const emailsOf = async (status: string) =>
      (await sb.v2('GET', '/users', { query: { status, page_size: 300 } })).body.users.map((u: { email: string }) => u.email);
    expect(await emailsOf('pending')).toContain(pending.email);
    expect(await emailsOf('active')).not.toContain(pending.email);
    expect(await emailsOf('inactive')).toEqual([inactive.email]);
  });

  it('pages through the users', async () => {
    const fresh = await startSandbox();
    try {
      for (let i = 0; i < 4; i++) await createUser(fresh);
      const page2 = await fresh.v2('GET', '/users', { query: { page_size: 2, page_number: 2 } });
      expect(page2.body).toMatchObject({ page_count: 3, page_number: 2, page_size: 2, total_records: 5 });
      expect(page2.body.users).toHaveLength(2);
      const page3 = await fresh.v2('GET', '/users', { query: { page_size: 2, page_number: 3 } });
      expect(page3.body.users).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });

  it('answers 400 for an unknown status or a page size over 300', async () => {
    expectFieldError(await sb.v2('GET', '/users', { query: { status: 'deleted' } }), 'status');
    expectFieldError(await sb.v2('GET', '/users', { query: { page_size: 301 } }), 'page_size');
  });

  it('keeps each account to its own users', async () => {
    const sub = plantSubAccount(sb);
    const subOwner = sb.sandbox.state.users.get(sub.ownerId)!;
    const asSub = { apiKey: sub.apiKey, apiSecret: sub.apiSecret };
    const subList = await sb.v2('GET', '/users', { as: asSub, query: { page_size: 300 } });
    expect(subList.body.users.map((u: { email: string }) => u.email)).toEqual([subOwner.email]);
    expect((await sb.v2('GET', '/users/me', { as: asSub })).body.id).toBe(subOwner.id);
    expectUserNotFound(await sb.v2('GET', '/users/owner@users.test', { as: asSub }));
    expectUserNotFound(await sb.v2('GET', `/users/${subOwner.id}`));
    const masterList = await sb.v2('GET', '/users', { query: { page_size: 300 } });
    expect(masterList.body.users.map((u: { id: string }) => u.id)).not.toContain(subOwner.id);
  });
});

describe('GET /users/{userId}', () => {
  it('answers the single-user fields by id, by email and as me', async () => {
    const { id, email } = await createUser(sb, { first_name: 'Grace', last_name: 'Hopper', type: 4 });
    const res = await sb.v2('GET', `/users/${id}`);
    expect(res.status).toBe(200);
    expect(schemaProblems('GET', '/users/{userId}', 200, res.body)).toEqual([]);
    expect(Object.keys(res.body).sort()).toEqual(SINGLE_USER_FIELDS);
    expect(res.body).toEqual({
      id,
      first_name: 'Grace',
      last_name: 'Hopper',
      email,
      type: 4,
      // A number today (spec/reference/today/users.json types it as an integer).
      pmi: expect.any(Number),
      timezone: '',
      dept: '',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      last_login_time: '',
      last_client_version: '',
      account_id: sb.sandbox.master.id,
      status: 'active',
      verified: 1,
      language: 'en-US',
      use_pmi: false,
      vanity_url: '',
      personal_meeting_url: `https://sandbox.v1gate.local/j/${res.body.pmi}`,
      pic_url: '',
      cms_user_id: '',
      host_key: expect.stringMatching(/^\d{6}$/),
      group_ids: [],
      im_group_ids: [],
    });
    expect((await sb.v2('GET', `/users/${email.toUpperCase()}`)).body.id).toBe(id);
    expect((await sb.v2('GET', '/users/me')).body.email).toBe('owner@users.test');
  });

  it('lists the groups and IM groups the user belongs to', async () => {
    const { id } = await createUser(sb);
    const accountId = sb.sandbox.master.id;
    sb.sandbox.state.groups.set('g-1', { id: 'g-1', account_id: accountId, name: 'Sales', member_ids: [id] });
    sb.sandbox.state.imGroups.set('im-1', {
      id: 'im-1',
      account_id: accountId,
      name: 'Chat',
      type: 'normal',
      search_by_domain: false,
      search_by_account: false,
      search_by_ma_account: false,
      member_ids: [id],
      created_at: '2020-01-01T00:00:00Z',
      last_modified_time: '2020-01-01T00:00:00Z',
    });
    expect(await getUser(sb, id)).toMatchObject({ group_ids: ['g-1'], im_group_ids: ['im-1'] });
    const item = (await sb.v2('GET', '/users', { query: { page_size: 300 } })).body.users.find((u: { id: string }) => u.id === id);
    expect(item).toMatchObject({ group_ids: ['g-1'], im_group_ids: ['im-1'] });
  });

  it('answers 404 code 1001 for an unknown user', async () => {
    expectUserNotFound(await sb.v2('GET', '/users/nobody'));
    expectUserNotFound(await sb.v2('GET', '/users/nobody@example.com'));
  });

  it('validates login_type', async () => {
    expect((await sb.v2('GET', '/users/me', { query: { login_type: 100 } })).status).toBe(200);
    expectFieldError(await sb.v2('GET', '/users/me', { query: { login_type: 7 } }), 'login_type');
  });
});

describe('PATCH /users/{userId}', () => {
  it('updates every field it names and answers 204 with no body', async () => {
    const { id } = await createUser(sb);
    const update = {
      first_name: 'New',
      last_name: 'Name',
      type: 99,
      pmi: 5551234567,
      use_pmi: true,
      timezone: 'America/Los_Angeles',
      language: 'fr-FR',
      dept: 'R&D',
      vanity_name: `room.${id.slice(0, 6).replace(/[^A-Za-z0-9]/g, 'x')}`,
      host_key: '012345',
      cms_user_id: 'cms-1',
    };
    const res = await sb.v2('PATCH', `/users/${id}`, { body: update });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const { vanity_name, ...fields } = update;
    const user = await getUser(sb, id);
    expect(user).toMatchObject({
      ...fields,
      vanity_url: `https://sandbox.v1gate.local/my/${vanity_name}`,
      personal_meeting_url: 'https://sandbox.v1gate.local/j/5551234567',
    });
    expect((await sb.v2('GET', '/users/vanity_name', { query: { vanity_name } })).body).toEqual({ existed: true });
  });

  it('accepts an empty body, and an empty vanity_name removes the room name', async () => {
    const { id } = await createUser(sb);
    expect((await sb.v2('PATCH', `/users/${id}`, { rawBody: '' })).status).toBe(204);
    await sb.v2('PATCH', `/users/${id}`, { body: { vanity_name: `gone${Date.now()}` } });
    expect((await sb.v2('PATCH', `/users/${id}`, { body: { vanity_name: '' } })).status).toBe(204);
    expect((await getUser(sb, id)).vanity_url).toBe('');
  });

  it.each([
    ['first_name', { first_name: 'x'.repeat(65) }],
    ['last_name', { last_name: 5 }],
    ['type', { type: 0 }],
    ['pmi', { pmi: '123456789' }],
    ['pmi', { pmi: '12345678901' }],
    ['pmi', { pmi: 123456789 }],
    ['pmi', { pmi: '0123456789' }],
    ['host_key', { host_key: '12345' }],
    ['host_key', { host_key: '12345a' }],
    ['timezone', { timezone: 'Mars/Olympus' }],
    ['use_pmi', { use_pmi: 'yes' }],
    ['vanity_name', { vanity_name: '1abc' }],
    ['vanity_name', { vanity_name: 'has space' }],
    ['email', { email: 'new@example.com' }],
  ])('answers 400 naming %s for %j and changes nothing', async (field, body) => {
    const { id } = await createUser(sb, { first_name: 'Kept' });
    const before = await getUser(sb, id);
    expectFieldError(await sb.v2('PATCH', `/users/${id}`, { body: { dept: 'changed?', ...body } }), field);
    expect(await getUser(sb, id)).toEqual(before);
  });

  it('answers 409 for a pmi or room name another user holds, and changes nothing', async () => {
    const holder = await createUser(sb);
    const name = `taken${Date.now()}`;
    await sb.v2('PATCH', `/users/${holder.id}`, { body: { vanity_name: name } });
    const holderPmi = (await getUser(sb, holder.id)).pmi;
    const { id } = await createUser(sb);
    const before = await getUser(sb, id);
    for (const body of [
      { pmi: holderPmi, dept: 'x' },
      { vanity_name: name.toUpperCase(), dept: 'x' },
    ]) {
      const res = await sb.v2('PATCH', `/users/${id}`, { body });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe(300);
    }
    expect(await getUser(sb, id)).toEqual(before);
    // Setting one's own values again is no conflict.
    expect((await sb.v2('PATCH', `/users/${holder.id}`, { body: { pmi: holderPmi, vanity_name: name } })).status).toBe(204);
  });

  it('answers 404 for an unknown user and 400 for invalid JSON', async () => {
    expectUserNotFound(await sb.v2('PATCH', '/users/nobody', { body: { dept: 'x' } }));
    const res = await sb.v2('PATCH', '/users/me', { rawBody: '{nope' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(300);
  });
});

describe('the fixed paths under /users', () => {
  it('GET /users/email tells whether an email exists anywhere in the service', async () => {
    const { email } = await createUser(sb);
    const res = await sb.v2('GET', '/users/email', { query: { email: email.toUpperCase() } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ existed_email: true });
    expect(schemaProblems('GET', '/users/email', 200, res.body)).toEqual([]);
    expect((await sb.v2('GET', '/users/email', { query: { email: 'free@example.com' } })).body).toEqual({ existed_email: false });
    expectFieldError(await sb.v2('GET', '/users/email'), 'email');
  });

  it('GET /users/vanity_name tells whether a room name is taken', async () => {
    const res = await sb.v2('GET', '/users/vanity_name', { query: { vanity_name: 'nobodyhasthis' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ existed: false });
    expect(schemaProblems('GET', '/users/vanity_name', 200, res.body)).toEqual([]);
    expectFieldError(await sb.v2('GET', '/users/vanity_name'), 'vanity_name');
  });

  it('is not captured by /users/{userId} for other methods either', async () => {
    expectUserNotFound(await sb.v2('PATCH', '/users/email', { body: {} }));
  });
});
