import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';

/**
 * Today's replacements of the retired chat routes, answered as the service's own SDK types them
 * (docs/live-evidence.md, "Team Chat, chat metrics and the ZPK today"): a user's sessions by
 * membership, a session's messages by channel or contact, and /metrics/chat's sent counts, each
 * paged by token only with no total.
 */
let sb: RunningSandbox;
let accountId: string;
let owner: { id: string; email: string };
let channel: string;
const peer = 'peer@example.com';
const MARCH = { from: '2019-03-01T00:00:00Z', to: '2019-03-31T23:59:59Z' };

beforeAll(async () => {
  sb = await startSandbox();
  accountId = sb.sandbox.state.accountsByKey.get(sb.sandbox.credentials.apiKey)!.id;
  owner = (await sb.v2('GET', '/users/me')).body;
  const make = async (body: unknown) => (await sb.control('POST', `/accounts/${accountId}/chat-sessions`, body)).body;
  channel = (
    await make({
      type: 'Group',
      name: 'Team',
      messages: [
        { message: 'one', sender: owner.email, date_time: '2019-03-02T10:00:00Z' },
        { message: 'two', sender: peer, date_time: '2019-03-03T10:00:00Z' },
      ],
    })
  ).session_id;
  await make({ type: '1:1', members: [owner.email, peer], messages: [{ message: 'hi', sender: peer, date_time: '2019-03-05T10:00:00Z' }] });
  // Not the owner's: listed for neither query below.
  await make({ type: 'Group', name: 'Others', messages: [{ message: 'x', sender: 'x@example.com', date_time: '2019-03-06T10:00:00Z' }] });
  await sb.control('POST', `/accounts/${accountId}/im-activity`, {
    user: owner.id,
    date: '2019-03-04',
    counts: { total_send: 6, group_send: 2, images_send: 1, voice_send: 1, total_receive: 9 },
  });
});
afterAll(() => sb.close());

describe('GET /chat/users/{userId}/sessions', () => {
  it("lists the sessions the user is in, a channel by id and a chat by its peer's email, with no total", async () => {
    const answer = await sb.v2('GET', '/chat/users/me/sessions', { query: MARCH });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ...MARCH,
      next_page_token: '',
      page_size: 30,
      sessions: [
        { peer_contact_email: peer, name: peer, type: '1:1', last_message_sent_time: '2019-03-05T10:00:00Z' },
        { channel_id: channel, name: 'Team', type: 'groupchat', last_message_sent_time: '2019-03-03T10:00:00Z' },
      ],
    });
    const groups = await sb.v2('GET', `/chat/users/${owner.email}/sessions`, { query: { ...MARCH, type: 'groupchat' } });
    expect(groups.body.sessions.map((s: { type: string }) => s.type)).toEqual(['groupchat']);
  });

  it('pages by token, and refuses a bad type, a backwards range and an unknown user', async () => {
    const first = await sb.v2('GET', '/chat/users/me/sessions', { query: { ...MARCH, page_size: 1 } });
    const second = await sb.v2('GET', '/chat/users/me/sessions', {
      query: { ...MARCH, page_size: 1, next_page_token: first.body.next_page_token },
    });
    expect([...first.body.sessions, ...second.body.sessions].map((s: { type: string }) => s.type)).toEqual(['1:1', 'groupchat']);
    expect(second.body.next_page_token).toBe('');
    expect((await sb.v2('GET', '/chat/users/me/sessions', { query: { type: 'Group' } })).status).toBe(400);
    expect((await sb.v2('GET', '/chat/users/me/sessions', { query: { from: MARCH.to, to: MARCH.from } })).status).toBe(400);
    expect((await sb.v2('GET', '/chat/users/nobody@example.com/sessions')).status).toBe(404);
  });
});

describe('GET /chat/users/{userId}/messages', () => {
  it('lists a channel or a contact, oldest first', async () => {
    const group = await sb.v2('GET', '/chat/users/me/messages', { query: { ...MARCH, to_channel: channel } });
    expect(group.body.messages.map((m: { message: string; sender: string }) => [m.message, m.sender])).toEqual([
      ['one', owner.email],
      ['two', peer],
    ]);
    expect(Object.keys(group.body.messages[0]).sort()).toEqual(['date_time', 'id', 'message', 'sender']);
    const direct = await sb.v2('GET', '/chat/users/me/messages', { query: { ...MARCH, to_contact: peer } });
    expect(direct.body.messages.map((m: { message: string }) => m.message)).toEqual(['hi']);
  });

  it('takes exactly one of to_channel and to_contact, and a channel the user is in', async () => {
    expect((await sb.v2('GET', '/chat/users/me/messages', { query: MARCH })).status).toBe(400);
    expect((await sb.v2('GET', '/chat/users/me/messages', { query: { to_channel: channel, to_contact: peer } })).status).toBe(400);
    expect((await sb.v2('GET', '/chat/users/me/messages', { query: { to_channel: 'nope' } })).status).toBe(404);
  });
});

describe('GET /metrics/chat', () => {
  it('answers what each user sent, by kind, and nothing received, with no total', async () => {
    const answer = await sb.v2('GET', '/metrics/chat', { query: { from: '2019-03-01', to: '2019-03-31' } });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['from', 'next_page_token', 'page_size', 'to', 'users']);
    expect(answer.body.users.find((u: { user_id: string }) => u.user_id === owner.id)).toEqual({
      user_id: owner.id,
      user_name: expect.any(String),
      email: owner.email,
      total_sent: 6,
      group_sent: 2,
      p2p_sent: 4,
      text_sent: 4,
      files_sent: 0,
      images_sent: 1,
      audio_sent: 1,
      video_sent: 0,
      giphys_sent: 0,
      code_sippet_sent: 0,
    });
  });
});
