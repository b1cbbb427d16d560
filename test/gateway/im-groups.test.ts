import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectV1Error, expectV1Shape, V1_TIME, v1ExampleShape } from '../support/v1-answers.js';
import { callerAccountId, createUsers, uniqueName } from './groups-support.js';

let gw: TestGateway;
let accountId: string;
beforeAll(async () => {
  gw = await startTestGateway();
  accountId = await callerAccountId(gw);
});
afterAll(() => gw.close());

const IM_GROUP_SHAPE = v1ExampleShape('/im/group/create');

async function createImGroup(body: Record<string, unknown> = {}): Promise<string> {
  const res = await gw.v2('POST', '/im/groups', { body: { name: uniqueName('im'), ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

const imGroupCount = async () => (await gw.v2('GET', '/im/groups')).body.total_records as number;
const v2ImGroup = async (id: string) => (await gw.v2('GET', `/im/groups/${id}`)).body;
const memberIdsOf = async (id: string) =>
  ((await gw.v2('GET', `/im/groups/${id}/members`, { query: { page_size: 300 } })).body.members as { id: string }[])
    .map((m) => m.id)
    .sort();

describe('/im/group/create', () => {
  it('creates with v1 defaults (Normal, every search option off) and answers the IM group output', async () => {
    const name = uniqueName('im');
    const answer = await gw.v1('/im/group/create', { name });
    expectV1Shape(answer, IM_GROUP_SHAPE, { inOrder: true });
    expect(answer).toEqual({
      group_id: expect.any(String),
      account_id: accountId,
      name,
      total_members: 0,
      option_search_by_domain: false,
      option_search_by_account: false,
      option_search_by_ma_account: false,
    });
    expect(await v2ImGroup(answer.group_id)).toMatchObject({
      type: 'normal',
      search_by_domain: false,
      search_by_account: false,
      search_by_ma_account: false,
    });
  });

  it('maps the type (any letter case) and option_search_by_ma to v2', async () => {
    const answer = await gw.v1('/im/group/create', {
      name: uniqueName('im'),
      type: 'restricted',
      option_search_by_ma: 'TRUE',
      option_search_by_domain: 1,
    });
    expect(answer).toMatchObject({ option_search_by_domain: true, option_search_by_account: false, option_search_by_ma_account: true });
    expect(await v2ImGroup(answer.group_id)).toMatchObject({ type: 'restricted', search_by_domain: true, search_by_ma_account: true });
    const shared = await gw.v1('/im/group/create', { name: uniqueName('im'), type: 'Shared' });
    expect((await v2ImGroup(shared.group_id)).type).toBe('shared');
  });

  it('answers 300 naming the field for a bad type or boolean, and creates nothing', async () => {
    const before = await imGroupCount();
    expectV1Error(
      await gw.v1('/im/group/create', { name: uniqueName('im'), type: 'Secret' }),
      300,
      /^Invalid parameter: type\. Must be one of: Normal, Restricted, Shared\./,
    );
    expectV1Error(
      await gw.v1('/im/group/create', { name: uniqueName('im'), option_search_by_account: 'maybe' }),
      300,
      /^Invalid parameter: option_search_by_account\./,
    );
    expect(await gw.v1('/im/group/create', {})).toEqual({ error: { code: 300, message: 'name is required.' } });
    expect(await imGroupCount()).toBe(before);
  });

  it('answers the duplicate-name error for a name in use', async () => {
    const name = uniqueName('im');
    await createImGroup({ name });
    const before = await imGroupCount();
    expectV1Error(await gw.v1('/im/group/create', { name }), 4132);
    expect(await imGroupCount()).toBe(before);
  });
});

describe('/im/group/list', () => {
  it('answers every IM group, items with last_modified_time, across v2 pages', async () => {
    // More than one v2 page would need 300; the v1 list must still be complete with a few.
    const id = await createImGroup({ type: 'shared', search_by_account: true });
    const answer = await gw.v1('/im/group/list');
    expectV1Shape(answer, { total_records: 'number', groups: 'array' }, { inOrder: true });
    expect(answer.total_records).toBe(await imGroupCount());
    expect(answer.groups).toHaveLength(answer.total_records);
    for (const group of answer.groups) expectV1Shape(group, { ...IM_GROUP_SHAPE, last_modified_time: 'string' }, { inOrder: true });
    const mine = answer.groups.find((g: any) => g.group_id === id);
    expect(mine).toMatchObject({
      account_id: accountId,
      option_search_by_account: true,
      last_modified_time: expect.stringMatching(V1_TIME),
    });
  });

  it('reads every v2 page: more than 300 IM groups come back whole', async () => {
    const missing = Math.max(0, 301 - (await imGroupCount()));
    await Promise.all(Array.from({ length: missing }, () => createImGroup()));
    const res = await gw.v1Raw('/im/group/list');
    expect(res.body.total_records).toBeGreaterThan(300);
    expect(res.body.groups).toHaveLength(res.body.total_records);
    expect(new Set(res.body.groups.map((g: any) => g.group_id)).size).toBe(res.body.total_records);
    // Two pages of 300; the caller's account was read once for the key by an earlier call.
    expect(res.headers.get('x-v2-calls')).toBe('2');
  });
});

describe('/im/group/get', () => {
  it('answers what v2 holds, in v1 names', async () => {
    const id = await createImGroup({ search_by_domain: true, search_by_ma_account: true });
    const answer = await gw.v1('/im/group/get', { id });
    expectV1Shape(answer, IM_GROUP_SHAPE, { inOrder: true });
    expect(answer).toMatchObject({
      group_id: id,
      option_search_by_domain: true,
      option_search_by_account: false,
      option_search_by_ma_account: true,
    });
  });

  it('answers 4130 for an unknown IM group (a plain group id is not one)', async () => {
    expectV1Error(await gw.v1('/im/group/get', { id: 'no-such-group' }), 4130);
    const plain = await gw.v2('POST', '/groups', { body: { name: uniqueName() } });
    expectV1Error(await gw.v1('/im/group/get', { id: plain.body.id }), 4130);
  });
});

describe('/im/group/edit', () => {
  it('changes only the fields given and answers the IM group output', async () => {
    const id = await createImGroup({ type: 'restricted', search_by_account: true });
    const name = uniqueName('renamed');
    const answer = await gw.v1('/im/group/edit', { id, name, option_search_by_domain: true });
    expectV1Shape(answer, IM_GROUP_SHAPE, { inOrder: true });
    expect(answer).toMatchObject({ group_id: id, name, option_search_by_domain: true, option_search_by_account: true });
    // No v1 defaults on edit: the type stays restricted.
    expect(await v2ImGroup(id)).toMatchObject({ name, type: 'restricted', search_by_domain: true, search_by_account: true });
    await gw.v1('/im/group/edit', { id, type: 'SHARED', option_search_by_ma: false });
    expect(await v2ImGroup(id)).toMatchObject({ type: 'shared', search_by_ma_account: false });
  });

  it('answers 4130 for an unknown IM group and 300 for a bad type, changing nothing', async () => {
    expectV1Error(await gw.v1('/im/group/edit', { id: 'no-such-group', name: uniqueName() }), 4130);
    const id = await createImGroup();
    const before = await v2ImGroup(id);
    expectV1Error(await gw.v1('/im/group/edit', { id, type: 'Open' }), 300, /^Invalid parameter: type\./);
    expect(await v2ImGroup(id)).toEqual(before);
  });
});

describe('/im/group/delete', () => {
  it('deletes the IM group and answers deleted_count 1', async () => {
    const id = await createImGroup();
    const answer = await gw.v1('/im/group/delete', { id });
    expectV1Shape(answer, { id: 'string', deleted_at: 'string', deleted_count: 'number' }, { inOrder: true });
    expect(answer).toEqual({ id, deleted_at: expect.stringMatching(V1_TIME), deleted_count: 1 });
    expect((await gw.v2('GET', `/im/groups/${id}`)).status).toBe(404);
    expectV1Error(await gw.v1('/im/group/delete', { id }), 4130);
  });
});

describe('/im/group/member/list, /im/group/member/add, /im/group/member/delete', () => {
  it('lists members in the v1 page shape', async () => {
    const id = await createImGroup();
    const users = await createUsers(gw, 2);
    await gw.v2('POST', `/im/groups/${id}/members`, { body: { members: users.map((u) => ({ id: u.id })) } });
    const answer = await gw.v1('/im/group/member/list', { id, page_size: 1 });
    expectV1Shape(
      answer,
      { page_count: 'number', page_number: 'number', page_size: 'number', total_records: 'number', members: 'array' },
      { inOrder: true },
    );
    expect(answer).toMatchObject({ page_count: 2, page_number: 1, page_size: 1, total_records: 2 });
    expectV1Shape(
      answer.members[0],
      { id: 'string', email: 'string', first_name: 'string', last_name: 'string', pic_url: 'string' },
      { inOrder: true },
    );
    expectV1Error(await gw.v1('/im/group/member/list', { id: 'no-such-group' }), 4130);
  });

  it('adds members through the legacy /im/group/member/add path, in batches past 30', async () => {
    const id = await createImGroup();
    const users = await createUsers(gw, 31);
    const answer = await gw.v1('/im/group/member/add', { id, member_ids: users.map((u) => u.id).join(',') });
    expect(answer).toEqual({ id, add_at: expect.stringMatching(V1_TIME), add_count: 31 });
    expect(await memberIdsOf(id)).toEqual(users.map((u) => u.id).sort());
    // That path is for IM groups only.
    const plain = await gw.v2('POST', '/groups', { body: { name: uniqueName() } });
    expectV1Error(await gw.v1('/im/group/member/add', { id: plain.body.id, member_ids: users[0]!.id }), 4130);
  });

  it('removes members and counts them', async () => {
    const id = await createImGroup();
    const users = await createUsers(gw, 2);
    await gw.v2('POST', `/im/groups/${id}/members`, { body: { members: users.map((u) => ({ id: u.id })) } });
    const answer = await gw.v1('/im/group/member/delete', { id, member_ids: users[0]!.id });
    expectV1Shape(answer, { id: 'string', deleted_at: 'string', deleted_count: 'number' }, { inOrder: true });
    expect(answer).toMatchObject({ id, deleted_count: 1 });
    expect(await memberIdsOf(id)).toEqual([users[1]!.id]);
    expectV1Error(await gw.v1('/im/group/member/delete', { id: 'no-such-group', member_ids: users[1]!.id }), 4130);
  });
});

describe('when the service has retired the IM Group APIs for the account', () => {
  const IM_GROUPS_GONE = { error: { code: 4137, message: 'The IM Group APIs are no longer available.' } };
  const setAvailable = async (available: boolean) => {
    const answer = await gw.control('PUT', `/accounts/${accountId}/im-groups`, { available });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  };

  it("answers every IM group endpoint v2's 4137 as v1's error, and changes nothing", async () => {
    const id = await createImGroup();
    const [member, other] = await createUsers(gw, 2);
    await gw.v2('POST', `/im/groups/${id}/members`, { body: { members: [{ id: member!.id }] } });
    const before = { group: await v2ImGroup(id), members: await memberIdsOf(id), count: await imGroupCount() };

    await setAvailable(false);
    try {
      const calls: [string, Record<string, string>][] = [
        ['/im/group/create', { name: uniqueName('im') }],
        ['/im/group/list', {}],
        ['/im/group/get', { id }],
        ['/im/group/edit', { id, name: uniqueName('im') }],
        ['/im/group/delete', { id }],
        ['/im/group/member/list', { id }],
        ['/im/group/member/add', { id, member_ids: other!.id }],
        ['/im/group/member/delete', { id, member_ids: member!.id }],
      ];
      for (const [path, params] of calls) expect(await gw.v1(path, params), path).toEqual(IM_GROUPS_GONE);
      expect((await gw.v2('GET', `/im/groups/${id}`)).status).toBe(410);
    } finally {
      await setAvailable(true);
    }
    expect({ group: await v2ImGroup(id), members: await memberIdsOf(id), count: await imGroupCount() }).toEqual(before);
  });

  it('refuses a body that is not {"available": boolean}, and keeps the APIs available', async () => {
    const refused = await gw.control('PUT', `/accounts/${accountId}/im-groups`, { available: 'no' });
    expect(refused.status).toBe(400);
    expect((await gw.v2('GET', '/im/groups')).status).toBe(200);
  });
});
