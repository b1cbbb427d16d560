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

/**
 * Sandbox time the tests move forward, to see `last_modified_time` change. It starts a day behind
 * real time, so the tests' tokens (signed with real time) stay valid as it advances.
 */
const clock = { ms: Date.now() - 86_400_000, now: () => new Date(clock.ms) };
const tick = () => {
  clock.ms += 60_000;
};

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({ ownerEmail: 'owner@im-groups.test', clock });
});
afterAll(() => sb.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

async function createImGroup(body: Record<string, unknown> = {}) {
  const res = await sb.v2('POST', '/im/groups', { body: { name: uniqueName('im'), ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; name: string };
}

const getImGroup = async (id: string) => (await sb.v2('GET', `/im/groups/${id}`)).body;
const imGroupCount = () => sb.sandbox.state.imGroups.size;

describe('POST /im/groups', () => {
  it("creates a normal group by default and answers the spec's fields", async () => {
    const name = uniqueName('im');
    const res = await sb.v2('POST', '/im/groups', { body: { name } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[\w-]{22}$/),
      name,
      total_members: 0,
      search_by_domain: false,
      search_by_account: false,
      search_by_ma_account: false,
    });
    expect(schemaProblems('POST', '/im/groups', 201, res.body)).toEqual([]);
    expect((await getImGroup(res.body.id)).type).toBe('normal');
  });

  it('keeps the given type and search options', async () => {
    const group = await createImGroup({ type: 'restricted', search_by_domain: true, search_by_ma_account: true });
    expect(await getImGroup(group.id)).toMatchObject({
      type: 'restricted',
      search_by_domain: true,
      search_by_account: false,
      search_by_ma_account: true,
    });
  });

  it('accepts a name of 128 characters', async () => {
    expect((await sb.v2('POST', '/im/groups', { body: { name: 'i'.repeat(128) } })).status).toBe(201);
  });

  it('answers 409 4132 for a name the account already has', async () => {
    const group = await createImGroup();
    const before = imGroupCount();
    const res = await sb.v2('POST', '/im/groups', { body: { name: group.name.toLowerCase() } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe(4132);
    expect(imGroupCount()).toBe(before);
  });

  it.each([
    ['name', { name: undefined }],
    ['name', { name: '' }],
    ['name', { name: 'i'.repeat(129) }],
    ['type', { type: 'Normal' }],
    ['type', { type: 'public' }],
    ['search_by_domain', { search_by_domain: 'true' }],
    ['search_by_ma', { search_by_ma: true }],
  ])('rejects an invalid %s and creates nothing', async (field, body) => {
    const before = imGroupCount();
    expectFieldErrors(await sb.v2('POST', '/im/groups', { body: { name: uniqueName('im'), ...body } }), field);
    expect(imGroupCount()).toBe(before);
  });

  it('rejects a body that is not JSON', async () => {
    expectInvalidJson(await sb.v2('POST', '/im/groups', { rawBody: '"name"' }));
  });
});

describe('GET /im/groups', () => {
  it("pages the account's IM groups with type, search options and last_modified_time", async () => {
    const group = await createImGroup({ type: 'shared', search_by_account: true });
    const sub = await createSubAccount(sb);
    const foreign = (await sb.v2('POST', '/im/groups', { as: sub.as, body: { name: uniqueName('im') } })).body;

    const res = await sb.v2('GET', '/im/groups', { query: { page_size: 300 } });
    expect(res.status).toBe(200);
    expect(schemaProblems('GET', '/im/groups', 200, res.body)).toEqual([]);
    expect(res.body).toMatchObject({ page_count: 1, page_number: 1, page_size: 300, total_records: res.body.groups.length });
    expect(res.body.groups).toContainEqual({
      id: group.id,
      name: group.name,
      total_members: 0,
      type: 'shared',
      search_by_domain: false,
      search_by_account: true,
      search_by_ma_account: false,
      last_modified_time: expect.stringMatching(ISO),
    });
    expect(res.body.groups.map((g: { id: string }) => g.id)).not.toContain(foreign.id);

    const firstPage = await sb.v2('GET', '/im/groups', { query: { page_size: 1 } });
    expect(firstPage.body.groups).toEqual([res.body.groups[0]]);
    expect(firstPage.body.page_count).toBe(res.body.total_records);
  });

  it('rejects a page_size above 300', async () => {
    expectFieldErrors(await sb.v2('GET', '/im/groups', { query: { page_size: 301 } }), 'page_size');
  });
});

describe('GET /im/groups/{groupId}', () => {
  it('answers the IM group', async () => {
    const group = await createImGroup();
    const res = await sb.v2('GET', `/im/groups/${group.id}`);
    expect(res.status).toBe(200);
    expect(schemaProblems('GET', '/im/groups/{groupId}', 200, res.body)).toEqual([]);
    expect(res.body).toEqual({
      id: group.id,
      name: group.name,
      total_members: 0,
      type: 'normal',
      search_by_domain: false,
      search_by_account: false,
      search_by_ma_account: false,
      last_modified_time: clock
        .now()
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z'),
    });
  });

  it("answers 404 4130 for an unknown group and for a plain group's id", async () => {
    expectGroupNotFound(await sb.v2('GET', '/im/groups/no-such-group'));
    const plain = (await sb.v2('POST', '/groups', { body: { name: uniqueName() } })).body;
    expectGroupNotFound(await sb.v2('GET', `/im/groups/${plain.id}`));
  });
});

describe('PATCH /im/groups/{groupId}', () => {
  it('updates the given fields, answers 204 and stamps last_modified_time', async () => {
    const group = await createImGroup();
    const created = await getImGroup(group.id);
    tick();
    const name = uniqueName('renamed');
    const res = await sb.v2('PATCH', `/im/groups/${group.id}`, { body: { name, type: 'shared', search_by_domain: true } });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const updated = await getImGroup(group.id);
    expect(updated).toMatchObject({ name, type: 'shared', search_by_domain: true, search_by_account: false });
    expect(Date.parse(updated.last_modified_time)).toBe(Date.parse(created.last_modified_time) + 60_000);
  });

  it('changes nothing, not even the time, for an empty body', async () => {
    const group = await createImGroup();
    const before = await getImGroup(group.id);
    tick();
    expect((await sb.v2('PATCH', `/im/groups/${group.id}`, { rawBody: '' })).status).toBe(204);
    expect(await getImGroup(group.id)).toEqual(before);
  });

  it("rejects invalid fields and another group's name, and changes nothing", async () => {
    const [a, b] = [await createImGroup(), await createImGroup()];
    const before = await getImGroup(a.id);
    tick();
    expectFieldErrors(await sb.v2('PATCH', `/im/groups/${a.id}`, { body: { type: 'secret', search_by_domain: true } }), 'type');
    expectFieldErrors(await sb.v2('PATCH', `/im/groups/${a.id}`, { body: { name: 'i'.repeat(129) } }), 'name');
    const taken = await sb.v2('PATCH', `/im/groups/${a.id}`, { body: { name: b.name, search_by_domain: true } });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe(4132);
    expectInvalidJson(await sb.v2('PATCH', `/im/groups/${a.id}`, { rawBody: '{' }));
    expect(await getImGroup(a.id)).toEqual(before);
  });

  it('answers 404 4130 for an unknown group', async () => {
    expectGroupNotFound(await sb.v2('PATCH', '/im/groups/no-such-group', { body: { type: 'shared' } }));
  });
});

describe('DELETE /im/groups/{groupId}', () => {
  it('deletes the IM group and takes it off its members', async () => {
    const group = await createImGroup();
    const user = await createUser(sb);
    await sb.v2('POST', `/im/groups/${group.id}/members`, { body: { members: [{ id: user.id }] } });
    expect((await sb.v2('GET', `/users/${user.id}`)).body.im_group_ids).toContain(group.id);
    const res = await sb.v2('DELETE', `/im/groups/${group.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expectGroupNotFound(await sb.v2('GET', `/im/groups/${group.id}`));
    expect((await sb.v2('GET', `/users/${user.id}`)).body.im_group_ids).not.toContain(group.id);
    expectGroupNotFound(await sb.v2('DELETE', `/im/groups/${group.id}`));
  });
});

describe('IM group members and last_modified_time', () => {
  it('stamps last_modified_time when members are added or removed, not when a request is refused', async () => {
    const group = await createImGroup();
    const user = await createUser(sb);
    const times = [(await getImGroup(group.id)).last_modified_time];
    tick();
    await sb.v2('POST', `/im/groups/${group.id}/members`, { body: { members: [{ id: user.id }] } });
    times.push((await getImGroup(group.id)).last_modified_time);
    tick();
    await sb.v2('POST', `/im/groups/${group.id}/members`, { body: { members: [{ id: 'no-such-user' }] } });
    times.push((await getImGroup(group.id)).last_modified_time);
    tick();
    await sb.v2('DELETE', `/im/groups/${group.id}/members/${user.id}`);
    times.push((await getImGroup(group.id)).last_modified_time);
    const ms = times.map((t) => Date.parse(t));
    expect([ms[1]! - ms[0]!, ms[2]! - ms[1]!, ms[3]! - ms[2]!]).toEqual([60_000, 0, 120_000]);
  });
});

describeMemberEndpoints('/im/groups', () => sb);
