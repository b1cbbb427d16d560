import { z } from 'zod';
import type { SandboxApp, SandboxContext } from '../context.js';
import { notFound, V2Code } from '../errors.js';
import type { ChatSession } from '../model/chat.js';
import { NextPageTokens, pageBody, tokenPagingQuery } from '../paging.js';
import { onDateWithin, queryDate, rangeIssue } from '../report/dates.js';
import { readQuery } from '../validation.js';
import { registerUserChatRoutes } from './user-routes.js';

/**
 * Chat history: GET /im/chat/sessions (the account's sessions with a message in the range, the most
 * recent first) and GET /im/chat/sessions/{sessionId} (its messages in the range, oldest first).
 * Sessions and messages are made through the control API (POST /sandbox/accounts/{id}/chat-sessions).
 * `from` and `to` are UTC dates, both included, as the usage reports take them.
 */

const rangeQuery = z.object({ from: queryDate, to: queryDate, ...tokenPagingQuery }).superRefine((q, ctx) => rangeIssue(q.from, q.to, ctx));

/**
 * An unknown chat session: neither document names a code, so 404 with 300 (invalid parameter), as
 * the sandbox answers for an unknown H.323 device; v1 answers it through as 300.
 */
const CHAT_SESSION_NOT_FOUND = V2Code.invalidParameter;

const lastSent = (session: ChatSession) => session.messages.at(-1)?.date_time ?? '';

export function registerChatRoutes(app: SandboxApp, ctx: SandboxContext): void {
  const { state } = ctx;
  const pages = new NextPageTokens(state.clock);
  registerUserChatRoutes(app, ctx);

  app.get('/im/chat/sessions', (c) => {
    const q = readQuery(c, rangeQuery);
    const account = c.var.account;
    const sessions = [...state.chatSessions.values()]
      .filter((s) => s.account_id === account.id && s.messages.some((m) => onDateWithin(m.date_time, q.from, q.to)))
      .sort((a, b) => lastSent(b).localeCompare(lastSent(a)))
      .map((s) => ({ session_id: s.session_id, type: s.type, name: s.name, last_message_sent_time: lastSent(s) }));
    const page = pages.page(`chat_sessions:${account.id}:${q.from}:${q.to}`, sessions, q);
    return c.json({ from: q.from, to: q.to, ...pageBody(page, 'sessions') });
  });

  app.get('/im/chat/sessions/:sessionId', (c) => {
    const q = readQuery(c, rangeQuery);
    const id = c.req.param('sessionId');
    const session = state.chatSessions.get(id);
    if (!session || session.account_id !== c.var.account.id) throw notFound(CHAT_SESSION_NOT_FOUND, `Chat session ${id} not found.`);
    const messages = session.messages.filter((m) => onDateWithin(m.date_time, q.from, q.to));
    const page = pages.page(`chat_messages:${id}:${q.from}:${q.to}`, messages, q);
    return c.json({ session_id: id, from: q.from, to: q.to, ...pageBody(page, 'messages') });
  });
}
