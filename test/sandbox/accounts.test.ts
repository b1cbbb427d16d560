import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaProblems } from '../support/openapi.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({ ownerEmail: 'owner@accounts.test' });
});
afterAll(() => sb.close());

const uniqueEmail = (prefix = 'sub') => `${prefix}.${randomUUID().slice(0, 8)}@accounts.test`;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

interface SubAccount {
  id: string;
  ownerEmail: string;
  /** Credentials to call the v2 API as the sub account. */
  as: { apiKey: string; apiSecret: string };
}

async function createSubAccount(extra: Record<string, unknown> = {}): Promise<SubAccount> {
  const ownerEmail = uniqueEmail();
  const res = await sb.v2('POST', '/accounts', {
    body: { first_name: 'Sub', last_name: 'Owner', email: ownerEmail, password: 'secret-pass-1', ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const account = sb.sandbox.state.accounts.get(res.body.id)!;
  return { id: res.body.id, ownerEmail, as: { apiKey: account.apiKey, apiSecret: account.apiSecret } };
}

function expectFieldErrors(res: { status: number; body: any }, ...fields: string[]): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.code).toBe(300);
  expect(res.body.message).toBe('Validation Failed.');
  const named = res.body.errors.map((e: { field: string }) => e.field);
  for (const field of fields) expect(named, JSON.stringify(res.body)).toContain(field);
}

function expectAccountNotFound(res: { status: number; body: any }): void {
  expect(res.status, JSON.stringify(res.body)).toBe(404);
  expect(res.body).toEqual({ code: 2001, message: expect.stringContaining('This account does not exist or does not belong to you') });
}

function expectInvalidJson(res: { status: number; body: any }): void {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ code: 300, message: 'Request Body should be a valid JSON object.' });
}

function expectNoPrivilege(res: { status: number; body: any }): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.code).toBe(200);
}

const CONTACT = {
  first_name: 'Bill',
  last_name: 'Payer',
  email: 'billing@accounts.test',
  phone_number: '+1 555 0100',
  address: '1 Main St',
  apt: 'Suite 2',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  country: 'US',
};

async function subscribe(accountId: string, plans: Record<string, unknown> = {}) {
  return sb.v2('POST', `/accounts/${accountId}/plans`, { body: { contact: CONTACT, plan_base: { type: 'monthly', hosts: 5 }, ...plans } });
}

describe('GET /accounts', () => {
  it("lists the caller's sub accounts with paging and the list-item fields", async () => {
    const sub = await createSubAccount();
    const res = await sb.v2('GET', '/accounts', { query: { page_size: 300 } });
    expect(res.status).toBe(200);
    expect(schemaProblems('GET', '/accounts', 200, res.body)).toEqual([]);
    expect(res.body).toMatchObject({ page_number: 1, page_size: 300, total_records: expect.any(Number), page_count: 1 });
    const item = res.body.accounts.find((a: { id: string }) => a.id === sub.id);
    expect(item).toEqual({
      id: sub.id,
      account_name: 'Sub Owner',
      owner_email: sub.ownerEmail,
      account_type: expect.any(String),
      seats: 0,
      subscription_start_time: expect.stringMatching(ISO),
      subscription_end_time: expect.stringMatching(ISO),
      created_at: expect.stringMatching(ISO),
    });
  });

  it('pages the list', async () => {
    await createSubAccount();
    await createSubAccount();
    const all = (await sb.v2('GET', '/accounts', { query: { page_size: 300 } })).body;
    const second = await sb.v2('GET', '/accounts', { query: { page_size: 1, page_number: 2 } });
    expect(second.body).toMatchObject({ page_size: 1, page_number: 2, page_count: all.total_records, total_records: all.total_records });
    expect(second.body.accounts).toEqual([all.accounts[1]]);
  });

  it('rejects a page_size above 300', async () => {
    expectFieldErrors(await sb.v2('GET', '/accounts', { query: { page_size: 301 } }), 'page_size');
  });

  it('refuses a sub account, which cannot hold sub accounts of its own (code 200)', async () => {
    const sub = await createSubAccount();
    expectNoPrivilege(await sb.v2('GET', '/accounts', { as: sub.as }));
  });
});

describe('POST /accounts', () => {
  it('creates a sub account with its own credentials and an active owner', async () => {
    const email = uniqueEmail();
    const res = await sb.v2('POST', '/accounts', { body: { first_name: 'Ann', last_name: 'Sub', email, password: 'secret-pass-1' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[\w-]{22}$/),
      owner_id: expect.stringMatching(/^[\w-]{22}$/),
      owner_email: email,
      created_at: expect.stringMatching(ISO),
    });
    expect(schemaProblems('POST', '/accounts', 201, res.body)).toEqual([]);

    const account = sb.sandbox.state.accounts.get(res.body.id)!;
    expect(account.apiKey).not.toBe(sb.sandbox.credentials.apiKey);
    const as = { apiKey: account.apiKey, apiSecret: account.apiSecret };
    const owner = await sb.v2('GET', `/users/${encodeURIComponent(email)}`, { as });
    expect(owner.status).toBe(200);
    expect(owner.body).toMatchObject({ id: res.body.owner_id, email, status: 'active', account_id: res.body.id });
    // The owner belongs to the sub account, not to the master.
    expect((await sb.v2('GET', `/users/${encodeURIComponent(email)}`)).status).toBe(404);
  });

  it('keeps the given options', async () => {
    const sub = await createSubAccount({ options: { share_rc: true, room_connectors: 'rc1,rc2', pay_mode: 'sub' } });
    const res = await sb.v2('GET', `/accounts/${sub.id}`);
    expect(res.body.options).toEqual({
      share_rc: true,
      room_connectors: 'rc1,rc2',
      share_mc: false,
      meeting_connectors: '',
      pay_mode: 'sub',
    });
  });

  it('answers 409 1005 for an email any user already has, whatever its case, and creates nothing', async () => {
    const before = sb.sandbox.state.accounts.size;
    for (const email of ['owner@accounts.test', 'OWNER@Accounts.Test']) {
      const res = await sb.v2('POST', '/accounts', { body: { first_name: 'A', last_name: 'B', email, password: 'secret-pass-1' } });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe(1005);
    }
    expect(sb.sandbox.state.accounts.size).toBe(before);
  });

  it('requires first_name, last_name, email and password', async () => {
    const before = sb.sandbox.state.accounts.size;
    expectFieldErrors(await sb.v2('POST', '/accounts', { body: {} }), 'first_name', 'last_name', 'email', 'password');
    expect(sb.sandbox.state.accounts.size).toBe(before);
  });

  it.each([
    ['email', { email: 'not-an-email' }],
    ['email', { email: `${'a'.repeat(120)}@accounts.test` }],
    ['first_name', { first_name: 'x'.repeat(65) }],
    ['password', { password: 'short' }],
    ['password', { password: 'p'.repeat(32) }],
    ['options.pay_mode', { options: { pay_mode: 'both' } }],
    ['options.share_rc', { options: { share_rc: 'yes' } }],
    ['nickname', { nickname: 'unknown field' }],
  ])('rejects an invalid %s and creates nothing', async (field, override) => {
    const before = sb.sandbox.state.accounts.size;
    const body = { first_name: 'A', last_name: 'B', email: uniqueEmail(), password: 'secret-pass-1', ...override };
    expectFieldErrors(await sb.v2('POST', '/accounts', { body }), field);
    expect(sb.sandbox.state.accounts.size).toBe(before);
  });

  it('rejects a body that is not JSON', async () => {
    expectInvalidJson(await sb.v2('POST', '/accounts', { rawBody: '{"email":' }));
  });

  it('refuses a sub account (code 200) and creates nothing', async () => {
    const sub = await createSubAccount();
    const before = sb.sandbox.state.accounts.size;
    const res = await sb.v2('POST', '/accounts', {
      as: sub.as,
      body: { first_name: 'A', last_name: 'B', email: uniqueEmail(), password: 'secret-pass-1' },
    });
    expectNoPrivilege(res);
    expect(sb.sandbox.state.accounts.size).toBe(before);
  });
});

describe('GET /accounts/{accountId}', () => {
  it('answers the account with its options', async () => {
    const sub = await createSubAccount();
    const res = await sb.v2('GET', `/accounts/${sub.id}`);
    expect(res.status).toBe(200);
    expect(schemaProblems('GET', '/accounts/{accountId}', 200, res.body)).toEqual([]);
    expect(res.body).toEqual({
      id: sub.id,
      owner_id: expect.any(String),
      owner_email: sub.ownerEmail,
      created_at: expect.stringMatching(ISO),
      options: { share_rc: false, room_connectors: '', share_mc: false, meeting_connectors: '', pay_mode: 'master' },
    });
  });

  it('answers 404 2001 for an unknown account and for the master itself', async () => {
    expectAccountNotFound(await sb.v2('GET', '/accounts/no-such-account'));
    expectAccountNotFound(await sb.v2('GET', `/accounts/${sb.sandbox.master.id}`));
  });

  it('does not let one sub account read another', async () => {
    const [a, b] = [await createSubAccount(), await createSubAccount()];
    expectNoPrivilege(await sb.v2('GET', `/accounts/${b.id}`, { as: a.as }));
  });
});

describe('DELETE /accounts/{accountId}', () => {
  it('disassociates the sub account and leaves it intact', async () => {
    const sub = await createSubAccount();
    const res = await sb.v2('DELETE', `/accounts/${sub.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expectAccountNotFound(await sb.v2('GET', `/accounts/${sub.id}`));
    const list = await sb.v2('GET', '/accounts', { query: { page_size: 300 } });
    expect(list.body.accounts.map((a: { id: string }) => a.id)).not.toContain(sub.id);
    // Still a working account with its owner and settings.
    expect((await sb.v2('GET', '/accounts/me/settings', { as: sub.as })).status).toBe(200);
    expect((await sb.v2('GET', `/users/${encodeURIComponent(sub.ownerEmail)}`, { as: sub.as })).status).toBe(200);
    expectAccountNotFound(await sb.v2('DELETE', `/accounts/${sub.id}`));
  });

  it('answers 404 2001 for an unknown account', async () => {
    expectAccountNotFound(await sb.v2('DELETE', '/accounts/no-such-account'));
  });
});

describe('PATCH /accounts/{accountId}/options', () => {
  it('updates the given options only', async () => {
    const sub = await createSubAccount();
    const res = await sb.v2('PATCH', `/accounts/${sub.id}/options`, { body: { share_mc: true, meeting_connectors: 'mc1' } });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await sb.v2('GET', `/accounts/${sub.id}`)).body.options).toEqual({
      share_rc: false,
      room_connectors: '',
      share_mc: true,
      meeting_connectors: 'mc1',
      pay_mode: 'master',
    });
  });

  it('rejects invalid options and changes nothing', async () => {
    const sub = await createSubAccount();
    const res = await sb.v2('PATCH', `/accounts/${sub.id}/options`, { body: { share_mc: true, pay_mode: 'nobody' } });
    expectFieldErrors(res, 'pay_mode');
    expect((await sb.v2('GET', `/accounts/${sub.id}`)).body.options.share_mc).toBe(false);
    expectInvalidJson(await sb.v2('PATCH', `/accounts/${sub.id}/options`, { rawBody: '[1]' }));
  });

  it('answers 404 2001 for an unknown account', async () => {
    expectAccountNotFound(await sb.v2('PATCH', '/accounts/no-such-account/options', { body: { share_rc: true } }));
  });
});

describe('GET /accounts/{accountId}/settings', () => {
  it("answers the nested groups with the spec's spelling and defaults", async () => {
    const sub = await createSubAccount();
    const res = await sb.v2('GET', `/accounts/${sub.id}/settings`);
    expect(res.status).toBe(200);
    expect(schemaProblems('GET', '/accounts/{accountId}/settings', 200, res.body)).toEqual([]);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'schedule_meeting',
        'in_meeting',
        'email_notification',
        'vendor_rooms',
        'security',
        'recording',
        'telephony',
        'integration',
        'feature',
      ].sort(),
    );
    expect(res.body.schedule_meeting).toMatchObject({ audio_type: 'both', host_video: false, enforce_login_domains: '' });
    expect(res.body.in_meeting).toMatchObject({ p2p_connetion: false, ports_range: '', dscp_audio: 46, dscp_video: 34 });
    expect(res.body.email_notification).toHaveProperty('cloud_recording_available_reminder', false);
    expect(res.body.recording).toMatchObject({ auto_recording: 'local', auto_delete_cmr_days: 30 });
    expect(res.body.feature).toEqual({ meeting_capacity: 100 });
  });

  it("reaches the caller's own account as `me` or by its id", async () => {
    const byMe = await sb.v2('GET', '/accounts/me/settings');
    expect(byMe.status).toBe(200);
    expect((await sb.v2('GET', `/accounts/${sb.sandbox.master.id}/settings`)).body).toEqual(byMe.body);
  });

  it('answers 404 2001 for an unknown account', async () => {
    expectAccountNotFound(await sb.v2('GET', '/accounts/no-such-account/settings'));
  });
});

describe('PATCH /accounts/{accountId}/settings', () => {
  it('merges the given fields into their groups', async () => {
    const sub = await createSubAccount();
    const res = await sb.v2('PATCH', `/accounts/${sub.id}/settings`, {
      body: {
        schedule_meeting: { host_video: true, audio_type: 'voip' },
        in_meeting: { ports_range: '8000-8100,9000', dscp_audio: 1, dscp_video: 63, p2p_connetion: true },
        recording: { auto_recording: 'cloud', auto_delete_cmr: true, auto_delete_cmr_days: 60 },
        feature: { meeting_capacity: 50 },
      },
    });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const settings = (await sb.v2('GET', `/accounts/${sub.id}/settings`)).body;
    expect(settings.schedule_meeting).toMatchObject({ host_video: true, audio_type: 'voip', participant_video: false });
    expect(settings.in_meeting).toMatchObject({
      ports_range: '8000-8100,9000',
      dscp_audio: 1,
      dscp_video: 63,
      p2p_connetion: true,
      chat: false,
    });
    expect(settings.recording).toMatchObject({
      auto_recording: 'cloud',
      auto_delete_cmr: true,
      auto_delete_cmr_days: 60,
      local_recording: true,
    });
    expect(settings.feature).toEqual({ meeting_capacity: 50 });
  });

  it('accepts an empty body and changes nothing', async () => {
    const sub = await createSubAccount();
    const before = (await sb.v2('GET', `/accounts/${sub.id}/settings`)).body;
    expect((await sb.v2('PATCH', `/accounts/${sub.id}/settings`, { rawBody: '' })).status).toBe(204);
    expect((await sb.v2('GET', `/accounts/${sub.id}/settings`)).body).toEqual(before);
  });

  it.each([
    ['in_meeting.ports_range', { in_meeting: { ports_range: '0' } }],
    ['in_meeting.ports_range', { in_meeting: { ports_range: '70000' } }],
    ['in_meeting.ports_range', { in_meeting: { ports_range: '9000-8000' } }],
    ['in_meeting.ports_range', { in_meeting: { ports_range: 'all' } }],
    ['in_meeting.dscp_audio', { in_meeting: { dscp_audio: 0 } }],
    ['in_meeting.dscp_video', { in_meeting: { dscp_video: 64 } }],
    ['in_meeting.dscp_video', { in_meeting: { dscp_video: 10.5 } }],
    ['schedule_meeting.audio_type', { schedule_meeting: { audio_type: 'phone' } }],
    ['recording.auto_recording', { recording: { auto_recording: 'always' } }],
    ['recording.auto_delete_cmr_days', { recording: { auto_delete_cmr_days: 61 } }],
    ['feature.meeting_capacity', { feature: { meeting_capacity: 0 } }],
    ['feature.meeting_capacity', { feature: { meeting_capacity: 101 } }],
    ['telephony.audio_conference_info', { telephony: { audio_conference_info: 'x'.repeat(2049) } }],
    ['in_meeting.chat', { in_meeting: { chat: 'true' } }],
    ['security', { security: true }],
    // The old reference's misspelling of the group, no longer a name of today's v2.
    ['schedule_meting', { schedule_meting: { host_video: true } }],
    ['in_meeting.p2p_connection', { in_meeting: { p2p_connection: true } }],
  ])('rejects %s and changes nothing', async (field, body) => {
    const sub = await createSubAccount();
    const before = (await sb.v2('GET', `/accounts/${sub.id}/settings`)).body;
    // A valid field next to the invalid one must not be applied either.
    const res = await sb.v2('PATCH', `/accounts/${sub.id}/settings`, { body: { ...body, email_notification: { jbh_reminder: true } } });
    expectFieldErrors(res, field);
    expect((await sb.v2('GET', `/accounts/${sub.id}/settings`)).body).toEqual(before);
  });

  it('rejects a body that is not JSON', async () => {
    expectInvalidJson(await sb.v2('PATCH', '/accounts/me/settings', { rawBody: 'nope' }));
  });

  it('answers 404 2001 for an unknown account', async () => {
    expectAccountNotFound(await sb.v2('PATCH', '/accounts/no-such-account/settings', { body: {} }));
  });
});

describe('GET and PATCH /accounts/{accountId}/billing', () => {
  it('answers empty contact fields for a free account', async () => {
    const sub = await createSubAccount();
    const res = await sb.v2('GET', `/accounts/${sub.id}/billing`);
    expect(res.status).toBe(200);
    expect(schemaProblems('GET', '/accounts/{accountId}/billing', 200, res.body)).toEqual([]);
    expect(res.body).toEqual({
      first_name: '',
      last_name: '',
      email: '',
      phone_number: '',
      address: '',
      apt: '',
      city: '',
      state: '',
      zip: '',
      country: '',
    });
  });

  it('answers the contact given at subscription and updates it field by field', async () => {
    const sub = await createSubAccount();
    expect((await subscribe(sub.id)).status).toBe(201);
    expect((await sb.v2('GET', `/accounts/${sub.id}/billing`)).body).toEqual(CONTACT);
    const res = await sb.v2('PATCH', `/accounts/${sub.id}/billing`, { body: { city: 'Chicago', zip: '60601' } });
    expect(res.status).toBe(204);
    expect((await sb.v2('GET', `/accounts/${sub.id}/billing`)).body).toEqual({ ...CONTACT, city: 'Chicago', zip: '60601' });
  });

  it('rejects an invalid contact field and changes nothing', async () => {
    const sub = await createSubAccount();
    await subscribe(sub.id);
    expectFieldErrors(await sb.v2('PATCH', `/accounts/${sub.id}/billing`, { body: { email: 'nope', city: 'X' } }), 'email');
    expectFieldErrors(await sb.v2('PATCH', `/accounts/${sub.id}/billing`, { body: { city: '' } }), 'city');
    expect((await sb.v2('GET', `/accounts/${sub.id}/billing`)).body).toEqual(CONTACT);
  });

  it('refuses to update the billing of a free account or one that pays for itself', async () => {
    const free = await createSubAccount();
    const res = await sb.v2('PATCH', `/accounts/${free.id}/billing`, { body: { city: 'X' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(300);
    expect(res.body.message).toMatch(/free account/);
    const selfPaying = await createSubAccount({ options: { pay_mode: 'sub' } });
    expect((await sb.v2('PATCH', `/accounts/${selfPaying.id}/billing`, { body: { city: 'X' } })).body.message).toMatch(/pays for itself/);
  });

  it('answers 404 2001 for an unknown account', async () => {
    expectAccountNotFound(await sb.v2('GET', '/accounts/no-such-account/billing'));
    expectAccountNotFound(await sb.v2('PATCH', '/accounts/no-such-account/billing', { body: {} }));
  });
});

describe('GET and POST /accounts/{accountId}/plans', () => {
  it('answers an empty plan set for a free account', async () => {
    const sub = await createSubAccount();
    const res = await sb.v2('GET', `/accounts/${sub.id}/plans`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ plan_large_meeting: [], plan_webinar: [] });
    expect(schemaProblems('GET', '/accounts/{accountId}/plans', 200, res.body)).toEqual([]);
  });

  it('subscribes a whole plan set, answers it, and sets seats and the subscription period', async () => {
    const sub = await createSubAccount();
    const planSet = {
      plan_base: { type: 'business_yearly', hosts: 20 },
      plan_vendor_rooms: { type: 'zroom_monthly', hosts: 2 },
      plan_room_connector: { type: 'roomconnector_yearly', hosts: 3 },
      plan_large_meeting: [{ type: 'large500_monthly', hosts: 1 }],
      plan_webinar: [
        { type: 'webinar100_monthly', hosts: 2 },
        { type: 'webinar1000_yearly', hosts: 1 },
      ],
      plan_recording: 'cmr_monthly_commitment_500',
      plan_audio: { type: 'tollfree_monthly_commitment_100', tollfree_countries: 'AT,DE', ddi_numbers: 2 },
    };
    const res = await subscribe(sub.id, planSet);
    expect(res.status).toBe(201);
    const expected = {
      ...planSet,
      plan_audio: {
        type: 'tollfree_monthly_commitment_100',
        tollfree_countries: 'AT,DE',
        premium_countries: '',
        callout_countries: '',
        ddi_numbers: 2,
      },
    };
    expect(res.body).toEqual(expected);
    expect(schemaProblems('POST', '/accounts/{accountId}/plans', 201, res.body)).toEqual([]);
    expect((await sb.v2('GET', `/accounts/${sub.id}/plans`)).body).toEqual(expected);

    const item = (await sb.v2('GET', '/accounts', { query: { page_size: 300 } })).body.accounts.find(
      (a: { id: string }) => a.id === sub.id,
    );
    expect(item.seats).toBe(20);
    const start = new Date(item.subscription_start_time);
    const end = new Date(item.subscription_end_time);
    expect(end.getUTCFullYear() - start.getUTCFullYear()).toBe(1);
  });

  it.each([
    ['monthly', 1, 9],
    ['yearly', 1, 9],
    ['business_monthly', 10, 49],
    ['edu_yearly', 20, 149],
    ['trial', 1, 9999],
  ])("enforces the %s base plan's host range %i to %i", async (type, min, max) => {
    for (const hosts of [min - 1, max + 1]) {
      const sub = await createSubAccount();
      expectFieldErrors(await subscribe(sub.id, { plan_base: { type, hosts } }), 'plan_base.hosts');
      expect((await sb.v2('GET', `/accounts/${sub.id}/plans`)).body).toEqual({ plan_large_meeting: [], plan_webinar: [] });
    }
    for (const hosts of [min, max]) {
      const sub = await createSubAccount();
      expect((await subscribe(sub.id, { plan_base: { type, hosts } })).status).toBe(201);
    }
  });

  it.each([
    ['contact', { contact: undefined }],
    ['contact.city', { contact: { ...CONTACT, city: undefined } }],
    ['contact.email', { contact: { ...CONTACT, email: 'nope' } }],
    ['plan_base', { plan_base: undefined }],
    ['plan_base.hosts', { plan_base: { type: 'monthly' } }],
    ['plan_base.hosts', { plan_base: { type: 'monthly', hosts: 2.5 } }],
    ['plan_base.type', { plan_base: { type: 'platinum', hosts: 5 } }],
    ['plan_base.type', { plan_base: { type: 'webinar100_monthly', hosts: 5 } }],
    ['plan_vendor_rooms.type', { plan_vendor_rooms: { type: 'large100_monthly', hosts: 1 } }],
    [
      'plan_webinar.1.type',
      {
        plan_webinar: [
          { type: 'webinar100_monthly', hosts: 1 },
          { type: 'webinar100_monthly', hosts: 2 },
        ],
      },
    ],
    ['plan_large_meeting.0.hosts', { plan_large_meeting: [{ type: 'large100_monthly', hosts: 0 }] }],
    ['plan_recording', { plan_recording: 'cmr_forever' }],
    ['plan_audio.type', { plan_audio: { type: 'cmr_monthly_commitment_100' } }],
    ['plan_zoom_rooms', { plan_zoom_rooms: { type: 'zroom_monthly', hosts: 1 } }],
  ])('rejects an invalid %s and subscribes nothing', async (field, override) => {
    const sub = await createSubAccount();
    const res = await sb.v2('POST', `/accounts/${sub.id}/plans`, {
      body: { contact: CONTACT, plan_base: { type: 'monthly', hosts: 5 }, ...override },
    });
    expectFieldErrors(res, field);
    expect((await sb.v2('GET', `/accounts/${sub.id}/plans`)).body).toEqual({ plan_large_meeting: [], plan_webinar: [] });
    expect((await sb.v2('GET', `/accounts/${sub.id}/billing`)).body.city).toBe('');
  });

  it('answers 409 to a second subscription and keeps the first', async () => {
    const sub = await createSubAccount();
    await subscribe(sub.id);
    const res = await subscribe(sub.id, { plan_base: { type: 'trial', hosts: 100 } });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/already has a paid plan/);
    expect((await sb.v2('GET', `/accounts/${sub.id}/plans`)).body.plan_base).toEqual({ type: 'monthly', hosts: 5 });
  });

  it('refuses plans of an account that pays for itself', async () => {
    const sub = await createSubAccount({ options: { pay_mode: 'sub' } });
    for (const res of [await subscribe(sub.id), await sb.v2('GET', `/accounts/${sub.id}/plans`)]) {
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/pays for itself/);
    }
  });

  it('lets the master subscribe plans for itself as `me`', async () => {
    const alone = await startSandbox();
    try {
      const res = await alone.v2('POST', '/accounts/me/plans', { body: { contact: CONTACT, plan_base: { type: 'yearly', hosts: 3 } } });
      expect(res.status).toBe(201);
      expect((await alone.v2('GET', `/accounts/${alone.sandbox.master.id}/plans`)).body.plan_base).toEqual({ type: 'yearly', hosts: 3 });
    } finally {
      await alone.close();
    }
  });

  it("lets a sub account read its own plans, billing and settings as `me`, but not buy on its master's bill", async () => {
    const sub = await createSubAccount();
    const as = sub.as;
    for (const path of ['/accounts/me/plans', '/accounts/me/billing', `/accounts/${sub.id}/settings`]) {
      expect((await sb.v2('GET', path, { as })).status).toBe(200);
    }
    expect((await sb.v2('PATCH', '/accounts/me/settings', { as, body: { feature: { meeting_capacity: 10 } } })).status).toBe(204);
    expectNoPrivilege(
      await sb.v2('POST', '/accounts/me/plans', { as, body: { contact: CONTACT, plan_base: { type: 'monthly', hosts: 5 } } }),
    );
    expectNoPrivilege(await sb.v2('PATCH', '/accounts/me/billing', { as, body: { city: 'X' } }));
    expectNoPrivilege(await sb.v2('PUT', '/accounts/me/plans/base', { as, body: { type: 'monthly', hosts: 2 } }));
    expectNoPrivilege(await sb.v2('POST', '/accounts/me/plans/addons', { as, body: { type: 'large100_monthly', hosts: 1 } }));
    expect((await sb.v2('GET', '/accounts/me/plans', { as })).body).toEqual({ plan_large_meeting: [], plan_webinar: [] });
    expect((await sb.v2('GET', `/accounts/${sub.id}/billing`)).body.city).toBe('');
  });

  it('answers 404 2001 for an unknown account', async () => {
    expectAccountNotFound(await sb.v2('GET', '/accounts/no-such-account/plans'));
    expectAccountNotFound(await subscribe('no-such-account'));
  });
});

describe('PUT /accounts/{accountId}/plans/base', () => {
  it('changes the base plan and the seats', async () => {
    const sub = await createSubAccount();
    await subscribe(sub.id);
    const res = await sb.v2('PUT', `/accounts/${sub.id}/plans/base`, { body: { type: 'business_monthly', hosts: 30 } });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await sb.v2('GET', `/accounts/${sub.id}/plans`)).body.plan_base).toEqual({ type: 'business_monthly', hosts: 30 });
    const item = (await sb.v2('GET', '/accounts', { query: { page_size: 300 } })).body.accounts.find(
      (a: { id: string }) => a.id === sub.id,
    );
    expect(item.seats).toBe(30);
  });

  it('rejects a plan outside its range or not a base plan, and changes nothing', async () => {
    const sub = await createSubAccount();
    await subscribe(sub.id);
    expectFieldErrors(await sb.v2('PUT', `/accounts/${sub.id}/plans/base`, { body: { type: 'monthly', hosts: 10 } }), 'hosts');
    expectFieldErrors(await sb.v2('PUT', `/accounts/${sub.id}/plans/base`, { body: { type: 'zroom_monthly', hosts: 1 } }), 'type');
    expectFieldErrors(await sb.v2('PUT', `/accounts/${sub.id}/plans/base`, { body: {} }), 'type', 'hosts');
    expect((await sb.v2('GET', `/accounts/${sub.id}/plans`)).body.plan_base).toEqual({ type: 'monthly', hosts: 5 });
  });

  it('refuses a free account', async () => {
    const sub = await createSubAccount();
    const res = await sb.v2('PUT', `/accounts/${sub.id}/plans/base`, { body: { type: 'monthly', hosts: 2 } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/free account/);
  });

  it('answers 404 2001 for an unknown account', async () => {
    expectAccountNotFound(await sb.v2('PUT', '/accounts/no-such-account/plans/base', { body: { type: 'monthly', hosts: 2 } }));
  });
});

describe('POST and PUT /accounts/{accountId}/plans/addons', () => {
  it.each([
    ['zroom_yearly', (p: any) => p.plan_vendor_rooms, { type: 'zroom_yearly', hosts: 4 }],
    ['roomconnector_monthly', (p: any) => p.plan_room_connector, { type: 'roomconnector_monthly', hosts: 4 }],
    ['large300_yearly', (p: any) => p.plan_large_meeting, [{ type: 'large300_yearly', hosts: 4 }]],
    ['webinar5000_monthly', (p: any) => p.plan_webinar, [{ type: 'webinar5000_monthly', hosts: 4 }]],
    ['cmr_yearly_commitment_200', (p: any) => p.plan_recording, 'cmr_yearly_commitment_200'],
    ['tollfree_yearly_commitment_500', (p: any) => p.plan_audio?.type, 'tollfree_yearly_commitment_500'],
  ])('adds %s to its place in the plan set', async (type, place, expected) => {
    const sub = await createSubAccount();
    await subscribe(sub.id);
    const res = await sb.v2('POST', `/accounts/${sub.id}/plans/addons`, { body: { type, hosts: 4 } });
    expect(res.status).toBe(201);
    expect(res.body).toBeUndefined();
    expect(schemaProblems('POST', '/accounts/{accountId}/plans/addons', 201, res.body)).toEqual([]);
    expect(place((await sb.v2('GET', `/accounts/${sub.id}/plans`)).body)).toEqual(expected);
  });

  it('keeps several large meeting plans, one per type', async () => {
    const sub = await createSubAccount();
    await subscribe(sub.id);
    await sb.v2('POST', `/accounts/${sub.id}/plans/addons`, { body: { type: 'large100_monthly', hosts: 1 } });
    await sb.v2('POST', `/accounts/${sub.id}/plans/addons`, { body: { type: 'large200_monthly', hosts: 2 } });
    const again = await sb.v2('POST', `/accounts/${sub.id}/plans/addons`, { body: { type: 'large100_monthly', hosts: 3 } });
    expect(again.status).toBe(409);
    expect((await sb.v2('GET', `/accounts/${sub.id}/plans`)).body.plan_large_meeting).toEqual([
      { type: 'large100_monthly', hosts: 1 },
      { type: 'large200_monthly', hosts: 2 },
    ]);
  });

  it('answers 409 when the single add-on place is taken', async () => {
    const sub = await createSubAccount();
    await subscribe(sub.id, { plan_vendor_rooms: { type: 'zroom_monthly', hosts: 1 } });
    const res = await sb.v2('POST', `/accounts/${sub.id}/plans/addons`, { body: { type: 'zroom_yearly', hosts: 2 } });
    expect(res.status).toBe(409);
    expect((await sb.v2('GET', `/accounts/${sub.id}/plans`)).body.plan_vendor_rooms).toEqual({ type: 'zroom_monthly', hosts: 1 });
  });

  it('updates an add-on in place with PUT', async () => {
    const sub = await createSubAccount();
    await subscribe(sub.id, {
      plan_webinar: [
        { type: 'webinar100_monthly', hosts: 1 },
        { type: 'webinar500_monthly', hosts: 1 },
      ],
      plan_vendor_rooms: { type: 'zroom_monthly', hosts: 1 },
    });
    expect((await sb.v2('PUT', `/accounts/${sub.id}/plans/addons`, { body: { type: 'webinar100_monthly', hosts: 7 } })).status).toBe(204);
    expect((await sb.v2('PUT', `/accounts/${sub.id}/plans/addons`, { body: { type: 'zroom_yearly', hosts: 3 } })).status).toBe(204);
    const plans = (await sb.v2('GET', `/accounts/${sub.id}/plans`)).body;
    expect(plans.plan_webinar).toEqual([
      { type: 'webinar100_monthly', hosts: 7 },
      { type: 'webinar500_monthly', hosts: 1 },
    ]);
    expect(plans.plan_vendor_rooms).toEqual({ type: 'zroom_yearly', hosts: 3 });
  });

  it('refuses to PUT an add-on the account does not have', async () => {
    const sub = await createSubAccount();
    await subscribe(sub.id);
    const res = await sb.v2('PUT', `/accounts/${sub.id}/plans/addons`, { body: { type: 'webinar100_monthly', hosts: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/no plan_webinar add-on/);
    expect((await sb.v2('GET', `/accounts/${sub.id}/plans`)).body.plan_webinar).toEqual([]);
  });

  it.each(['POST', 'PUT'])('%s rejects a base plan type, a missing hosts and a free account', async (method) => {
    const sub = await createSubAccount();
    expect((await sb.v2(method, `/accounts/${sub.id}/plans/addons`, { body: { type: 'large100_monthly', hosts: 1 } })).status).toBe(400);
    await subscribe(sub.id);
    expectFieldErrors(await sb.v2(method, `/accounts/${sub.id}/plans/addons`, { body: { type: 'monthly', hosts: 1 } }), 'type');
    expectFieldErrors(await sb.v2(method, `/accounts/${sub.id}/plans/addons`, { body: { type: 'large100_monthly' } }), 'hosts');
    expectInvalidJson(await sb.v2(method, `/accounts/${sub.id}/plans/addons`, { rawBody: '{' }));
    expectAccountNotFound(await sb.v2(method, '/accounts/no-such-account/plans/addons', { body: { type: 'large100_monthly', hosts: 1 } }));
  });
});
