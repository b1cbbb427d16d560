import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaProblems } from '../support/openapi.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import {
  createUser,
  expectFieldError,
  expectUserNotFound,
  getUser,
  plantMeeting,
  plantSubAccount,
  type CreatedUser,
} from './users-support.js';

/** Assistants, schedulers, and what DELETE /users/{userId} does to everything that named the user. */

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

const assistantIdsOf = async (ref: string) =>
  (await sb.v2('GET', `/users/${ref}/assistants`)).body.assistants.map((a: { id: string }) => a.id);
const schedulerIdsOf = async (ref: string) =>
  (await sb.v2('GET', `/users/${ref}/schedulers`)).body.assistants.map((a: { id: string }) => a.id);

describe('assistants', () => {
  it('adds assistants by id or email and lists them', async () => {
    const boss = await createUser(sb);
    const [a, b] = [await createUser(sb), await createUser(sb)];
    const res = await sb.v2('POST', `/users/${boss.id}/assistants`, {
      body: { assistants: [{ id: a.id }, { email: b.email.toUpperCase() }] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ ids: `${a.id},${b.id}`, add_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) });
    expect(schemaProblems('POST', '/users/{userId}/assistants', 201, res.body)).toEqual([]);

    const list = await sb.v2('GET', `/users/${boss.id}/assistants`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      assistants: [
        { id: a.id, email: a.email },
        { id: b.id, email: b.email },
      ],
    });
    expect(schemaProblems('GET', '/users/{userId}/assistants', 200, list.body)).toEqual([]);

    // Adding one again does not list it twice.
    expect((await sb.v2('POST', `/users/${boss.id}/assistants`, { body: { assistants: [{ id: a.id }] } })).status).toBe(201);
    expect(await assistantIdsOf(boss.id)).toEqual([a.id, b.id]);
  });

  it('prefers the id when an entry gives both', async () => {
    const [boss, a, b] = [await createUser(sb), await createUser(sb), await createUser(sb)];
    await sb.v2('POST', `/users/${boss.id}/assistants`, { body: { assistants: [{ id: a.id, email: b.email }] } });
    expect(await assistantIdsOf(boss.id)).toEqual([a.id]);
  });

  it('answers 404 for an assistant who is no user of the account, and adds nobody', async () => {
    const [boss, a] = [await createUser(sb), await createUser(sb)];
    const sub = plantSubAccount(sb);
    for (const stranger of [{ email: 'nobody@example.com' }, { id: 'nobody' }, { id: sub.ownerId }]) {
      const res = await sb.v2('POST', `/users/${boss.id}/assistants`, { body: { assistants: [{ id: a.id }, stranger] } });
      expectUserNotFound(res);
    }
    expect(await assistantIdsOf(boss.id)).toEqual([]);
  });

  it.each([
    ['assistants', {}],
    ['assistants', { assistants: [] }],
    ['assistants', { assistants: Array.from({ length: 31 }, (_, i) => ({ id: `u${i}` })) }],
    ['assistants.0', { assistants: [{}] }],
    ['assistants.0.id', { assistants: [{ id: 5 }] }],
    ['assistants.0.name', { assistants: [{ id: 'x', name: 'y' }] }],
  ])('answers 400 naming %s for %j', async (field, body) => {
    const boss = await createUser(sb);
    expectFieldError(await sb.v2('POST', `/users/${boss.id}/assistants`, { body }), field);
  });

  it('refuses a user as their own assistant', async () => {
    const boss = await createUser(sb);
    expectFieldError(await sb.v2('POST', `/users/${boss.id}/assistants`, { body: { assistants: [{ id: boss.id }] } }), 'assistants.0');
  });

  it('accepts 30 assistants in one call', async () => {
    const boss = await createUser(sb);
    const many: CreatedUser[] = [];
    for (let i = 0; i < 30; i++) many.push(await createUser(sb));
    const res = await sb.v2('POST', `/users/${boss.id}/assistants`, { body: { assistants: many.map((u) => ({ id: u.id })) } });
    expect(res.status).toBe(201);
    expect(await assistantIdsOf(boss.id)).toHaveLength(30);
  });

  it('deletes one assistant by id or email, or all of them', async () => {
    const [boss, a, b, c] = [await createUser(sb), await createUser(sb), await createUser(sb), await createUser(sb)];
    await sb.v2('POST', `/users/${boss.id}/assistants`, { body: { assistants: [{ id: a.id }, { id: b.id }, { id: c.id }] } });
    const one = await sb.v2('DELETE', `/users/${boss.id}/assistants/${a.id}`);
    expect(one.status).toBe(204);
    expect(one.body).toBeUndefined();
    expect((await sb.v2('DELETE', `/users/${boss.id}/assistants/${b.email}`)).status).toBe(204);
    expect(await assistantIdsOf(boss.id)).toEqual([c.id]);
    // No longer an assistant: 404.
    expectUserNotFound(await sb.v2('DELETE', `/users/${boss.id}/assistants/${a.id}`));
    expectUserNotFound(await sb.v2('DELETE', `/users/${boss.id}/assistants/nobody`));
    const all = await sb.v2('DELETE', `/users/${boss.id}/assistants`);
    expect(all.status).toBe(204);
    expect(await assistantIdsOf(boss.id)).toEqual([]);
  });

  it('answers 404 for an unknown user on every assistants route', async () => {
    expectUserNotFound(await sb.v2('GET', '/users/nobody/assistants'));
    expectUserNotFound(await sb.v2('POST', '/users/nobody/assistants', { body: { assistants: [{ id: 'x' }] } }));
    expectUserNotFound(await sb.v2('DELETE', '/users/nobody/assistants'));
    expectUserNotFound(await sb.v2('DELETE', '/users/nobody/assistants/x'));
  });
});

describe('schedulers', () => {
  it('lists the users who have the user as assistant, and deletes them one by one or all at once', async () => {
    const [helper, boss1, boss2, boss3] = [await createUser(sb), await createUser(sb), await createUser(sb), await createUser(sb)];
    for (const boss of [boss1, boss2, boss3]) {
      await sb.v2('POST', `/users/${boss.id}/assistants`, { body: { assistants: [{ id: helper.id }] } });
    }
    const list = await sb.v2('GET', `/users/${helper.id}/schedulers`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ assistants: [boss1, boss2, boss3].map(({ id, email }) => ({ id, email })) });
    expect(schemaProblems('GET', '/users/{userId}/schedulers', 200, list.body)).toEqual([]);

    const one = await sb.v2('DELETE', `/users/${helper.id}/schedulers/${boss1.id}`);
    expect(one.status).toBe(204);
    expect(one.body).toBeUndefined();
    expect(await assistantIdsOf(boss1.id)).toEqual([]);
    expect(await schedulerIdsOf(helper.id)).toEqual([boss2.id, boss3.id]);
    expectUserNotFound(await sb.v2('DELETE', `/users/${helper.id}/schedulers/${boss1.id}`));

    expect((await sb.v2('DELETE', `/users/${helper.id}/schedulers`)).status).toBe(204);
    expect(await schedulerIdsOf(helper.id)).toEqual([]);
    expect(await assistantIdsOf(boss2.id)).toEqual([]);
  });

  it('answers 404 for an unknown user on every schedulers route', async () => {
    expectUserNotFound(await sb.v2('GET', '/users/nobody/schedulers'));
    expectUserNotFound(await sb.v2('DELETE', '/users/nobody/schedulers'));
    expectUserNotFound(await sb.v2('DELETE', '/users/nobody/schedulers/x'));
  });
});

describe('DELETE /users/{userId}', () => {
  const accountId = () => sb.sandbox.master.id;

  /** A user with a meeting, a webinar, a recorded meeting, a group, an IM group, an assistant and a scheduler. */
  async function busyUser() {
    const user = await createUser(sb);
    const userZak = (await sb.v2('GET', `/users/${user.id}/token`, { query: { type: 'zak' } })).body.token;
    const [assistant, scheduler] = [await createUser(sb), await createUser(sb)];
    await sb.v2('POST', `/users/${user.id}/assistants`, { body: { assistants: [{ id: assistant.id }] } });
    await sb.v2('POST', `/users/${scheduler.id}/assistants`, { body: { assistants: [{ id: user.id }, { id: assistant.id }] } });
    const { state } = sb.sandbox;
    const meeting = plantMeeting(state, user.id, accountId(), 'meeting', {
      startUrl: `https://sandbox.v1gate.local/s/{id}?zak=${userZak}`,
    });
    const webinar = plantMeeting(state, user.id, accountId(), 'webinar');
    const recorded = plantMeeting(state, user.id, accountId(), 'meeting', { recorded: true });
    const groupId = `g-${user.id}`;
    const imGroupId = `im-${user.id}`;
    state.groups.set(groupId, { id: groupId, account_id: accountId(), name: groupId, member_ids: [assistant.id, user.id] });
    state.imGroups.set(imGroupId, {
      id: imGroupId,
      account_id: accountId(),
      name: imGroupId,
      type: 'normal',
      search_by_domain: false,
      search_by_account: false,
      search_by_ma_account: false,
      member_ids: [user.id],
      created_at: state.nowIso(),
      last_modified_time: state.nowIso(),
    });
    return { user, assistant, scheduler, meeting, webinar, recorded, groupId, imGroupId };
  }

  it('disassociates by default: the user leaves the account, its groups and assistant lists, and their meetings go', async () => {
    const { user, assistant, scheduler, meeting, webinar, recorded, groupId, imGroupId } = await busyUser();
    const res = await sb.v2('DELETE', `/users/${user.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();

    expectUserNotFound(await sb.v2('GET', `/users/${user.id}`));
    const list = await sb.v2('GET', '/users', { query: { page_size: 300 } });
    expect(list.body.users.map((u: { id: string }) => u.id)).not.toContain(user.id);
    const { state } = sb.sandbox;
    for (const m of [meeting, webinar, recorded]) {
      expect(state.meetings.has(m.id)).toBe(false);
      expect(state.instancesByUuid.has(m.instances[0]!.uuid)).toBe(false);
    }
    expect(state.groups.get(groupId)!.member_ids).toEqual([assistant.id]);
    expect(state.imGroups.get(imGroupId)!.member_ids).toEqual([]);
    expect(await assistantIdsOf(scheduler.id)).toEqual([assistant.id]);
    expect(await schedulerIdsOf(assistant.id)).toEqual([scheduler.id]);
    // The person still exists elsewhere: the email stays taken.
    expect((await sb.v2('GET', '/users/email', { query: { email: user.email } })).body.existed_email).toBe(true);
    const again = await sb.v2('POST', '/users', { body: { action: 'custCreate', user_info: { email: user.email, type: 1 } } });
    expect(again.status).toBe(409);
  });

  it('deletes permanently with action delete, which frees the email', async () => {
    const { user } = await busyUser();
    expect((await sb.v2('DELETE', `/users/${user.email}`, { query: { action: 'delete' } })).status).toBe(204);
    expectUserNotFound(await sb.v2('GET', `/users/${user.id}`));
    expect((await sb.v2('GET', '/users/email', { query: { email: user.email } })).body.existed_email).toBe(false);
    await createUser(sb, { email: user.email });
  });

  it('transfers meetings and webinars to transfer_email when asked', async () => {
    const { user, assistant, meeting, webinar, recorded } = await busyUser();
    const res = await sb.v2('DELETE', `/users/${user.id}`, {
      query: { action: 'delete', transfer_email: assistant.email, transfer_meeting: true, transfer_webinar: true },
    });
    expect(res.status).toBe(204);
    const { state } = sb.sandbox;
    for (const m of [meeting, webinar, recorded]) expect(state.meetings.get(m.id)?.host_id).toBe(assistant.id);
    const heirZak = (await sb.v2('GET', `/users/${assistant.id}/token`, { query: { type: 'zak' } })).body.token;
    expect(state.meetings.get(meeting.id)!.start_url).toBe(`https://sandbox.v1gate.local/s/${meeting.id}?zak=${heirZak}`);
  });

  it('transfers only what the flags name; recordings keep their meeting', async () => {
    const { user, assistant, meeting, webinar, recorded } = await busyUser();
    const res = await sb.v2('DELETE', `/users/${user.id}`, {
      query: { transfer_email: assistant.email, transfer_webinar: true, transfer_recording: true, transfer_meeting: false },
    });
    expect(res.status).toBe(204);
    const { state } = sb.sandbox;
    expect(state.meetings.has(meeting.id)).toBe(false);
    expect(state.meetings.get(webinar.id)?.host_id).toBe(assistant.id);
    expect(state.meetings.get(recorded.id)?.host_id).toBe(assistant.id);
  });

  it.each([
    ['transfer_email', { transfer_meeting: true }],
    ['transfer_email', { transfer_email: 'not-an-email' }],
    ['transfer_meeting', { transfer_email: 'a@b.example', transfer_meeting: 'yes' }],
    ['action', { action: 'erase' }],
  ])('answers 400 naming %s for %j and changes nothing', async (field, query) => {
    const { user, meeting } = await busyUser();
    const before = await getUser(sb, user.id);
    expectFieldError(await sb.v2('DELETE', `/users/${user.id}`, { query }), field);
    expect(await getUser(sb, user.id)).toEqual(before);
    expect(sb.sandbox.state.meetings.has(meeting.id)).toBe(true);
  });

  it('refuses to transfer to the user removed or to a user who is not active', async () => {
    const { user } = await busyUser();
    expectFieldError(
      await sb.v2('DELETE', `/users/${user.id}`, { query: { transfer_email: user.email, transfer_meeting: true } }),
      'transfer_email',
    );
    const pending = await createUser(sb, { type: 1 }, 'create');
    expectFieldError(
      await sb.v2('DELETE', `/users/${user.id}`, { query: { transfer_email: pending.email, transfer_meeting: true } }),
      'transfer_email',
    );
    await getUser(sb, user.id);
  });

  it('answers 404 for an unknown user or an unknown transfer_email, and changes nothing', async () => {
    expectUserNotFound(await sb.v2('DELETE', '/users/nobody'));
    const { user, meeting } = await busyUser();
    expectUserNotFound(
      await sb.v2('DELETE', `/users/${user.id}`, { query: { transfer_email: 'ghost@example.com', transfer_meeting: true } }),
    );
    await getUser(sb, user.id);
    expect(sb.sandbox.state.meetings.get(meeting.id)?.host_id).toBe(user.id);
  });

  it('refuses to remove the account owner', async () => {
    for (const action of ['disassociate', 'delete']) {
      const res = await sb.v2('DELETE', '/users/me', { query: { action } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(300);
    }
    expect((await getUser(sb, 'me')).id).toBe(sb.sandbox.master.ownerId);
  });
});
