import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { schemaProblems } from '../support/openapi.js';
import type { RunningSandbox } from '../support/sandbox.js';

/** Helpers and the member suite shared by the groups and IM groups tests. */

export const uniqueName = (prefix = 'group') => `${prefix} ${randomUUID().slice(0, 8)}`;
export const uniqueEmail = (prefix = 'member') => `${prefix}.${randomUUID().slice(0, 8)}@groups.test`;

export interface TestUser {
  id: string;
  email: string;
}

/** A user of the caller's account, made through POST /users. */
export async function createUser(sb: RunningSandbox, as?: { apiKey: string; apiSecret: string }): Promise<TestUser> {
  const email = uniqueEmail();
  const res = await sb.v2('POST', '/users', {
    as,
    body: { action: 'custCreate', user_info: { email, type: 1, first_name: 'Mem', last_name: 'Ber' } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, email };
}

/** A sub account of the master, through POST /accounts, with its credentials. */
export async function createSubAccount(sb: RunningSandbox): Promise<{ id: string; as: { apiKey: string; apiSecret: string } }> {
  const res = await sb.v2('POST', '/accounts', {
    body: { first_name: 'Other', last_name: 'Account', email: uniqueEmail('sub'), password: 'secret-pass-1' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const account = sb.sandbox.state.accounts.get(res.body.id)!;
  return { id: res.body.id, as: { apiKey: account.apiKey, apiSecret: account.apiSecret } };
}

export function expectFieldErrors(res: { status: number; body: any }, ...fields: string[]): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.code).toBe(300);
  expect(res.body.message).toBe('Validation Failed.');
  const named = res.body.errors.map((e: { field: string }) => e.field);
  for (const field of fields) expect(named, JSON.stringify(res.body)).toContain(field);
}

export function expectInvalidJson(res: { status: number; body: any }): void {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ code: 300, message: 'Request Body should be a valid JSON object.' });
}

export function expectGroupNotFound(res: { status: number; body: any }): void {
  expect(res.status, JSON.stringify(res.body)).toBe(404);
  expect(res.body).toEqual({ code: 4130, message: expect.any(String) });
}

export function expectUserNotFound(res: { status: number; body: any }): void {
  expect(res.status, JSON.stringify(res.body)).toBe(404);
  expect(res.body.code).toBe(1001);
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/**
 * GET/POST `{base}/{groupId}/members` and DELETE `{base}/{groupId}/members/{memberId}`: the same
 * rules under `/groups` and `/im/groups`.
 */
export function describeMemberEndpoints(base: '/groups' | '/im/groups', sandbox: () => RunningSandbox): void {
  const refPath = `${base}/{groupId}/members`;
  const newGroup = async () => {
    const res = await sandbox().v2('POST', base, { body: { name: uniqueName() } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  const memberIds = async (groupId: string) =>
    (await sandbox().v2('GET', `${base}/${groupId}/members`, { query: { page_size: 300 } })).body.members.map((m: { id: string }) => m.id);
  const idsKey = base === '/groups' ? 'group_ids' : 'im_group_ids';

  describe(`POST ${base}/{groupId}/members`, () => {
    it('adds users named by id or email and answers their ids and the time', async () => {
      const sb = sandbox();
      const groupId = await newGroup();
      const [a, b] = [await createUser(sb), await createUser(sb)];
      const res = await sb.v2('POST', `${base}/${groupId}/members`, {
        body: { members: [{ id: a.id }, { email: b.email.toUpperCase() }] },
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ ids: `${a.id},${b.id}`, added_at: expect.stringMatching(ISO) });
      expect(schemaProblems('POST', refPath, 201, res.body)).toEqual([]);
      expect(await memberIds(groupId)).toEqual([a.id, b.id]);
      expect((await sb.v2('GET', `${base}/${groupId}`)).body.total_members).toBe(2);
      expect((await sb.v2('GET', `/users/${a.id}`)).body[idsKey]).toContain(groupId);
    });

    it('adds a member only once', async () => {
      const sb = sandbox();
      const groupId = await newGroup();
      const a = await createUser(sb);
      await sb.v2('POST', `${base}/${groupId}/members`, { body: { members: [{ id: a.id }] } });
      const again = await sb.v2('POST', `${base}/${groupId}/members`, { body: { members: [{ id: a.id }, { email: a.email }] } });
      expect(again.status).toBe(201);
      expect(again.body.ids).toBe(a.id);
      expect(await memberIds(groupId)).toEqual([a.id]);
    });

    it('answers 404 1001 for an unknown user or one of another account, and adds no one', async () => {
      const sb = sandbox();
      const groupId = await newGroup();
      const known = await createUser(sb);
      const sub = await createSubAccount(sb);
      const stranger = await createUser(sb, sub.as);
      for (const member of [{ id: 'no-such-user' }, { email: 'nobody@groups.test' }, { id: stranger.id }]) {
        expectUserNotFound(await sb.v2('POST', `${base}/${groupId}/members`, { body: { members: [{ id: known.id }, member] } }));
      }
      expect(await memberIds(groupId)).toEqual([]);
    });

    it.each([
      ['members', {}],
      ['members', { members: [] }],
      ['members', { members: Array.from({ length: 31 }, (_, i) => ({ email: `m${i}@groups.test` })) }],
      ['members.0', { members: [{}] }],
      ['members.0.id', { members: [{ id: 5 }] }],
      ['members.0.name', { members: [{ id: 'x', name: 'unknown field' }] }],
    ])('rejects an invalid %s and adds no one', async (field, body) => {
      const groupId = await newGroup();
      expectFieldErrors(await sandbox().v2('POST', `${base}/${groupId}/members`, { body }), field);
      expect(await memberIds(groupId)).toEqual([]);
    });

    it('rejects a body that is not JSON', async () => {
      expectInvalidJson(await sandbox().v2('POST', `${base}/${await newGroup()}/members`, { rawBody: 'members' }));
    });

    it('answers 404 4130 for an unknown group', async () => {
      const a = await createUser(sandbox());
      expectGroupNotFound(await sandbox().v2('POST', `${base}/no-such-group/members`, { body: { members: [{ id: a.id }] } }));
    });
  });

  describe(`GET ${base}/{groupId}/members`, () => {
    it('pages the members with their id, email, names and type', async () => {
      const sb = sandbox();
      const groupId = await newGroup();
      const users = [await createUser(sb), await createUser(sb), await createUser(sb)];
      await sb.v2('POST', `${base}/${groupId}/members`, { body: { members: users.map((u) => ({ id: u.id })) } });
      const res = await sb.v2('GET', `${base}/${groupId}/members`, { query: { page_size: 2, page_number: 2 } });
      expect(res.status).toBe(200);
      expect(schemaProblems('GET', refPath, 200, res.body)).toEqual([]);
      // Today's service leaves the deprecated page_count and page_number out of a group's members.
      expect(res.body).toEqual({
        page_size: 2,
        total_records: 3,
        next_page_token: '',
        members: [{ id: users[2]!.id, email: users[2]!.email, first_name: 'Mem', last_name: 'Ber', type: 1 }],
      });
    });

    it('no longer lists a user who was deleted', async () => {
      const sb = sandbox();
      const groupId = await newGroup();
      const [a, b] = [await createUser(sb), await createUser(sb)];
      await sb.v2('POST', `${base}/${groupId}/members`, { body: { members: [{ id: a.id }, { id: b.id }] } });
      expect((await sb.v2('DELETE', `/users/${a.id}`, { query: { action: 'delete' } })).status).toBe(204);
      expect(await memberIds(groupId)).toEqual([b.id]);
      expect((await sb.v2('GET', `${base}/${groupId}`)).body.total_members).toBe(1);
    });

    it('rejects a page_size above 300 and answers 404 4130 for an unknown group', async () => {
      expectFieldErrors(await sandbox().v2('GET', `${base}/${await newGroup()}/members`, { query: { page_size: 301 } }), 'page_size');
      expectGroupNotFound(await sandbox().v2('GET', `${base}/no-such-group/members`));
    });
  });

  describe(`DELETE ${base}/{groupId}/members/{memberId}`, () => {
    it('removes the member', async () => {
      const sb = sandbox();
      const groupId = await newGroup();
      const [a, b] = [await createUser(sb), await createUser(sb)];
      await sb.v2('POST', `${base}/${groupId}/members`, { body: { members: [{ id: a.id }, { id: b.id }] } });
      const res = await sb.v2('DELETE', `${base}/${groupId}/members/${a.id}`);
      expect(res.status).toBe(204);
      expect(res.body).toBeUndefined();
      expect(await memberIds(groupId)).toEqual([b.id]);
      expect((await sb.v2('GET', `/users/${a.id}`)).body[idsKey]).not.toContain(groupId);
    });

    it('answers 404 1001 for a user who is not a member, and 404 4130 for an unknown group', async () => {
      const sb = sandbox();
      const groupId = await newGroup();
      const outsider = await createUser(sb);
      expectUserNotFound(await sb.v2('DELETE', `${base}/${groupId}/members/${outsider.id}`));
      expectGroupNotFound(await sb.v2('DELETE', `${base}/no-such-group/members/${outsider.id}`));
    });
  });
}
