import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaProblems } from '../support/openapi.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import {
  createSubAccount,
  createUser,
  describeMemberEndpoints,
  expectFieldErrors,
  expectGroupNotFound,
  expectInvalidJson,
  uniqueName,
} from './groups-support.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({ ownerEmail: 'owner@groups.test' });
});
afterAll(() => sb.close());

async function createGroup(name = uniqueName()): Promise<{ id: string; name: string }> {
  const res = await sb.v2('POST', '/groups', { body: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, name };
}

const groupCount = () => sb.sandbox.state.groups.size;

describe('POST /groups', () => {
  it('creates an empty group', async () => {
    const name = uniqueName();
    const res = await sb.v2('POST', '/groups', { body: { name } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[\w-]{22}$/), name, total_members: 0 });
    expect(schemaProblems('POST', '/groups', 201, res.body)).toEqual([]);
    expect((await sb.v2('GET', `/groups/${res.body.id}`)).body).toEqual(res.body);
  });

  it('accepts a name of 127 characters', async () => {
    expect((await sb.v2('POST', '/groups', { body: { name: 'n'.repeat(127) } })).status).toBe(201);
  });

  it('answers 409 4132 for a name the account already has, whatever its case', async () => {
    const { name } = await createGroup();
    const before = groupCount();
    for (const taken of [name, name.toUpperCase()]) {
      const res = await sb.v2('POST', '/groups', { body: { name: taken } });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe(4132);
    }
    expect(groupCount()).toBe(before);
  });

  it('lets another account use the same name', async () => {
    const { name } = await createGroup();
    const sub = await createSubAccount(sb);
    expect((await sb.v2('POST', '/groups', { as: sub.as, body: { name } })).status).toBe(201);
  });

  it.each([
    ['name', {}],
    ['name', { name: '' }],
    ['name', { name: '   ' }],
    ['name', { name: 'n'.repeat(128) }],
    ['name', { name: 42 }],
    ['description', { name: uniqueName(), description: 'unknown field' }],
  ])('rejects an invalid %s and creates nothing', async (field, body) => {
    const before = groupCount();
    expectFieldErrors(await sb.v2('POST', '/groups', { body }), field);
    expect(groupCount()).toBe(before);
  });

  it('rejects a body that is not JSON', async () => {
    expectInvalidJson(await sb.v2('POST', '/groups', { rawBody: '{"name":' }));
  });
});

describe('GET /groups', () => {
  it("lists the account's groups with their member counts, and only those", async () => {
    const group = await createGroup();
    const user = await createUser(sb);
    await sb.v2('POST', `/groups/${group.id}/members`, { body: { members: [{ id: user.id }] } });
    const sub = await createSubAccount(sb);
    const foreign = (await sb.v2('POST', '/groups', { as: sub.as, body: { name: uniqueName() } })).body;

    const res = await sb.v2('GET', '/groups');
    expect(res.status).toBe(200);
    expect(schemaProblems('GET', '/groups', 200, res.body)).toEqual([]);
    expect(Object.keys(res.body).sort()).toEqual(['groups', 'total_records']);
    expect(res.body.total_records).toBe(res.body.groups.length);
    expect(res.body.groups).toContainEqual({ id: group.id, name: group.name, total_members: 1 });
    expect(res.body.groups.map((g: { id: string }) => g.id)).not.toContain(foreign.id);
  });
});

describe('GET /groups/{groupId}', () => {
  it('answers the group', async () => {
    const group = await createGroup();
    const res = await sb.v2('GET', `/groups/${group.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: group.id, name: group.name, total_members: 0 });
    expect(schemaProblems('GET', '/groups/{groupId}', 200, res.body)).toEqual([]);
  });

  it("answers 404 4130 for an unknown group and for another account's group", async () => {
    expectGroupNotFound(await sb.v2('GET', '/groups/no-such-group'));
    const sub = await createSubAccount(sb);
    const foreign = (await sb.v2('POST', '/groups', { as: sub.as, body: { name: uniqueName() } })).body;
    expectGroupNotFound(await sb.v2('GET', `/groups/${foreign.id}`));
  });
});

describe('PATCH /groups/{groupId}', () => {
  it('renames the group', async () => {
    const group = await createGroup();
    const name = uniqueName('renamed');
    const res = await sb.v2('PATCH', `/groups/${group.id}`, { body: { name } });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await sb.v2('GET', `/groups/${group.id}`)).body.name).toBe(name);
  });

  it("accepts the group's own name and an empty body", async () => {
    const group = await createGroup();
    expect((await sb.v2('PATCH', `/groups/${group.id}`, { body: { name: group.name.toUpperCase() } })).status).toBe(204);
    expect((await sb.v2('PATCH', `/groups/${group.id}`, { rawBody: '' })).status).toBe(204);
    expect((await sb.v2('GET', `/groups/${group.id}`)).body.name).toBe(group.name.toUpperCase());
  });

  it("answers 409 4132 for another group's name and keeps the old one", async () => {
    const [a, b] = [await createGroup(), await createGroup()];
    const res = await sb.v2('PATCH', `/groups/${a.id}`, { body: { name: b.name } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe(4132);
    expect((await sb.v2('GET', `/groups/${a.id}`)).body.name).toBe(a.name);
  });

  it('rejects an invalid name and keeps the old one', async () => {
    const group = await createGroup();
    expectFieldErrors(await sb.v2('PATCH', `/groups/${group.id}`, { body: { name: 'n'.repeat(128) } }), 'name');
    expectFieldErrors(await sb.v2('PATCH', `/groups/${group.id}`, { body: { name: '' } }), 'name');
    expectInvalidJson(await sb.v2('PATCH', `/groups/${group.id}`, { rawBody: 'name=x' }));
    expect((await sb.v2('GET', `/groups/${group.id}`)).body.name).toBe(group.name);
  });

  it('answers 404 4130 for an unknown group', async () => {
    expectGroupNotFound(await sb.v2('PATCH', '/groups/no-such-group', { body: { name: uniqueName() } }));
  });
});

describe('DELETE /groups/{groupId}', () => {
  it('deletes the group, frees its name and takes it off its members', async () => {
    const group = await createGroup();
    const user = await createUser(sb);
    await sb.v2('POST', `/groups/${group.id}/members`, { body: { members: [{ id: user.id }] } });
    const res = await sb.v2('DELETE', `/groups/${group.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expectGroupNotFound(await sb.v2('GET', `/groups/${group.id}`));
    expect((await sb.v2('GET', `/users/${user.id}`)).body.group_ids).not.toContain(group.id);
    expect((await sb.v2('POST', '/groups', { body: { name: group.name } })).status).toBe(201);
    expectGroupNotFound(await sb.v2('DELETE', `/groups/${group.id}`));
  });
});

describeMemberEndpoints('/groups', () => sb);
