import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultUserSettings } from '../../src/sandbox/users/defaults.js';
import { USER_SETTINGS_FIELDS } from '../../src/sandbox/users/settings.js';
import { schemaProblems } from '../support/openapi.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { createUser, expectFieldError, expectUserNotFound } from './users-support.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

const settingsOf = async (id: string) => {
  const res = await sb.v2('GET', `/users/${id}/settings`);
  expect(res.status).toBe(200);
  return res.body;
};

describe('GET /users/{userId}/settings', () => {
  it('answers the nested groups with the spec defaults', async () => {
    const { id } = await createUser(sb);
    const res = await sb.v2('GET', `/users/${id}/settings`);
    expect(res.status).toBe(200);
    expect(schemaProblems('GET', '/users/{userId}/settings', 200, res.body)).toEqual([]);
    expect(Object.keys(res.body).sort()).toEqual([
      'email_notification',
      'feature',
      'in_meeting',
      'recording',
      'schedule_meeting',
      'telephony',
    ]);
    expect(res.body.schedule_meeting).toMatchObject({ audio_type: 'voip', host_video: false });
    expect(res.body.recording).toMatchObject({ auto_recording: 'local', auto_delete_cmr: false, cloud_recording: false });
    expect(res.body.feature).toMatchObject({ cn_meeting: false, in_meeting: false, meeting_capacity: 100 });
    expect(res.body.in_meeting.entry_exit_chime).toBe('all');
  });

  it('has a PATCH rule (or a read-only mark) for every field GET shows', () => {
    // The PATCH table and the defaults must name the same fields, or GET would show something PATCH refuses.
    const shown = Object.entries(defaultUserSettings()).flatMap(([group, fields]) => Object.keys(fields).map((f) => `${group}.${f}`));
    const writable = Object.entries(USER_SETTINGS_FIELDS).flatMap(([group, fields]) => Object.keys(fields).map((f) => `${group}.${f}`));
    expect(writable.sort()).toEqual(shown.sort());
  });

  it('answers 404 for an unknown user and 400 for a bad login_type', async () => {
    expectUserNotFound(await sb.v2('GET', '/users/nobody/settings'));
    expectFieldError(await sb.v2('GET', '/users/me/settings', { query: { login_type: 'x' } }), 'login_type');
  });
});

describe('PATCH /users/{userId}/settings', () => {
  it('changes only the fields it names, in every group, and answers 204 with no body', async () => {
    const { id } = await createUser(sb);
    const before = await settingsOf(id);
    const patch = {
      schedule_meeting: { host_video: true, audio_type: 'thirdParty' },
      in_meeting: { chat: true, entry_exit_chime: 'none', share_dual_camera: true },
      email_notification: { jbh_reminder: true },
      recording: { auto_delete_cmr: true, auto_delete_cmr_days: 60, auto_recording: 'cloud' },
      telephony: { audio_conference_info: 'x'.repeat(2048), third_party_audio: true },
      feature: { large_meeting: true, large_meeting_capacity: 500, webinar: true, webinar_capacity: 10000, meeting_capacity: 300 },
    };
    const res = await sb.v2('PATCH', `/users/${id}/settings`, { body: patch });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const after = await settingsOf(id);
    const expected = structuredClone(before);
    for (const [group, fields] of Object.entries(patch)) Object.assign(expected[group], fields);
    expect(after).toEqual(expected);
  });

  it("takes and answers today's schedule_meeting, and refuses a former spec's scheduled_meeting as unknown", async () => {
    const { id } = await createUser(sb);
    expect((await sb.v2('PATCH', `/users/${id}/settings`, { body: { schedule_meeting: { join_before_host: true } } })).status).toBe(204);
    const settings = await settingsOf(id);
    expect(settings.schedule_meeting.join_before_host).toBe(true);
    expect(settings.scheduled_meeting).toBeUndefined();
    const refused = await sb.v2('PATCH', `/users/${id}/settings`, { body: { scheduled_meeting: { join_before_host: false } } });
    expect(refused.status).toBe(400);
    expect((await settingsOf(id)).schedule_meeting.join_before_host).toBe(true);
  });

  it('accepts an empty body', async () => {
    const { id } = await createUser(sb);
    expect((await sb.v2('PATCH', `/users/${id}/settings`, { rawBody: '' })).status).toBe(204);
    expect((await sb.v2('PATCH', `/users/${id}/settings`, { body: {} })).status).toBe(204);
  });

  it.each([
    ['recording.auto_delete_cmr_days', { recording: { auto_delete_cmr_days: 0 } }],
    ['recording.auto_delete_cmr_days', { recording: { auto_delete_cmr_days: 61 } }],
    ['recording.auto_delete_cmr_days', { recording: { auto_delete_cmr_days: 1.5 } }],
    ['recording.auto_delete_cmr_days', { recording: { auto_delete_cmr_days: '30' } }],
    ['recording.auto_recording', { recording: { auto_recording: 'disk' } }],
    ['telephony.audio_conference_info', { telephony: { audio_conference_info: 'x'.repeat(2049) } }],
    ['in_meeting.entry_exit_chime', { in_meeting: { entry_exit_chime: 'everyone' } }],
    ['in_meeting.chat', { in_meeting: { chat: 'true' } }],
    ['schedule_meeting.audio_type', { schedule_meeting: { audio_type: 'pstn' } }],
    ['feature.large_meeting_capacity', { feature: { large_meeting_capacity: 1000 } }],
    ['feature.webinar_capacity', { feature: { webinar_capacity: 200 } }],
    ['feature.meeting_capacity', { feature: { meeting_capacity: 0 } }],
    ['feature.cn_meeting', { feature: { cn_meeting: true } }],
    ['feature.in_meeting', { feature: { in_meeting: true } }],
    ['in_meeting.allow_live_streaming', { in_meeting: { allow_live_streaming: true } }],
    ['security', { security: { admin_change_name_pic: true } }],
    ['recording', { recording: true }],
  ])('answers 400 naming %s for %j and changes nothing', async (field, body) => {
    const { id } = await createUser(sb);
    const before = await settingsOf(id);
    // A valid change next to the bad one must not be applied either.
    const res = await sb.v2('PATCH', `/users/${id}/settings`, { body: { email_notification: { jbh_reminder: true }, ...body } });
    expectFieldError(res, field);
    expect(await settingsOf(id)).toEqual(before);
  });

  it('answers 400 for invalid JSON and 404 for an unknown user', async () => {
    const res = await sb.v2('PATCH', '/users/me/settings', { rawBody: '{"in_meeting":' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 300, message: 'Request Body should be a valid JSON object.' });
    expectUserNotFound(await sb.v2('PATCH', '/users/nobody/settings', { body: {} }));
  });
});
