import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../src/gateway.js';
import { postV1 } from '../support/v1-form.js';
import { startFaultUpstream, startGatewayOver, type Fault, type FaultUpstream } from '../support/fault-upstream.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { FUTURE } from '../support/v1-answers.js';

/**
 * Every v2 answer a translator reads is shape-checked: a 2xx that is not the object the translator
 * reads (a `[]`, a `{}`, a field of the wrong type) answers the v1 upstream error of the failure
 * table, never a v1 success with fields missing. A real gateway over the real sandbox, with a
 * fault-injecting proxy between them that replaces one v2 answer.
 */
let sandbox: RunningSandbox;
let faults: FaultUpstream;
let gateway: RunningGateway;
let creds: { api_key: string; api_secret: string };
let meetingId: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  faults = await startFaultUpstream(`${sandbox.url}/v2`);
  creds = { api_key: sandbox.sandbox.credentials.apiKey, api_secret: sandbox.sandbox.credentials.apiSecret };
  gateway = await startGatewayOver(faults.url);
  const created = await v1('/meeting/create', { host_id: owner(), type: '2', topic: 'Shapes', start_time: FUTURE, duration: '30' });
  meetingId = created.id;
});
afterEach(() => {
  faults.rules.length = 0;
  faults.seen.length = 0;
});
afterAll(async () => {
  await gateway.close();
  await faults.close();
  await sandbox.close();
});

async function v1(path: string, params: Record<string, string>): Promise<any> {
  return (await postV1(gateway.url, path, { ...creds, ...params })).json();
}

const owner = () => sandbox.sandbox.master.ownerId;
const answer200 = (body: string): Fault => ({ kind: 'answer', status: 200, body });

/** The failure table's row for "a 2xx that is not a v2 answer": 503, the message kept, and what was changed. */
const NOTHING_CHANGED = 'Nothing was changed.';
const MAY_HAVE_APPLIED = 'The request may or may not have been applied; check before retrying a write.';

describe('a read whose v2 answer does not fit answers the v1 upstream error', () => {
  const reads = [
    {
      endpoint: '/user/get',
      params: () => ({ id: owner() }),
      v2: { method: 'GET', path: /^\/users\/[^/]+$/, call: 'GET /users/{userId}' },
      wrongType: '{"id": 42, "email": "someone@example.com", "type": 1}',
      field: 'without a string `id`',
    },
    {
      endpoint: '/meeting/get',
      params: () => ({ id: meetingId, host_id: owner() }),
      v2: { method: 'GET', path: /^\/meetings\/\d+$/, call: 'GET /meetings/{meetingId}' },
      wrongType: '{"id": 1, "host_id": "h", "type": 2, "join_url": "https://example.com/j/1", "occurrences": "none"}',
      field: 'without an array `occurrences`',
    },
    {
      endpoint: '/user/list',
      params: () => ({}),
      v2: { method: 'GET', path: /^\/users$/, call: 'GET /users' },
      wrongType: '{"page_count": 1, "page_number": 1, "page_size": 30, "total_records": 1, "users": [{"id": "u", "email": false}]}',
      field: 'without a string `users[0].email`',
    },
  ];

  for (const read of reads) {
    it(`${read.endpoint}: a 200 of [] is no answer`, async () => {
      faults.rules.push({ method: read.v2.method, path: read.v2.path, fault: answer200('[]') });
      const answer = await v1(read.endpoint, read.params());
      expect(answer.error).toMatchObject({ code: 503, message: expect.stringContaining(NOTHING_CHANGED) });
      expect(answer.error.message).toMatch(/^The v2 service answered /);
    });

    it(`${read.endpoint}: a 200 of {} names the call and the first field missing`, async () => {
      faults.rules.push({ method: read.v2.method, path: read.v2.path, fault: answer200('{}') });
      const answer = await v1(read.endpoint, read.params());
      expect(answer.error.code).toBe(503);
      expect(answer.error.message).toMatch(
        new RegExp(`^The v2 service answered ${escape(read.v2.call)} without (a|an) [a-z ]+ \`\\w+\`\\. `),
      );
      expect(answer.error.message).toContain(NOTHING_CHANGED);
    });

    it(`${read.endpoint}: a field of the wrong type is named, its value never shown`, async () => {
      faults.rules.push({ method: read.v2.method, path: read.v2.path, fault: answer200(read.wrongType) });
      const answer = await v1(read.endpoint, read.params());
      expect(answer.error).toEqual({ code: 503, message: `The v2 service answered ${read.v2.call} ${read.field}. ${NOTHING_CHANGED}` });
    });
  }

  it('/user/get answers the user when the answer fits (the check passes the sandbox through the same proxy)', async () => {
    const answer = await v1('/user/get', { id: owner() });
    expect(answer.error).toBeUndefined();
    expect(answer).toMatchObject({ id: owner(), email: expect.any(String) });
  });

  it('concurrent identical reads each answer the error (each v1 call checks the answer it got, shared or not)', async () => {
    faults.rules.push({ method: 'GET', path: /^\/users\/[^/]+$/, fault: { kind: 'answer', status: 200, body: '{}' } });
    const answers = await Promise.all([v1('/user/get', { id: owner() }), v1('/user/get', { id: owner() })]);
    for (const answer of answers)
      expect(answer.error).toMatchObject({ code: 503, message: expect.stringContaining('GET /users/{userId}') });
  });
});

describe("a field the route's one schema leaves optional, which one translator needs", () => {
  // GET /users/{userId}'s schema is the union of what every translator reads: `status` is optional
  // there (the v2 reference promises it nowhere), and /user/delete, which decides by it, checks it.
  const userWithout = (id: string) => answer200(JSON.stringify({ id, email: 'someone@example.com', account_id: 'acc' }));

  it('/user/delete answers the same upstream error the route check gives, and deletes nothing', async () => {
    const created = await v1('/user/custcreate', { email: `optional-${Date.now()}@example.com`, type: '1' });
    expect(created.error).toBeUndefined();
    faults.rules.push({ method: 'GET', path: /^\/users\/[^/]+$/, fault: userWithout(created.id) });
    const answer = await v1('/user/delete', { id: created.id });
    expect(answer.error).toEqual({
      code: 503,
      message: `The v2 service answered GET /users/{userId} without a string \`status\`. ${NOTHING_CHANGED}`,
    });
    expect(faults.seen.filter((request) => request.method === 'DELETE')).toEqual([]);
    expect(sandbox.sandbox.state.users.has(created.id)).toBe(true);
  });

  it('/user/get, which does not read it, answers the same v2 user', async () => {
    faults.rules.push({ method: 'GET', path: /^\/users\/[^/]+$/, fault: userWithout(owner()) });
    const answer = await v1('/user/get', { id: owner() });
    expect(answer.error).toBeUndefined();
    expect(answer).toMatchObject({ id: owner(), email: 'someone@example.com' });
  });
});

describe('a write whose v2 answer does not fit says it may have been applied', () => {
  const create = () =>
    v1('/meeting/create', { host_id: owner(), type: '2', topic: `Shape ${Date.now()}`, start_time: FUTURE, duration: '30' });
  const meetingsNow = () => sandbox.sandbox.state.meetings.size;

  it.each([
    ['[]', '[]', /^The v2 service answered /],
    ['{}', '{}', /^The v2 service answered POST \/users\/\{userId\}\/meetings without a number or string `id`\. /],
    [
      'a wrong-typed field',
      '{"id": 1, "host_id": "h", "type": "2", "join_url": "https://example.com/j/1"}',
      /answered POST \/users\/\{userId\}\/meetings without a number `type`\. /,
    ],
  ])('meeting/create applied, then answered %s: the v1 upstream error, never success', async (_label, body, message) => {
    const before = meetingsNow();
    faults.rules.push({
      method: 'POST',
      path: /^\/users\/[^/]+\/meetings$/,
      fault: { kind: 'answer-after-apply', status: 201, body },
      times: 1,
    });
    const answer = await create();
    expect(answer.error).toMatchObject({ code: 503, message: expect.stringMatching(message) });
    expect(answer.error.message).toContain(MAY_HAVE_APPLIED);
    // The write did happen upstream: the answer says it may have, rather than claiming nothing changed.
    expect(meetingsNow()).toBe(before + 1);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
