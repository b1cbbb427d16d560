import { describe, expect, it } from 'vitest';
import type { RecordedCall } from '../compare/calls.js';
import { ALL_ENDPOINTS } from '../translators/endpoints.js';
import type { EndpointDefinition } from '../translators/kit/define.js';
import type { FieldRow } from '../v1/field-map.js';
import { planEndpoint } from './plan.js';

/**
 * The plan of an endpoint's steps is read from its declarations and the recorded calls: a step's
 * condition and path values from the calls, its body from the input rows (so one row changed
 * changes the plan), and what neither says is listed as what the recipe cannot express.
 */

const byPath = (path: string) => ALL_ENDPOINTS.find((e) => e.path === path)!;

const call = (path: string, params: RecordedCall['params'], v2: [string, string, string][], answer: unknown = {}): RecordedCall => ({
  time: '2024-05-01T10:00:00.000Z',
  path,
  params,
  dataType: 'JSON',
  answer,
  v2Calls: v2.map(([method, at, route]) => ({ method, path: at, status: 200, ms: 1, route })),
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

  it('says what it cannot express: two writes the declarations do not part', () => {
    const created = call(
      '/ma/account/create',
      { email: 'a@b.c' },
      [
        ['POST', '/accounts', 'POST /accounts'],
        ['PATCH', '/accounts/acc1/settings', 'PATCH /accounts/{accountId}/settings'],
      ],
      { id: 'acc1' },
    );
    const plan = planEndpoint(byPath('/ma/account/create'), [created]);
    expect(plan.cannotExpress.join('\n')).toMatch(/2 write steps .*which input row goes to which/);
    expect(plan.steps.at(-1)).toMatchObject({ route: 'DELETE /accounts/{accountId}', when: { kind: 'rollback' } });
  });
});
