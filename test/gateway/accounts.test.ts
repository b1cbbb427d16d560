import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectV1Error, expectV1Shape, uniqueEmail, V1_TIME, v1ExampleShape } from '../support/v1-answers.js';
import { faultyGate } from './groups-support.js';

let gw: TestGateway;
const gate = faultyGate();
beforeAll(async () => {
  gw = await startTestGateway({}, { outbound: gate });
});
afterAll(() => gw.close());

const OWNER = { first_name: 'Sub', last_name: 'Owner', password: 'secret-pass-1' };
const ACCOUNT_SHAPE = v1ExampleShape('/ma/account/create');
const ACTION_SHAPE = v1ExampleShape('/ma/account/update');

/** A sub account made through v2, as a fixture. */
async function createSubAccount(options: Record<string, unknown> = {}): Promise<{ id: string; email: string }> {
  const email = uniqueEmail('sub');
  const res = await gw.v2('POST', '/accounts', { body: { ...OWNER, email, options } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, email };
}

const accountCount = async () => (await gw.v2('GET', '/accounts', { query: { page_size: 300 } })).body.total_records as number;
const v2Account = async (id: string) => (await gw.v2('GET', `/accounts/${id}`)).body;
const v2Settings = async (id: string) => (await gw.v2('GET', `/accounts/${id}/settings`)).body;

function inFlight<T>(method: string, path: RegExp, work: () => Promise<T>): Promise<T> {
  gate.failing = { method, path };
  return work().finally(() => {
    gate.failing = null;
  });
}

describe('/ma/account/create', () => {
  it('creates the sub account with v1 defaults in options and settings', async () => {
    const email = uniqueEmail('sub');
    const answer = await gw.v1('/ma/account/create', { ...OWNER, email });
    expectV1Shape(answer, ACCOUNT_SHAPE, { inOrder: true });
    expect(answer).toMatchObject({ owner_email: email, created_at: expect.stringMatching(V1_TIME) });
    expect((await v2Account(answer.id)).options).toEqual({
      share_rc: false,
      room_connectors: '',
      share_mc: false,
      meeting_connectors: '',
      pay_mode: 'master',
    });
    const settings = await v2Settings(answer.id);
    // v1's default turns the cloud recording reminder on (v2's is off); pstn on keeps audio `both`.
    expect(settings.email_notification.cloud_recording_available_reminder).toBe(true);
    expect(settings.schedule_meeting).toMatchObject({ audio_type: 'both', enforce_login: false, enforce_login_with_domains: false });
    expect(settings.recording).toMatchObject({ cloud_recording_download_host: false, account_user_access_recording: false });
    expect(settings.feature.meeting_capacity).toBe(100);
  });

  it('sends each v1 option to its v2 home', async () => {
    const answer = await gw.v1('/ma/account/create', {
      ...OWNER,
      email: uniqueEmail('sub'),
      pay_mode: 0,
      enable_share_rc: 'true',
      share_rc: 'rc1,rc2',
      enable_share_mc: 1,
      share_mc: 'mc1',
      collection_method: 0,
      enable_pstn: 'false',
      enable_enforce_login: true,
      enable_enforce_login_sd: true,
      enforce_login_domains: 'example.com',
      meeting_capacity: 50,
      disable_cmr_reminder: true,
      enable_only_host_download_cmr: true,
      enable_same_account_access_cmr: true,
    });
    expectV1Shape(answer, ACCOUNT_SHAPE, { inOrder: true });
    expect((await v2Account(answer.id)).options).toEqual({
      share_rc: true,
      room_connectors: 'rc1,rc2',
      share_mc: true,
      meeting_connectors: 'mc1',
      pay_mode: 'sub',
    });
    const settings = await v2Settings(answer.id);
    expect(settings.schedule_meeting).toMatchObject({
      audio_type: 'voip',
      enforce_login: true,
      enforce_login_with_domains: true,
      enforce_login_domains: 'example.com',
    });
    expect(settings.feature.meeting_capacity).toBe(50);
    expect(settings.email_notification.cloud_recording_available_reminder).toBe(false);
    expect(settings.recording).toMatchObject({ cloud_recording_download_host: true, account_user_access_recording: true });
  });

  it('answers 1005 for an email in use, and creates nothing', async () => {
    const { email } = await createSubAccount();
    const before = await accountCount();
    expectV1Error(await gw.v1('/ma/account/create', { ...OWNER, email }), 1005);
    expect(await accountCount()).toBe(before);
  });

  it('answers 300 naming the field for bad input, and creates nothing', async () => {
    const before = await accountCount();
    const email = uniqueEmail('sub');
    expect(await gw.v1('/ma/account/create', { ...OWNER, password: undefined, email })).toEqual({
      error: { code: 300, message: 'password is required.' },
    });
    expectV1Error(
      await gw.v1('/ma/account/create', { ...OWNER, email, meeting_capacity: 101 }),
      300,
      'Invalid parameter: meeting_capacity. Must be at most 100.',
    );
    expectV1Error(await gw.v1('/ma/account/create', { ...OWNER, email, pay_mode: 2 }), 300, /^Invalid parameter: pay_mode\./);
    expectV1Error(await gw.v1('/ma/account/create', { ...OWNER, email, enable_pstn: 'yes' }), 300, /^Invalid parameter: enable_pstn\./);
    expectV1Error(
      await gw.v1('/ma/account/create', { ...OWNER, email, collection_method: 5 }),
      300,
      /^Invalid parameter: collection_method\./,
    );
    expectV1Error(await gw.v1('/ma/account/create', { ...OWNER, email: 'not-an-email' }), 300, /^Invalid parameter: email\./);
    // v2's own rule (password of at least 8 characters) comes back naming the v1 field.
    expectV1Error(await gw.v1('/ma/account/create', { ...OWNER, email, password: 'short' }), 300, /^Invalid parameter: password\./);
    expect(await accountCount()).toBe(before);
  });

  it('takes the account back when its settings cannot be written, and says what that means', async () => {
    const before = await accountCount();
    const email = uniqueEmail('sub');
    const answer = await inFlight('PATCH', /^\/accounts\/[^/]+\/settings$/, () => gw.v1('/ma/account/create', { ...OWNER, email }));
    expectV1Error(answer, 503, /disassociated from the master account/);
    expect(answer.error.message).toContain(email);
    expect(await accountCount()).toBe(before);
  });
});

describe('/ma/account/list', () => {
  it('answers v1 paging and subAccounts items', async () => {
    await createSubAccount();
    const answer = await gw.v1('/ma/account/list', { page_size: 1 });
    expectV1Shape(
      answer,
      { page_count: 'number', page_number: 'number', page_size: 'number', total_records: 'number', subAccounts: 'array' },
      { inOrder: true },
    );
    expect(answer).toMatchObject({ page_number: 1, page_size: 1, total_records: await accountCount() });
    expectV1Shape(
      answer.subAccounts[0],
      {
        id: 'string',
        owner_email: 'string',
        account_name: 'string',
        account_type: 'string',
        seats: 'number',
        subscription_start_time: 'string',
        subscription_end_time: 'string',
        created_at: 'string',
      },
      { inOrder: true },
    );
  });
});

describe('/ma/account/get', () => {
  it('answers id, owner_id, owner_email and created_at', async () => {
    const { id, email } = await createSubAccount();
    const answer = await gw.v1('/ma/account/get', { account_id: id });
    expectV1Shape(answer, ACCOUNT_SHAPE, { inOrder: true });
    expect(answer).toMatchObject({ id, owner_email: email });
  });

  it('answers 2001 for an unknown account and 300 without account_id', async () => {
    expectV1Error(await gw.v1('/ma/account/get', { account_id: 'no-such-account' }), 2001);
    expect(await gw.v1('/ma/account/get', {})).toEqual({ error: { code: 300, message: 'account_id is required.' } });
  });
});

describe('/ma/account/update', () => {
  it('changes only the options and settings given', async () => {
    const { id } = await createSubAccount({ share_rc: true, room_connectors: 'rc' });
    const answer = await gw.v1('/ma/account/update', {
      account_id: id,
      pay_mode: 0,
      share_mc: 'mc9',
      enable_call_out: true,
      meeting_capacity: 80,
    });
    expectV1Shape(answer, ACTION_SHAPE, { inOrder: true });
    expect(answer).toEqual({ id, updated_at: expect.stringMatching(V1_TIME) });
    expect((await v2Account(id)).options).toEqual({
      share_rc: true,
      room_connectors: 'rc',
      share_mc: false,
      meeting_connectors: 'mc9',
      pay_mode: 'sub',
    });
    const settings = await v2Settings(id);
    expect(settings.feature.meeting_capacity).toBe(80);
    // No v1 defaults on update: the reminder stays as v2 had it.
    expect(settings.email_notification.cloud_recording_available_reminder).toBe(false);
    expect(settings.schedule_meeting.audio_type).toBe('both');
  });

  it('reads back what v2 changed elsewhere (pay_mode 1 is master)', async () => {
    const { id } = await createSubAccount({ pay_mode: 'sub' });
    await gw.v1('/ma/account/update', { account_id: id, pay_mode: 1, enable_pstn: false });
    expect((await v2Account(id)).options.pay_mode).toBe('master');
    expect((await v2Settings(id)).schedule_meeting.audio_type).toBe('voip');
  });

  it('puts the options back when the settings cannot be written', async () => {
    const { id } = await createSubAccount({ share_rc: true, room_connectors: 'rc' });
    const before = await v2Account(id);
    const answer = await inFlight('PATCH', /\/settings$/, () =>
      gw.v1('/ma/account/update', { account_id: id, enable_share_rc: false, share_rc: 'other', meeting_capacity: 10 }),
    );
    expectV1Error(answer, 503);
    expect(await v2Account(id)).toEqual(before);
  });

  it('answers 2001 for an unknown account (with or without changes) and 300 for a bad value', async () => {
    expectV1Error(await gw.v1('/ma/account/update', { account_id: 'no-such-account' }), 2001);
    expectV1Error(await gw.v1('/ma/account/update', { account_id: 'no-such-account', enable_share_rc: true }), 2001);
    expectV1Error(await gw.v1('/ma/account/update', { account_id: 'no-such-account', meeting_capacity: 5 }), 2001);
    const { id } = await createSubAccount();
    const before = await v2Settings(id);
    expectV1Error(
      await gw.v1('/ma/account/update', { account_id: id, meeting_capacity: 'lots' }),
      300,
      /^Invalid parameter: meeting_capacity\./,
    );
    expect(await v2Settings(id)).toEqual(before);
  });
});

describe('/ma/account/delete', () => {
  it('disassociates the account and answers id and deleted_at', async () => {
    const { id } = await createSubAccount();
    const answer = await gw.v1('/ma/account/delete', { account_id: id });
    expectV1Shape(answer, { id: 'string', deleted_at: 'string' }, { inOrder: true });
    expect(answer).toEqual({ id, deleted_at: expect.stringMatching(V1_TIME) });
    expect((await gw.v2('GET', `/accounts/${id}`)).status).toBe(404);
    expectV1Error(await gw.v1('/ma/account/delete', { account_id: id }), 2001);
  });
});
