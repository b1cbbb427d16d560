import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectV1Error, expectV1Shape, V1_TIME, v1ExampleShape } from '../support/v1-answers.js';
import { callerAccountId, createUsers, faultyGate, uniqueName } from './groups-support.js';

let gw: TestGateway;
let accountId: string;
const gate = faultyGate();
beforeAll(async () => {
  gw = await startTestGateway({}, { outbound: gate });
  accountId = await callerAccountId(gw);
});
afterAll(() => gw.close());

const GROUP_SHAPE = v1ExampleShape('/group/create');
const MEMBER_SHAPE = v1ExampleShape('/group/member/list', 'members');
const PAGE_SHAPE = v1ExampleShape('/group/member/list');

async function createGroup(name = uniqueName()): Promise<string> {
  const res = await gw.v2('POST', '/groups', { body: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

const groupCount = async () => (await gw.v2('GET', '/groups')).body.total_records as number;
const memberIdsOf = async (id: string, base = '/groups') =>
  ((await gw.v2('GET', `${base}/${id}/members`, { query: { page_size: 300 } })).body.members as { id: string }[]).map((m) => m.id).sort();

describe('/group/create', () => {
  it('creates the group and answers the v1 group output with the account id', async () => {
    const name = uniqueName();
    const answer = await gw.v1('/group/create', { name });
    expectV1Shape(answer, GROUP_SHAPE, { inOrder: true });
    expect(answer).toEqual({ group_id: expect.any(String), account_id: accountId, name, total_members: 0 });
    const v2 = await gw.v2('GET', `/groups/${answer.group_id}`);
    expect(v2.body).toEqual({ id: answer.group_id, name, total_members: 0 });
  });

  it('answers the v2 duplicate-name error for a name in use, and creates nothing', async () => {
    const name = uniqueName();
    await createGroup(name);
    const before = await groupCount();
    expectV1Error(await gw.v1('/group/create', { name: name.toUpperCase() }), 4132, /is already in use/);
    expect(await groupCount()).toBe(before);
  });

  it('answers 300 for a missing or oversized name, and creates nothing', async () => {
    const before = await groupCount();
    expect(await gw.v1('/group/create', {})).toEqual({ error: { code: 300, message: 'name is required.' } });
    expectV1Error(await gw.v1('/group/create', { name: 'x'.repeat(200) }), 300, /^Invalid parameter: name\./);
    expect(await groupCount()).toBe(before);
  });

  it('answers 102 for a wrong secret', async () => {
    expectV1Error(await gw.v1('/group/create', { name: uniqueName(), api_secret: 'wrong' }), 102);
  });
});

describe('/group/list', () => {
  it('answers total_records and every group in the v1 shape', async () => {
    const id = await createGroup();
    const answer = await gw.v1('/group/list');
    expectV1Shape(answer, { total_records: 'number', groups: 'array' }, { inOrder: true });
    expect(answer.total_records).toBe(await groupCount());
    expect(answer.groups).toHaveLength(answer.total_records);
    for (const group of answer.groups) expectV1Shape(group, GROUP_SHAPE, { inOrder: true });
    expect(answer.groups.find((g: any) => g.group_id === id).account_id).toBe(accountId);
  });
});

describe('/group/get', () => {
  it('answers the group with its member count', async () => {
    const id = await createGroup('get me ' + uniqueName());
    const [user] = await createUsers(gw, 1);
    await gw.v2('POST', `/groups/${id}/members`, { body: { members: [{ id: user!.id }] } });
    const answer = await gw.v1('/group/get', { id });
    expectV1Shape(answer, GROUP_SHAPE, { inOrder: true });
    expect(answer).toMatchObject({ group_id: id, account_id: accountId, total_members: 1 });
  });

  it('answers 4130 for an unknown group and 300 without id', async () => {
    expectV1Error(await gw.v1('/group/get', { id: 'no-such-group' }), 4130);
    expect(await gw.v1('/group/get', {})).toEqual({ error: { code: 300, message: 'id is required.' } });
  });
});

describe('/group/edit', () => {
  it('renames the group and answers the group output', async () => {
    const id = await createGroup();
    const name = uniqueName('renamed');
    const answer = await gw.v1('/group/edit', { id, name });
    expectV1Shape(answer, GROUP_SHAPE, { inOrder: true });
    expect(answer).toEqual({ group_id: id, account_id: accountId, name, total_members: 0 });
    expect((await gw.v2('GET', `/groups/${id}`)).body.name).toBe(name);
  });

  it('answers the group unchanged when no name is given', async () => {
    const name = uniqueName();
    const id = await createGroup(name);
    expect(await gw.v1('/group/edit', { id })).toEqual({ group_id: id, account_id: accountId, name, total_members: 0 });
  });

  it('refuses a name in use (and keeps the old one) and an unknown group', async () => {
    const taken = uniqueName();
    await createGroup(taken);
    const name = uniqueName();
    const id = await createGroup(name);
    expectV1Error(await gw.v1('/group/edit', { id, name: taken }), 4132);
    expect((await gw.v2('GET', `/groups/${id}`)).body.name).toBe(name);
    expectV1Error(await gw.v1('/group/edit', { id: 'no-such-group', name: uniqueName() }), 4130);
  });
});

describe('/group/delete', () => {
  it('deletes the group and answers id, deleted_at and deleted_count 1', async () => {
    const id = await createGroup();
    const answer = await gw.v1('/group/delete', { id });
    expectV1Shape(answer, { id: 'string', deleted_at: 'string', deleted_count: 'number' }, { inOrder: true });
    expect(answer).toEqual({ id, deleted_at: expect.stringMatching(V1_TIME), deleted_count: 1 });
    expect((await gw.v2('GET', `/groups/${id}`)).status).toBe(404);
  });

  it('answers 4130 for an unknown group', async () => {
    expectV1Error(await gw.v1('/group/delete', { id: 'no-such-group' }), 4130);
  });
});

describe('/group/member/list', () => {
  it('answers a v1 page of members', async () => {
    const id = await createGroup();
    const users = await createUsers(gw, 3);
    await gw.v2('POST', `/groups/${id}/members`, { body: { members: users.map((u) => ({ id: u.id })) } });
    const answer = await gw.v1('/group/member/list', { id });
    expectV1Shape(answer, PAGE_SHAPE, { inOrder: true });
    expect(answer).toMatchObject({ page_count: 1, page_number: 1, page_size: 30, total_records: 3 });
    for (const member of answer.members) expectV1Shape(member, MEMBER_SHAPE, { inOrder: true });
    expect(answer.members[0]).toEqual({ id: users[0]!.id, email: users[0]!.email, first_name: 'Mem', last_name: 'Ber', pic_url: '' });

    const second = await gw.v1('/group/member/list', { id, page_size: 2, page_number: 2 });
    expect(second).toMatchObject({ page_count: 2, page_number: 2, page_size: 2, total_records: 3 });
    expect(second.members.map((m: any) => m.id)).toEqual([users[2]!.id]);
  });

  it('answers 4130 for an unknown group and 300 for a page size over 300', async () => {
    expectV1Error(await gw.v1('/group/member/list', { id: 'no-such-group' }), 4130);
    expectV1Error(await gw.v1('/group/member/list', { id: 'x', page_size: 301 }), 300, /^Invalid parameter: page_size\./);
  });
});

describe('/group/member/add', () => {
  it('adds the members and answers id, add_at and add_count', async () => {
    const id = await createGroup();
    const users = await createUsers(gw, 2);
    const answer = await gw.v1('/group/member/add', { id, member_ids: users.map((u) => u.id).join(',') });
    expectV1Shape(answer, { id: 'string', add_at: 'string', add_count: 'number' }, { inOrder: true });
    expect(answer).toEqual({ id, add_at: expect.stringMatching(V1_TIME), add_count: 2 });
    expect(await memberIdsOf(id)).toEqual(users.map((u) => u.id).sort());
  });

  it('sends more than 30 ids in v2 batches of 30', async () => {
    const id = await createGroup();
    const users = await createUsers(gw, 65);
    const res = await gw.v1Raw('/group/member/add', { id, member_ids: users.map((u) => u.id).join(',') });
    expect(res.body).toMatchObject({ id, add_count: 65 });
    // One read of the members already there, then ⌈65/30⌉ = 3 adds.
    expect(res.headers.get('x-v2-calls')).toBe('4');
    expect(await memberIdsOf(id)).toEqual(users.map((u) => u.id).sort());
  });

  it('removes what earlier batches added when a later batch fails, keeping earlier members', async () => {
    const id = await createGroup();
    const users = await createUsers(gw, 40);
    const earlier = users[0]!;
    await gw.v2('POST', `/groups/${id}/members`, { body: { members: [{ id: earlier.id }] } });
    const ids = [...users.map((u) => u.id), 'no-such-user'];
    const answer = await gw.v1('/group/member/add', { id, member_ids: ids.join(',') });
    expectV1Error(answer, 1001);
    expect(await memberIdsOf(id)).toEqual([earlier.id]);
  });

  it('changes nothing when one id of a single batch is unknown', async () => {
    const id = await createGroup();
    const users = await createUsers(gw, 2);
    expectV1Error(await gw.v1('/group/member/add', { id, member_ids: `${users[0]!.id},nobody,${users[1]!.id}` }), 1001);
    expect(await memberIdsOf(id)).toEqual([]);
  });

  it('counts each id once, and accepts member_ids[] arrays', async () => {
    const id = await createGroup();
    const users = await createUsers(gw, 2);
    const answer = await gw.v1('/group/member/add', { id, member_ids: [users[0]!.id, users[1]!.id, users[0]!.id] });
    expect(answer).toMatchObject({ id, add_count: 2 });
  });

  it('adds to an IM group named by its id (the path v1 documents for IM member add)', async () => {
    const im = await gw.v2('POST', '/im/groups', { body: { name: uniqueName('im') } });
    const users = await createUsers(gw, 2);
    const answer = await gw.v1('/group/member/add', { id: im.body.id, member_ids: users.map((u) => u.id).join(',') });
    expect(answer).toEqual({ id: im.body.id, add_at: expect.stringMatching(V1_TIME), add_count: 2 });
    expect(await memberIdsOf(im.body.id, '/im/groups')).toEqual(users.map((u) => u.id).sort());
  });

  it('answers 4130 when the id is neither a group nor an IM group, and 300 without member_ids', async () => {
    const [user] = await createUsers(gw, 1);
    expectV1Error(await gw.v1('/group/member/add', { id: 'no-such-group', member_ids: user!.id }), 4130);
    expect(await gw.v1('/group/member/add', { id: 'x' })).toEqual({ error: { code: 300, message: 'member_ids is required.' } });
  });
});

describe('/group/member/delete', () => {
  it('removes the members one by one and counts those removed', async () => {
    const id = await createGroup();
    const users = await createUsers(gw, 3);
    await gw.v2('POST', `/groups/${id}/members`, { body: { members: users.map((u) => ({ id: u.id })) } });
    const [outsider] = await createUsers(gw, 1);
    const answer = await gw.v1('/group/member/delete', { id, member_ids: `${users[0]!.id},${users[1]!.id},${outsider!.id}` });
    expectV1Shape(answer, { id: 'string', deleted_at: 'string', deleted_count: 'number' }, { inOrder: true });
    expect(answer).toEqual({ id, deleted_at: expect.stringMatching(V1_TIME), deleted_count: 2 });
    expect(await memberIdsOf(id)).toEqual([users[2]!.id]);
  });

  it('puts back the members it removed when another removal fails', async () => {
    const id = await createGroup();
    const users = await createUsers(gw, 3);
    await gw.v2('POST', `/groups/${id}/members`, { body: { members: users.map((u) => ({ id: u.id })) } });
    gate.failing = { method: 'DELETE', path: new RegExp(`/members/${users[1]!.id}$`) };
    try {
      expectV1Error(await gw.v1('/group/member/delete', { id, member_ids: users.map((u) => u.id).join(',') }), 503, /Injected failure/);
    } finally {
      gate.failing = null;
    }
    expect(await memberIdsOf(id)).toEqual(users.map((u) => u.id).sort());
  });

  it('answers 4130 for an unknown group', async () => {
    expectV1Error(await gw.v1('/group/member/delete', { id: 'no-such-group', member_ids: 'a,b' }), 4130);
  });
});
