import { describe, expect, it } from 'vitest';
import type { RecordedCall } from '../compare/calls.js';
import { ALL_ENDPOINTS } from '../translators/endpoints.js';
import type { EndpointDefinition } from '../translators/kit/define.js';
import type { FieldRow } from '../v1/field-map.js';
import { planEndpoint } from './plan.js';
import { runPlan } from './run-plan.js';

/**
 * The plan of an endpoint's steps is read from its declarations and the recorded calls: a step's
 * condition and path values from the calls, its body from the input rows (so one row changed
 * changes the plan), and what neither says is listed as what the recipe cannot express.
 */

const byPath = (path: string) => ALL_ENDPOINTS.find((e) => e.path === path)!;

/** One v2 call of a record, answered 200, with its query where it had one. */
const v2Call = (method: string, path: string, route: string, query?: Record<string, string>) => ({
  method,
  path,
  status: 200,
  ms: 1,
  route,
  ...(query ? { query } : {}),
});

const call = (path: string, params: RecordedCall['params'], v2: [string, string, string][], answer: unknown = {}): RecordedCall => ({
  time: '2024-05-01T10:00:00.000Z',
  path,
  params,
  dataType: 'JSON',
  answer,
  v2Calls: v2.map(([method, at, route]) => v2Call(method, at, route)),
  ms: 1,
});

const update = (id: string, topic?: string) =>
  call(
    '/meeting/update',
    { id, host_id: 'host1', ...(topic ? { topic } : {}) },
    [
      ['GET', `/meetings/${id}`, 'GET /meetings/{meetingId}'],
      ['PATCH', `/meetings/${id}`, 'PATCH /meetings/{meetingId}'],
    ],
    { id: Number(id), updated_at: '2024-05-01T10:00:00Z' },
  );

describe('the plan of an endpoint', () => {
  it('names where each path value comes from, when each step runs, and the body by v1 parameter', () => {
    const plan = planEndpoint(byPath('/meeting/update'), [update('111', 'A'), update('222')]);
    const [read, patch] = plan.steps;
    expect(read).toMatchObject({ route: 'GET /meetings/{meetingId}', when: { kind: 'always', times: 1 } });
    expect(read!.pathParams).toEqual({ meetingId: { from: 'param', param: 'id', as: expect.any(String) } });
    expect(patch!.body).toEqual(expect.arrayContaining([expect.objectContaining({ v1: 'topic', v2: 'topic', codec: { kind: 'same' } })]));
    // The answer's id is the parameter answered back; updated_at is the translator's.
    expect(plan.answer).toEqual([{ v1: 'id', source: { from: 'param', param: 'id', as: 'number' } }]);
    expect(plan.answerComputed).toEqual(['updated_at']);
    expect(plan.cannotExpress).toEqual([]);
  });

  it('changes when one row of a field table changes', () => {
    const endpoint = byPath('/meeting/update');
    const [first, ...rest] = endpoint.tables!;
    const moved: FieldRow[] = first!.map((row) => (row.v1 === 'topic' ? { ...row, v2: 'title' } : row));
    const changed: EndpointDefinition = { ...endpoint, tables: [moved, ...rest] };
    const patchOf = (e: EndpointDefinition) => planEndpoint(e, [update('111', 'A')]).steps[1]!.body!;
    expect(patchOf(endpoint).find((f) => f.v1 === 'topic')?.v2).toBe('topic');
    expect(patchOf(changed).find((f) => f.v1 === 'topic')?.v2).toBe('title');
  });

  it('plans a step made only when a parameter is given, and a fan-out per item of a list', () => {
    const endpoint = byPath('/meeting/update');
    const withHost = (id: string, email: boolean) =>
      call('/meeting/update', { id, ...(email ? { host_email: 'a@b.c' } : {}) }, [
        ...(email ? ([['GET', '/users/a%40b.c', 'GET /users/{userId}']] as [string, string, string][]) : []),
        ['GET', `/meetings/${id}`, 'GET /meetings/{meetingId}'],
      ]);
    const plan = planEndpoint(endpoint, [withHost('1', true), withHost('2', false)]);
    expect(plan.steps.find((s) => s.route === 'GET /users/{userId}')).toMatchObject({
      when: { kind: 'given', param: 'host_email' },
      pathParams: { userId: { from: 'param', param: 'host_email' } },
    });
    const members = (ids: string) =>
      call(
        '/group/member/delete',
        { id: 'g1', member_ids: ids },
        ids.split(',').map((m) => ['DELETE', `/groups/g1/members/${m}`, 'DELETE /groups/{groupId}/members/{memberId}']),
      );
    const fanOut = planEndpoint(byPath('/group/member/delete'), [members('u1,u2,u3'), members('u4')]);
    expect(fanOut.steps.find((s) => s.method === 'DELETE' && s.when.kind !== 'rollback')).toMatchObject({
      when: { kind: 'per-item', param: 'member_ids' },
      pathParams: { groupId: { from: 'param', param: 'id' }, memberId: { from: 'item', param: 'member_ids' } },
    });
  });

  it("parts the bodies of two writes by the endpoint's declared writes, the ones its translator builds them from", () => {
    const created = (email: string, first?: string) =>
      call(
        '/user/create',
        { email, type: '3', ...(first ? { first_name: first } : {}) },
        [
          ['POST', '/users', 'POST /users'],
          ['PATCH', `/users/${email}-id/settings`, 'PATCH /users/{userId}/settings'],
          ['GET', `/users/${email}-id`, 'GET /users/{userId}'],
        ],
        { id: `${email}-id`, email },
      );
    const endpoint = byPath('/user/create');
    const plan = planEndpoint(endpoint, [created('a@b.c', 'A'), created('d@e.f')]);
    expect(plan.cannotExpress).toEqual([]);
    const post = plan.steps.find((s) => s.route === 'POST /users')!;
    const settings = plan.steps.find((s) => s.route === 'PATCH /users/{userId}/settings')!;
    expect(post.constants).toEqual({ action: 'create' });
    expect(post.body!.map((f) => f.v2).sort()).toEqual([
      'user_info.email',
      'user_info.first_name',
      'user_info.last_name',
      'user_info.password',
      'user_info.type',
    ]);
    // The corp type is licensed today: the codec is its own tables, as data.
    expect(post.body!.find((f) => f.v1 === 'type')!.codec).toMatchObject({ kind: 'lookup', toV2: [[3, 2]], toV2Else: 'same' });
    expect(settings.pathParams).toEqual({ userId: { from: 'step', step: 0, field: 'id' } });
    expect(settings.v1Defaults).toBe(true);
    expect(settings.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ v1: 'disable_chat', v2: 'in_meeting.chat', default: false })]),
    );
    expect(settings.composites!.map((c) => c.v2)).toEqual(['recording.auto_recording', 'in_meeting.entry_exit_chime']);
    expect(settings.body!.some((f) => f.v1 === 'first_name')).toBe(false);
    // A write the declaration does not name is said to be the translator's.
    const fewer: EndpointDefinition = { ...endpoint, v2Writes: endpoint.v2Writes!.filter((w) => w.route.name !== 'POST /users') };
    expect(planEndpoint(fewer, [created('a@b.c', 'A')]).cannotExpress.join('\n')).toMatch(/POST \/users: no declared write/);
  });

  const accountCreated = call(
    '/ma/account/create',
    { email: 'a@b.c', first_name: 'A', last_name: 'B', password: 'Passw0rd!x', meeting_capacity: '50' },
    [
      ['POST', '/accounts', 'POST /accounts'],
      ['PATCH', '/accounts/acc1/settings', 'PATCH /accounts/{accountId}/settings'],
    ],
    { id: 'acc1' },
  );

  it('parts a sub account create: the owner and the options in POST /accounts, the settings after it, each with v1 defaults', () => {
    const plan = planEndpoint(byPath('/ma/account/create'), [accountCreated]);
    expect(plan.cannotExpress).toEqual([]);
    const post = plan.steps.find((s) => s.route === 'POST /accounts')!;
    const settings = plan.steps.find((s) => s.route === 'PATCH /accounts/{accountId}/settings')!;
    expect(post.body!.map((f) => f.v2)).toEqual([
      'email',
      'first_name',
      'last_name',
      'password',
      'options.share_rc',
      'options.room_connectors',
      'options.share_mc',
      'options.meeting_connectors',
      'options.pay_mode',
    ]);
    expect(post.v1Defaults).toBe(true);
    expect(post.body!.find((f) => f.v1 === 'pay_mode')).toMatchObject({ default: 1 });
    expect(settings.pathParams).toEqual({ accountId: { from: 'step', step: 0, field: 'id' } });
    expect(settings.v1Defaults).toBe(true);
    expect(settings.body!.some((f) => f.v1 === 'email' || f.v1 === 'pay_mode')).toBe(false);
    expect(settings.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ v1: 'meeting_capacity', v2: 'feature.meeting_capacity' })]),
    );
  });

  it('says what it cannot express: two writes the declarations do not part', () => {
    const undeclared: EndpointDefinition = { ...byPath('/ma/account/create'), v2Writes: undefined };
    const plan = planEndpoint(undeclared, [accountCreated]);
    expect(plan.cannotExpress.join('\n')).toMatch(/2 write steps .*which input row goes to which/);
    expect(plan.steps.at(-1)).toMatchObject({ route: 'DELETE /accounts/{accountId}', when: { kind: 'rollback' } });
  });
});

describe('the query and the page of a list', () => {
  const listed = (params: RecordedCall['params'], query: Record<string, string>): RecordedCall => ({
    ...call('/user/pending', params, []),
    v2Calls: [v2Call('GET', '/users', 'GET /users', query)],
    answer: {
      page_count: 1,
      total_records: 1,
      page_number: 1,
      page_size: 30,
      users: [{ id: 'u1', email: 'a@b.c', first_name: 'A', type: 1, verified: 0 }],
    },
  });
  const pending = [
    listed({}, { status: 'pending', page_size: '30' }),
    listed({ page_size: '5', page_number: '1' }, { status: 'pending', page_size: '5' }),
  ];

  it('names each query field by its source: a constant, a parameter with its v1 default, the paging token', () => {
    const [list] = planEndpoint(byPath('/user/pending'), pending).steps;
    expect(list!.query).toEqual({
      status: { from: 'constant', value: 'pending' },
      page_size: { from: 'param', param: 'page_size', as: 'number', default: '30' },
      next_page_token: { from: 'paging' },
    });
    expect(list!.pages).toEqual({
      items: 'users',
      until: 'v1-page',
      size: { from: 'param', param: 'page_size', as: 'number', default: '30' },
      number: { from: 'param', param: 'page_number', as: 'number', default: '1' },
    });
  });

  it("reads a report's dates as dates: v1's 2024-5-1 or a date-time is v2's 2024-05-01", () => {
    const report = (from: string, to: string): RecordedCall => ({
      ...call('/report/getaccountreport', { from, to }, []),
      v2Calls: [
        v2Call('GET', '/report/users', 'GET /report/users', { type: 'active', from: '2024-05-01', to: '2024-05-31', page_size: '30' }),
      ],
      answer: { page_count: 0, page_number: 1, page_size: 30, total_records: 0, users: [] },
    });
    const plan = planEndpoint(byPath('/report/getaccountreport'), [
      report('2024-5-1', '2024-5-31'),
      report('2024-05-01T00:00:00Z', '2024-05-31'),
    ]);
    expect(plan.steps[0]!.query).toMatchObject({
      from: { from: 'param', param: 'from', as: 'date' },
      to: { from: 'param', param: 'to', as: 'date' },
    });
    expect(plan.cannotExpress).toEqual([]);
  });

  it('says so of a query field no parameter, constant or paging explains', () => {
    const odd = [
      listed({}, { status: 'pending', page_size: '30', since: 'monday' }),
      listed({}, { status: 'pending', page_size: '30', since: 'friday' }),
    ];
    expect(planEndpoint(byPath('/user/pending'), odd).cannotExpress).toEqual([
      'GET /users: query since (monday, friday in the recorded calls) is neither a parameter, a constant nor the paging',
    ]);
  });

  it("builds v1's page: the paging fields, and each item through the item table's rows", () => {
    const plan = planEndpoint(byPath('/user/pending'), pending);
    const source = (v1: string) => plan.answer.find((a) => a.v1 === v1)?.source;
    expect(source('page_count')).toEqual({ from: 'paging', step: 0, field: 'page_count' });
    expect(source('total_records')).toEqual({ from: 'paging', step: 0, field: 'total_records' });
    expect(source('page_size')).toEqual({ from: 'param', param: 'page_size', as: 'number', default: '30' });
    const users = source('users');
    expect(users).toMatchObject({ from: 'items', step: 0, v2: 'users' });
    expect(users?.from === 'items' && users.fields).toEqual(
      expect.arrayContaining([
        { v1: 'email', v2: 'email', codec: { kind: 'same' } },
        { v1: 'first_name', v2: 'first_name', codec: { kind: 'same' } },
        // The user type's codec is written as its tables (v2 4 and 99 read back as v1 1), so the item's type is built too.
        { v1: 'type', v2: 'type', codec: expect.objectContaining({ kind: 'lookup', toV1: [[2, 2]], toV1Else: { value: 1 } }) },
      ]),
    );
    expect(plan.answerComputed).not.toContain('users[].type');
    expect(plan.cannotExpress).toEqual([]);
  });

  it("changes when a row of the list item's table changes", () => {
    const endpoint = byPath('/user/pending');
    const moved = endpoint.tables!.map((table) => table.map((row) => (row.v1 === 'first_name' ? { ...row, v2: 'given_name' } : row)));
    const itemsOf = (e: EndpointDefinition) => {
      const users = planEndpoint(e, pending).answer.find((a) => a.v1 === 'users')!.source;
      return users.from === 'items' ? users.fields : [];
    };
    expect(itemsOf(endpoint).find((f) => f.v1 === 'first_name')?.v2).toBe('first_name');
    expect(itemsOf({ ...endpoint, tables: moved }).find((f) => f.v1 === 'first_name')?.v2).toBe('given_name');
  });
});

describe('a list read twice with two filters, and its items read one by one', () => {
  const listed = (ids: string[]): RecordedCall => ({
    ...call('/meeting/list', { host_id: 'h1' }, []),
    v2Calls: [
      v2Call('GET', '/users/h1/meetings', 'GET /users/{userId}/meetings', { type: 'scheduled', page_size: '30' }),
      v2Call('GET', '/users/h1/meetings', 'GET /users/{userId}/meetings', { type: 'live', page_size: '300' }),
      ...ids.map((id) => v2Call('GET', `/meetings/${id}`, 'GET /meetings/{meetingId}')),
    ],
    answer: {
      page_count: 1,
      total_records: ids.length,
      page_number: 1,
      page_size: 30,
      meetings: ids.map((id) => ({ id: Number(id), topic: 'T' })),
    },
  });

  it('plans one step per filter and a read per item of the first list', () => {
    const plan = planEndpoint(byPath('/meeting/list'), [listed(['11', '12']), listed(['13'])]);
    const [scheduled, live, read] = plan.steps;
    expect(scheduled).toMatchObject({ when: { kind: 'always', times: 1 }, query: { type: { from: 'constant', value: 'scheduled' } } });
    expect(scheduled!.query!.page_size).toMatchObject({ from: 'param', param: 'page_size', default: '30' });
    expect(live).toMatchObject({
      when: { kind: 'always', times: 1 },
      query: { type: { from: 'constant', value: 'live' }, page_size: { from: 'constant', value: '300' } },
    });
    expect(read).toMatchObject({
      route: 'GET /meetings/{meetingId}',
      when: { kind: 'per-list-item', step: 0 },
      pathParams: { meetingId: { from: 'list-item', field: 'id' } },
    });
    expect(plan.cannotExpress).toEqual([]);
  });
});

describe("a resource's own array beside a list step", () => {
  it("is no page: a meeting's occurrences are the meeting's, not the live list's items", () => {
    const got: RecordedCall = {
      ...call('/meeting/get', { id: '5', host_id: 'h1' }, []),
      v2Calls: [
        v2Call('GET', '/users/h1/meetings', 'GET /users/{userId}/meetings', { type: 'live', page_size: '300' }),
        v2Call('GET', '/meetings/5', 'GET /meetings/{meetingId}'),
      ],
      answer: { id: 5, type: 8, occurrences: [{ occurrence_id: '1', start_time: '2035-06-03T15:00:00Z' }] },
    };
    const plan = planEndpoint(byPath('/meeting/get'), [got]);
    expect(plan.answer.find((a) => a.v1 === 'occurrences')?.source.from).not.toBe('items');
  });
});

describe('a list v1 filters where v2 cannot', () => {
  // Three webinars listed; each read in full; the one taking registration is left out of /webinar/list.
  const webinars = [
    { id: 1, topic: 'Open', settings: { approval_type: 2 } },
    { id: 2, topic: 'Registered', settings: { approval_type: 0 } },
    { id: 3, topic: 'Also open', settings: {} },
  ];
  const listed: RecordedCall = {
    ...call('/webinar/list', { host_id: 'h1', page_size: '1', page_number: '2' }, [], {
      page_count: 2,
      page_number: 2,
      page_size: 1,
      total_records: 2,
      webinars: [{ id: 3, topic: 'Also open' }],
    }),
    v2Calls: [
      v2Call('GET', '/users/h1/webinars', 'GET /users/{userId}/webinars', { page_size: '300' }),
      ...webinars.map((w) => v2Call('GET', `/webinars/${w.id}`, 'GET /webinars/{webinarId}')),
    ],
  };

  it('reads every item in full, keeps those its declared rule keeps, then cuts v1 page from them', async () => {
    const endpoint = byPath('/webinar/list');
    const plan = planEndpoint(endpoint, [listed]);
    expect(plan.cannotExpress).toEqual([]);
    expect(plan.steps[0]!.pages).toMatchObject({ until: 'end', keep: endpoint.listKeep });
    expect(plan.steps[1]).toMatchObject({
      when: { kind: 'per-list-item', step: 0 },
      pathParams: { webinarId: { from: 'list-item', field: 'id' } },
    });
    const run = await runPlan(plan, listed.params, async (_method, path) => {
      const id = /^\/webinars\/(\d+)$/.exec(path)?.[1];
      if (id) return { status: 200, body: webinars.find((w) => String(w.id) === id) };
      return { status: 200, body: { total_records: 3, next_page_token: '', webinars: webinars.map(({ id, topic }) => ({ id, topic })) } };
    });
    expect(run.made.map((m) => m.path.split('?')[0])).toEqual(['/users/h1/webinars', '/webinars/1', '/webinars/2', '/webinars/3']);
    expect(run.answer).toMatchObject({
      total_records: 2,
      page_count: 2,
      webinars: [expect.objectContaining({ id: 3, topic: 'Also open' })],
    });
    expect(run.answer.webinars).toHaveLength(1);
  });
});
