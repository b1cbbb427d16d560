import { z } from 'zod';
import type { SandboxApp, SandboxContext } from '../context.js';
import { invalidField, notFound, V2Code } from '../errors.js';
import type { ChatSession } from '../model/chat.js';
import type { Account } from '../model/account.js';
import { tokenPageBody, tokenPagingQuery } from '../paging.js';
import { displayName } from '../report/people.js';
import type { SandboxState } from '../state.js';
import { dateTime, readQuery } from '../validation.js';

/**
 * Today's Team Chat history, which replaced /im/chat/sessions (docs/live-evidence.md, "Team Chat,
 * chat metrics and the ZPK today"): GET /chat/users/{userId}/sessions lists the sessions the user is
 * a member of, a channel by its `channel_id` and a one-to-one chat by its peer's email, the most
 * recent first; GET /chat/users/{userId}/messages lists one of them (`to_channel` or `to_contact`),
 * oldest first. `from` and `to` are date-times; both answers page by token only and carry no
 * `total_records`, as the service's own typings show.
 */

const range = { from: dateTime.optional(), to: dateTime.optional() };
const checkRange = (q: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx) => {
  if (q.from && q.to && Date.parse(withZ(q.to)) < Date.parse(withZ(q.from)))
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before from.' });
};
const sessionsQuery = z
  .object({ type: z.enum(['1:1', 'groupchat'], 'Must be 1:1 or groupchat.').optional(), ...range, ...tokenPagingQuery })
  .superRefine(checkRange);
const messagesQuery = z
  .object({ to_channel: z.string().min(1).optional(), to_contact: z.email().optional(), ...range, ...tokenPagingQuery })
  .superRefine(checkRange);

const withZ = (iso: string) => (iso.endsWith('Z') ? iso : `${iso}Z`);
const within = (iso: string, q: { from?: string | undefined; to?: string | undefined }) =>
  (!q.from || Date.parse(iso) >= Date.parse(withZ(q.from))) && (!q.to || Date.parse(iso) <= Date.parse(withZ(q.to)));
const lastSent = (session: ChatSession) => session.messages.at(-1)?.date_time ?? '';
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Who is in a session: everyone who wrote in it, and those the control API named as members. */
export const membersOf = (session: ChatSession): string[] => [
  ...new Set([...(session.members ?? []), ...session.messages.map((m) => m.sender)].map((e) => e.toLowerCase())),
];

/** The other person of a one-to-one chat, seen from `email`. */
const peerOf = (session: ChatSession, email: string) => membersOf(session).find((m) => !same(m, email)) ?? '';

function sessionItem(state: SandboxState, account: Account, session: ChatSession, email: string) {
  if (session.type === 'Group')
    return { channel_id: session.session_id, name: session.name, type: 'groupchat', last_message_sent_time: lastSent(session) };
  const peer = peerOf(session, email);
  const user = state.usersByEmail.get(peer);
  const name = user && user.account_id === account.id ? displayName(user) : peer;
  return { peer_contact_email: peer, name, type: '1:1', last_message_sent_time: lastSent(session) };
}

export function registerUserChatRoutes(app: SandboxApp, { state }: SandboxContext): void {
  const userSessions = (account: Account, email: string) =>
    [...state.chatSessions.values()].filter((s) => s.account_id === account.id && membersOf(s).some((m) => same(m, email)));

  app.get('/chat/users/:userId/sessions', (c) => {
    const q = readQuery(c, sessionsQuery);
    const account = c.var.account;
    const user = state.requireUser(account, c.req.param('userId'));
    const sessions = userSessions(account, user.email)
      .filter((s) => !q.type || (q.type === 'groupchat') === (s.type === 'Group'))
      .filter((s) => s.messages.some((m) => within(m.date_time, q)))
      .sort((a, b) => lastSent(b).localeCompare(lastSent(a)))
      .map((s) => sessionItem(state, account, s, user.email));
    const page = state.pages.page(`chat_user_sessions:${user.id}:${q.type ?? ''}:${q.from ?? ''}:${q.to ?? ''}`, sessions, q);
    return c.json(tokenPageBody(page, 'sessions', q));
  });

  app.get('/chat/users/:userId/messages', (c) => {
    const q = readQuery(c, messagesQuery);
    const account = c.var.account;
    const user = state.requireUser(account, c.req.param('userId'));
    if ((q.to_channel === undefined) === (q.to_contact === undefined))
      throw invalidField('to_channel', 'Exactly one of to_channel and to_contact is required.');
    const mine = userSessions(account, user.email);
    const session = q.to_channel
      ? mine.find((s) => s.type === 'Group' && s.session_id === q.to_channel)
      : mine.find((s) => s.type === '1:1' && same(peerOf(s, user.email), q.to_contact!));
    // A channel the user is not in is not found (with 300, as /im/chat/sessions/{id} answered an
    // unknown session); a contact the user never wrote with simply has no messages.
    if (q.to_channel && !session) throw notFound(V2Code.invalidParameter, `Channel ${q.to_channel} does not exist.`);
    const messages = (session?.messages ?? [])
      .filter((m) => within(m.date_time, q))
      .map((m) => ({
        id: `${session!.session_id}:${m.date_time}:${m.sender}`,
        message: m.message,
        sender: m.sender,
        date_time: m.date_time,
      }));
    const scope = `chat_user_messages:${user.id}:${q.to_channel ?? q.to_contact}:${q.from ?? ''}:${q.to ?? ''}`;
    return c.json(tokenPageBody(state.pages.page(scope, messages, q), 'messages', q));
  });
}
