import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_ANSWERS } from '../../mappings/user-answers.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectV1Error, uniqueEmail, V1_TIME, v2User } from '../support/v1-answers.js';
import { expectUserShape, v2Get } from './users-support.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

const userCount = () => gw.sandbox.state.users.size;

describe('/user/create', () => {
  it('creates a pending user with the v1 defaults and answers the short v1 record', async () => {
    const email = uniqueEmail('create');
    const answer = await gw.v1('/user/create', { email, type: 1, first_name: 'Zoom', last_name: 'User' });
    expectUserShape(answer, USER_ANSWERS.create.fields);
    expect(answer).toMatchObject({
      email,
      type: 1,
      first_name: 'Zoom',
      last_name: 'User',
      status: 2,
      verified: 0,
      enable_webinar: false,
      enable_large: false,
      large_capacity: 0,
      webinar_capacity: 0,
    });
    expect(answer.created_at).toMatch(V1_TIME);

    const user = await v2Get(gw, `/users/${answer.id}`);
    expect(user).toMatchObject({ email, status: 'pending' });
    // v1 defaults, not v2's: chat, feedback, group HD and local recording on, annotation on, no auto recording, no chime.
    const settings = await v2Get(gw, `/users/${answer.id}/settings`);
    expect(settings.in_meeting).toMatchObject({
      chat: true,
      private_chat: true,
      feedback: true,
      group_hd: true,
      annotation: true,
      entry_exit_chime: 'none',
      attendee_on_hold: false,
    });
    expect(settings.recording).toMatchObject({ local_recording: true, cloud_recording: false, auto_recording: 'none' });
    expect(settings.email_notification).toMatchObject({ jbh_reminder: true, cancel_meeting_reminder: true });
  });

  it('answers 300 naming the field for a missing or malformed parameter, and creates nothing', async () => {
    const before = userCount();
    expect(await gw.v1('/user/create', { type: 1 })).toEqual({ error: { code: 300, message: 'email is required.' } });
    expect(await gw.v1('/user/create', { email: uniqueEmail() })).toEqual({ error: { code: 300, message: 'type is required.' } });
    expectV1Error(await gw.v1('/user/create', { email: uniqueEmail(), type: 4 }), 300, /^Invalid parameter: type\./);
    expectV1Error(await gw.v1('/user/create', { email: 'not-an-email', type: 1 }), 300, /^Invalid parameter: email\./);
    expectV1Error(
      await gw.v1('/user/create', { email: uniqueEmail(), type: 1, disable_chat: 'maybe' }),
      300,
      /^Invalid parameter: disable_chat\./,
    );
    expectV1Error(
      await gw.v1('/user/create', { email: uniqueEmail(), type: 1, option_enter_exit_chime_type: 2 }),
      300,
      /^Invalid parameter: option_enter_exit_chime_type\./,
    );
    expectV1Error(
      await gw.v1('/user/create', { email: uniqueEmail(), type: 1, webinar_capacity: 250 }),
      300,
      /^Invalid parameter: webinar_capacity\./,
    );
    expectV1Error(
      await gw.v1('/user/create', { email: uniqueEmail(), type: 1, first_name: 'x'.repeat(65) }),
      300,
      /^Invalid parameter: first_name\./,
    );
    expect(userCount()).toBe(before);
  });
});

describe('/user/autocreate', () => {
  it('creates an active user with the options given, and answers the full v1 user', async () => {
    const group = (await gw.v2('POST', '/groups', { body: { name: `g-${uniqueEmail()}` } })).body;
    const imGroup = (await gw.v2('POST', '/im/groups', { body: { name: `im-${uniqueEmail()}` } })).body;
    const email = uniqueEmail('auto');
    const answer = await gw.v1('/user/autocreate', {
      email,
      type: 2,
      password: 'secret-pass-1',
      first_name: 'Zoomie',
      last_name: 'Userton',
      disable_chat: 'true',
      enable_silent_mode: '1',
      enable_cloud_auto_recording: 'TRUE',
      enable_enter_exit_chime: 'true',
      option_enter_exit_chime_type: 1,
      enable_annotation: 'false',
      meeting_capacity: 50,
      enable_webinar: 'true',
      webinar_capacity: 500,
      enable_auto_delete_cmr: 'true',
      auto_delete_cmr_days: 30,
      dept: 'Engineer',
      group_id: group.id,
      imgroup_id: imGroup.id,
      track_id: 'partner-7',
    });
    expectUserShape(answer, USER_ANSWERS.full.fields);
    expect(answer).toMatchObject({
      email,
      type: 2,
      first_name: 'Zoomie',
      last_name: 'Userton',
      verified: 1,
      disable_chat: true,
      enable_silent_mode: true,
      enable_auto_recording: true, // "becomes true when enable_cloud_auto_recording is true"
      enable_cloud_auto_recording: true,
      enable_enter_exit_chime: true,
      enable_annotation: false,
      meeting_capacity: 50,
      enable_webinar: true,
      webinar_capacity: 500,
      enable_auto_delete_cmr: true,
      auto_delete_cmr_days: 30,
      dept: 'Engineer',
      lastLoginTime: '',
    });
    const v2 = await v2Get(gw, `/users/${answer.id}`);
    expect(answer.pmi).toBe(Number(v2.pmi));
    expect(v2).toMatchObject({ status: 'active', dept: 'Engineer', group_ids: [group.id], im_group_ids: [imGroup.id] });
    expect(answer.zak).toBe((await v2Get(gw, `/users/${answer.id}/token`, { type: 'zak' })).token);
    // The ZPK and the Zoom token are retired: today's service issues neither, and v1gate asks for neither.
    expect(answer.zpk).toBe('');
    expect(answer.token).toBe('');
    const settings = await v2Get(gw, `/users/${answer.id}/settings`);
    expect(settings.in_meeting).toMatchObject({ chat: false, attendee_on_hold: true, entry_exit_chime: 'host', annotation: false });
    expect(settings.recording).toMatchObject({ auto_recording: 'cloud', auto_delete_cmr: true, auto_delete_cmr_days: 30 });
    expect(settings.feature).toMatchObject({ meeting_capacity: 50, webinar: true, webinar_capacity: 500 });
  });

  it('answers 300 for a missing password and 300 naming password when v2 refuses it, creating nothing', async () => {
    const before = userCount();
    expect(await gw.v1('/user/autocreate', { email: uniqueEmail(), type: 1 })).toEqual({
      error: { code: 300, message: 'password is required.' },
    });
    expectV1Error(
      await gw.v1('/user/autocreate', { email: uniqueEmail(), type: 1, password: 'short' }),
      300,
      /^Invalid parameter: password\./,
    );
    expect(userCount()).toBe(before);
  });
});

describe('/user/custcreate', () => {
  it('creates an active user without password and answers the full v1 user', async () => {
    const email = uniqueEmail('cust');
    const answer = await gw.v1('/user/custcreate', { email, type: 1 });
    expectUserShape(answer, USER_ANSWERS.full.fields);
    expect(answer).toMatchObject({
      email,
      type: 1,
      disable_chat: false,
      enable_auto_recording: false,
      enable_cloud_auto_recording: false,
      enable_annotation: true,
      enable_enter_exit_chime: false,
    });
    expect(gw.sandbox.state.users.get(answer.id)).toMatchObject({ created_by: 'custCreate', password: null });
  });
});

describe('/user/ssocreate', () => {
  it('creates an SSO user with pmi and capacities, answering vanity_url, timezone and the record views too', async () => {
    const email = uniqueEmail('sso');
    const pmi = '3' + String(Date.now()).slice(-9);
    const answer = await gw.v1('/user/ssocreate', { email, type: 2, first_name: 'Sso', pmi, enable_large: 'true', large_capacity: 300 });
    expectUserShape(answer, USER_ANSWERS.ssocreate.fields);
    expect(answer).toMatchObject({
      email,
      type: 2,
      pmi: Number(pmi),
      enable_large: true,
      large_capacity: 300,
      enable_record_speaker_view: false,
    });
    expect(answer.vanity_url).toMatch(/\/my\//);
    expect(gw.sandbox.state.users.get(answer.id)).toMatchObject({ created_by: 'ssoCreate' });
  });

  it('deletes the new user again when a later step fails (pmi taken)', async () => {
    const holder = await v2User(gw);
    const takenPmi = (await v2Get(gw, `/users/${holder.id}`)).pmi;
    const email = uniqueEmail('sso-taken');
    const answer = await gw.v1('/user/ssocreate', { email, type: 2, pmi: takenPmi });
    expect(answer.error.code).toEqual(expect.any(Number));
    expect(answer.error.message).toMatch(/pmi|PMI/);
    expect(await gw.v1('/user/checkemail', { email })).toEqual({ existed_email: false });
  });
});

describe('all create variants', () => {
  const variants = [
    ['/user/create', {}],
    ['/user/autocreate', { password: 'secret-pass-1' }],
    ['/user/custcreate', {}],
    ['/user/ssocreate', {}],
  ] as const;

  for (const [path, extra] of variants) {
    it(`${path}: an existing email answers 1005 and changes nothing`, async () => {
      const existing = await v2User(gw);
      const before = userCount();
      expectV1Error(await gw.v1(path, { email: existing.email, type: 1, ...extra }), 1005);
      expect(userCount()).toBe(before);
    });

    it(`${path}: an unknown group answers 4130 and the user is deleted again`, async () => {
      const imGroup = (await gw.v2('POST', '/im/groups', { body: { name: `im-${uniqueEmail()}` } })).body;
      const email = uniqueEmail('rollback');
      const before = userCount();
      expectV1Error(await gw.v1(path, { email, type: 1, group_id: 'no-such-group', imgroup_id: imGroup.id, ...extra }), 4130);
      expect(userCount()).toBe(before);
      expect(await gw.v1('/user/checkemail', { email })).toEqual({ existed_email: false });
      expect((await v2Get(gw, `/im/groups/${imGroup.id}`)).total_members).toBe(0);
    });

    it(`${path}: a wrong secret answers 102`, async () => {
      expectV1Error(await gw.v1(path, { email: uniqueEmail(), type: 1, api_secret: 'wrong', ...extra }), 102);
    });
  }
});
