import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectV1Shape, v1ExampleShape, v2User } from '../support/v1-answers.js';

/**
 * /chat/list and /chat/get over today's Team Chat history (a user's sessions and messages), with
 * sessions made through the control API. A group is named by its channel id, a one-to-one chat by
 * the peer's email, in v1's `session_id`.
 */
let gw: TestGateway;
let group: { session_id: string };
const owner = 'owner@sandbox.v1gate.local';
/** A user of the account, whose own history /chat/list reads by `email`. */
let ada: string;
const range = { from: '2019-03-01', to: '2019-03-31' };

beforeAll(async () => {
  gw = await startTestGateway();
  ada = (await v2User(gw)).email;
  const accountId = gw.sandbox.state.accountsByKey.get(gw.credentials.api_key)!.id;
  const make = async (body: unknown) => (await gw.control('POST', `/accounts/${accountId}/chat-sessions`, body)).body;
  group = await make({
    type: 'Group',
    name: 'Support',
    messages: [
      { message: 'first', sender: owner, date_time: '2019-03-04T10:00:00Z' },
      { message: 'second', sender: ada, date_time: '2019-03-05T11:30:00Z' },
      { message: 'later', sender: owner, date_time: '2019-04-02T09:00:00Z' },
    ],
  });
  await make({ type: '1:1', members: [owner, ada], messages: [{ message: 'hi', sender: owner, date_time: '2019-03-10T08:00:00Z' }] });
  await make({ type: 'Group', name: 'Old', messages: [{ message: 'old', sender: owner, date_time: '2018-01-01T00:00:00Z' }] });
  // A chat the owner is not in: another user's history, not the owner's.
  await make({
    type: '1:1',
    members: [ada, 'bob@example.com'],
    messages: [{ message: 'psst', sender: ada, date_time: '2019-03-12T08:00:00Z' }],
  });
});
afterAll(() => gw.close());

describe('/chat/list', () => {
  it('answers the sessions with a message in the range, in the shape of the reference', async () => {
    const answer = await gw.v1('/chat/list', range);
    expectV1Shape(answer, v1ExampleShape('/chat/list'), { inOrder: true });
    expectV1Shape(answer.chat_list[0], v1ExampleShape('/chat/list', 'chat_list'), { inOrder: true });
    expect(answer).toMatchObject({ from: '2019-03-01', to: '2019-03-31', page_size: 30, page_count: 1, next_page_token: '' });
    // Most recent first, by each session's last message (also one after the range).
    expect(answer.chat_list).toEqual([
      {
        session_id: group.session_id,
        type: 'Group',
        participants: '',
        group_name: 'Support',
        last_message_send_time: '2019-04-02T09:00:00Z',
      },
      { session_id: ada, type: '1:1', participants: '', group_name: '', last_message_send_time: '2019-03-10T08:00:00Z' },
    ]);
  });

  it("answers the sessions of the user `email` names, each one-to-one chat by that user's peer", async () => {
    const answer = await gw.v1('/chat/list', { ...range, email: ada });
    expect(answer.chat_list.map((s: { session_id: string; type: string }) => [s.session_id, s.type])).toEqual([
      [group.session_id, 'Group'],
      ['bob@example.com', '1:1'],
      [owner, '1:1'],
    ]);
    expect((await gw.v1('/chat/list', { ...range, email: 'nobody@example.com' })).error.code).toBe(1001);
  });

  it('pages by token', async () => {
    const first = await gw.v1('/chat/list', { ...range, page_size: 1 });
    expect(first.chat_list).toHaveLength(1);
    expect(first.next_page_token).not.toBe('');
    const second = await gw.v1('/chat/list', { ...range, page_size: 1, next_page_token: first.next_page_token });
    expect(first).toMatchObject({ page_size: 1, page_count: 2 });
    expect(second.chat_list.map((s: { session_id: string }) => s.session_id)).toEqual([ada]);
    expect(second).toMatchObject({ page_count: 2, next_page_token: '' });
  });

  it('answers 300 for missing or bad dates and a backwards range, before any v2 call', async () => {
    expect(await gw.v1('/chat/list', { to: '2019-03-31' })).toEqual({ error: { code: 300, message: 'from is required.' } });
    const bad = await gw.v1Raw('/chat/list', { from: '2019-02-30', to: '2019-03-31' });
    expect(bad.body.error.code).toBe(300);
    expect(bad.headers.get('x-v2-calls')).toBe('0');
    const backwards = await gw.v1Raw('/chat/list', { from: '2019-03-31', to: '2019-03-01' });
    expect(backwards.body).toEqual({ error: { code: 300, message: expect.stringMatching(/^Invalid parameter: to\./) } });
    expect(backwards.headers.get('x-v2-calls')).toBe('0');
  });
});

describe('/chat/get', () => {
  it("answers the session's messages in the range, with its group name, in the shape of the reference", async () => {
    const answer = await gw.v1('/chat/get', { session_id: group.session_id, ...range });
    expectV1Shape(answer, v1ExampleShape('/chat/get'), { inOrder: true });
    expect(answer).toEqual({
      session_id: group.session_id,
      group_name: 'Support',
      from: '2019-03-01',
      to: '2019-03-31',
      page_size: 30,
      page_count: 1,
      next_page_token: '',
      chat_messages: [
        { message: 'first', sender: owner, date_time: '2019-03-04T10:00:00Z' },
        { message: 'second', sender: ada, date_time: '2019-03-05T11:30:00Z' },
      ],
    });
  });

  it("answers a one-to-one chat's messages by the peer's email, with no group name", async () => {
    const answer = await gw.v1Raw('/chat/get', { session_id: ada, ...range });
    expect(answer.body).toEqual({
      session_id: ada,
      group_name: '',
      from: '2019-03-01',
      to: '2019-03-31',
      page_size: 30,
      page_count: 1,
      next_page_token: '',
      chat_messages: [{ message: 'hi', sender: owner, date_time: '2019-03-10T08:00:00Z' }],
    });
    // A one-to-one chat has no group name to look up: one v2 call.
    expect(answer.headers.get('x-v2-calls')).toBe('1');
  });

  it('answers an error for an unknown session, and 300 for a missing one', async () => {
    expect((await gw.v1('/chat/get', { session_id: 'nope', ...range })).error.code).toBe(300);
    expect(await gw.v1('/chat/get', range)).toEqual({ error: { code: 300, message: 'session_id is required.' } });
  });
});
