import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectExampleShape, expectV1Error, uniqueEmail, V1_TIME, v2User } from '../support/v1-answers.js';
import { v2Get } from './users-support.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

const freePmi = () => '4' + String(Date.now()).slice(-6) + String(Math.floor(Math.random() * 1000)).padStart(3, '0');

describe('/user/update', () => {
  it('writes the user object, the settings and the record views, and answers id and updated_at', async () => {
    const { id } = await v2User(gw);
    const pmi = freePmi();
    const answer = await gw.v1('/user/update', {
      id,
      first_name: 'Grace',
      last_name: 'Hopper',
      type: 3,
      pmi,
      timezone: 'Europe/Paris',
      dept: 'Navy',
      vanity_name: `grace${Date.now()}`,
      host_key: '654321',
      cms_user_id: 'cms-42',
      enable_use_pmi: 'true',
      disable_chat: 'true',
      enable_cmr: 'true',
      enable_record_speaker_view: 'true',
      enable_record_audio_file: '1',
      enable_phone_participants_password: 'true',
      enable_waiting_room: 'true',
      auto_delete_cmr_days: 10,
      track_id: 'dropped',
    });
    expectExampleShape(answer, '/user/update');
    expect(answer.id).toBe(id);
    expect(answer.updated_at).toMatch(V1_TIME);

    const user = await v2Get(gw, `/users/${id}`);
    expect(user).toMatchObject({
      first_name: 'Grace',
      last_name: 'Hopper',
      // v1's corp user (3) is a licensed one (2) today; the pmi a number.
      type: 2,
      pmi: Number(pmi),
      timezone: 'Europe/Paris',
      dept: 'Navy',
      host_key: '654321',
      cms_user_id: 'cms-42',
      use_pmi: true,
    });
    expect(user.vanity_url).toMatch(/\/my\/grace\d+$/);
    const settings = await v2Get(gw, `/users/${id}/settings`);
    expect(settings.in_meeting).toMatchObject({ chat: false, waiting_room: true });
    expect(settings.recording).toMatchObject({
      cloud_recording: true,
      record_speaker_view: true,
      record_audio_file: true,
      record_gallery_view: false,
      auto_delete_cmr_days: 10,
    });
    expect(settings.schedule_meeting).toMatchObject({ pstn_password_protected: true });

    // And v1 reads back what it wrote.
    expect(await gw.v1('/user/get', { id })).toMatchObject({
      first_name: 'Grace',
      type: 2,
      pmi: Number(pmi),
      disable_chat: true,
      enable_cmr: true,
      enable_record_speaker_view: true,
      timezone: 'Europe/Paris',
    });
  });

  it('applies no v1 defaults: fields left out stay as they are', async () => {
    const { id } = await v2User(gw);
    await gw.v2('PATCH', `/users/${id}/settings`, { body: { in_meeting: { annotation: false, chat: true } } });
    await gw.v1('/user/update', { id, enable_polling: 'true' });
    const settings = await v2Get(gw, `/users/${id}/settings`);
    expect(settings.in_meeting).toMatchObject({ annotation: false, chat: true, polling: true });
  });

  it('completes a composite given in part from the current v2 value', async () => {
    const { id } = await v2User(gw);
    await gw.v2('PATCH', `/users/${id}/settings`, {
      body: { in_meeting: { entry_exit_chime: 'all' }, recording: { auto_recording: 'cloud' } },
    });
    await gw.v1('/user/update', { id, option_enter_exit_chime_type: 1, enable_cloud_auto_recording: 'false' });
    let settings = await v2Get(gw, `/users/${id}/settings`);
    expect(settings.in_meeting.entry_exit_chime).toBe('host');
    expect(settings.recording.auto_recording).toBe('local');
    await gw.v1('/user/update', { id, enable_enter_exit_chime: 'false', enable_auto_recording: 'false' });
    settings = await v2Get(gw, `/users/${id}/settings`);
    expect(settings.in_meeting.entry_exit_chime).toBe('none');
    expect(settings.recording.auto_recording).toBe('none');
  });

  it('adds the user to group_id and imgroup_id', async () => {
    const { id } = await v2User(gw);
    const group = (await gw.v2('POST', '/groups', { body: { name: `g-${uniqueEmail()}` } })).body;
    const imGroup = (await gw.v2('POST', '/im/groups', { body: { name: `im-${uniqueEmail()}` } })).body;
    await gw.v1('/user/update', { id, group_id: group.id, imgroup_id: imGroup.id });
    expect(await v2Get(gw, `/users/${id}`)).toMatchObject({ group_ids: [group.id], im_group_ids: [imGroup.id] });
  });

  it('undoes every write when one fails: an unknown IM group leaves user, settings and groups as they were', async () => {
    const { id } = await v2User(gw, { first_name: 'Before' });
    const group = (await gw.v2('POST', '/groups', { body: { name: `g-${uniqueEmail()}` } })).body;
    const userBefore = await v2Get(gw, `/users/${id}`);
    const settingsBefore = await v2Get(gw, `/users/${id}/settings`);
    const answer = await gw.v1('/user/update', {
      id,
      first_name: 'After',
      dept: 'X',
      disable_chat: 'true',
      enable_cloud_auto_recording: 'true',
      group_id: group.id,
      imgroup_id: 'no-such-im-group',
    });
    expectV1Error(answer, 4130);
    expect(await v2Get(gw, `/users/${id}`)).toEqual(userBefore);
    expect(await v2Get(gw, `/users/${id}/settings`)).toEqual(settingsBefore);
    expect((await v2Get(gw, `/groups/${group.id}`)).total_members).toBe(0);
  });

  it('does not take back a membership the user already had', async () => {
    const { id } = await v2User(gw);
    const group = (await gw.v2('POST', '/groups', { body: { name: `g-${uniqueEmail()}` } })).body;
    await gw.v2('POST', `/groups/${group.id}/members`, { body: { members: [{ id }] } });
    expectV1Error(await gw.v1('/user/update', { id, group_id: group.id, imgroup_id: 'no-such-im-group' }), 4130);
    expect((await v2Get(gw, `/users/${id}`)).group_ids).toEqual([group.id]);
  });

  it('a taken pmi answers an error naming pmi, and the settings written beside it are put back', async () => {
    const holder = await v2User(gw);
    const takenPmi = (await v2Get(gw, `/users/${holder.id}`)).pmi;
    const { id } = await v2User(gw);
    const settingsBefore = await v2Get(gw, `/users/${id}/settings`);
    const answer = await gw.v1('/user/update', { id, pmi: takenPmi, disable_chat: 'true' });
    expect(answer.error.code).toBe(300);
    expect(answer.error.message).toMatch(/pmi|PMI/);
    expect(await v2Get(gw, `/users/${id}/settings`)).toEqual(settingsBefore);
  });

  it('answers 300 naming the field for malformed values, and changes nothing', async () => {
    const { id } = await v2User(gw);
    const userBefore = await v2Get(gw, `/users/${id}`);
    const settingsBefore = await v2Get(gw, `/users/${id}/settings`);
    const cases: [Record<string, string | number>, string][] = [
      [{ host_key: '12ab56' }, 'host_key'],
      [{ pmi: '12345' }, 'pmi'],
      [{ type: 9 }, 'type'],
      [{ enable_cmr: 'yes' }, 'enable_cmr'],
      [{ auto_delete_cmr_days: 61 }, 'auto_delete_cmr_days'],
      [{ large_capacity: 250 }, 'large_capacity'],
      [{ option_enter_exit_chime_type: 'host' }, 'option_enter_exit_chime_type'],
      [{ timezone: 'Mars/Olympus_Mons', disable_chat: 'true' }, 'timezone'],
      [{ vanity_name: '1-starts-with-digit' }, 'vanity_name'],
      [{ dept: 'x'.repeat(129) }, 'dept'],
    ];
    for (const [params, field] of cases) {
      expectV1Error(await gw.v1('/user/update', { id, ...params }), 300, new RegExp(`^Invalid parameter: ${field}\\.`));
    }
    expect(await v2Get(gw, `/users/${id}`)).toEqual(userBefore);
    expect(await v2Get(gw, `/users/${id}/settings`)).toEqual(settingsBefore);
  });

  it('answers 1001 for an unknown user, 300 for a missing id, 102 for a wrong secret', async () => {
    expectV1Error(await gw.v1('/user/update', { id: 'no-such-user', first_name: 'X' }), 1001);
    expect(await gw.v1('/user/update', { first_name: 'X' })).toEqual({ error: { code: 300, message: 'id is required.' } });
    expectV1Error(await gw.v1('/user/update', { id: 'x', api_secret: 'wrong' }), 102);
  });
});
