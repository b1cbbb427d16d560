import { CHAT_MESSAGE_ROWS, CHAT_SESSION_ANSWER, CHAT_SESSION_ROWS } from '../../../mappings/chat.js';
import { answer } from '../../v1/answer.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { defineEndpoint } from '../kit/define.js';
import { toV1 } from '../../v1/field-map.js';
import { reportRange, reportRangeParams } from '../kit/report-range.js';
import { v1, v1Params } from '../../v1/param-types.js';
import type { ReportDate } from '../kit/report-date.js';
import { type V2UserChatSession } from '../kit/v2-answers/chat.js';

/**
 * v1's chat history over today's Team Chat API, which lists one user's sessions
 * (GET /chat/users/{userId}/sessions) and one session's messages (GET /chat/users/{userId}/messages):
 * the account-wide /im/chat routes v1gate called before are retired (docs/live-evidence.md). Whose
 * history: /chat/list's `email` (a user's chats, as v1 took it), else the account's owner (`me`).
 * Paged by token as v2 pages it (v1 did too: `page_size` up to 300 and the `next_page_token` of the
 * previous answer). The dates are echoed as v1 clients sent them (`2016-01-16`).
 */

const pagingParams = { page_size: v1.int({ min: 1, max: 300 }).default(30), next_page_token: v1.string({ max: 256 }).optional() };

/** The range as today's chat API takes it: date-times, the whole of both days. */
function v2Range(params: { from: ReportDate; to: ReportDate }) {
  const { v2 } = reportRange(params);
  return { v1: v2, v2: { from: `${v2.from}T00:00:00Z`, to: `${v2.to}T23:59:59Z` } };
}

/**
 * v1's paging fields. v2 answers no page count: v1's is the fewest pages there can be, counted
 * from what this page says (one before it when a token led here, one after it when a token follows).
 */
function v1Paging(
  page: { page_size?: number | undefined; next_page_token?: string | undefined },
  params: { page_size: number; next_page_token?: string | undefined },
) {
  const next = page.next_page_token ?? '';
  return {
    page_size: page.page_size ?? params.page_size,
    page_count: (params.next_page_token ? 2 : 1) + (next ? 1 : 0),
    next_page_token: next,
  };
}

/** v1's `session_id` of a session: a group's channel id, a one-to-one chat's peer (read back by /chat/get). */
const sessionIdOf = (session: V2UserChatSession) => session.channel_id ?? session.peer_contact_email;
const isOneToOne = (sessionId: string) => sessionId.includes('@');

const v1Session = (session: V2UserChatSession) =>
  answer(
    CHAT_SESSION_ANSWER,
    { session_id: sessionIdOf(session), ...(session.type === '1:1' ? { group_name: '' } : {}) },
    toV1(CHAT_SESSION_ROWS, session),
  );

/** /chat/list → GET /chat/users/{email or me}/sessions. */
export const chatList = defineEndpoint({
  path: '/chat/list',
  params: v1Params({ ...reportRangeParams, ...pagingParams, email: v1.email().optional() }),
  v2Calls: [V2.chat.userSessions],
  tables: [CHAT_SESSION_ROWS],
  async handle(params, ctx) {
    const range = v2Range(params);
    const page = await ctx.v2.get(V2.chat.userSessions.at(params.email ?? 'me'), {
      ...range.v2,
      page_size: params.page_size,
      next_page_token: params.next_page_token,
    });
    return { ...range.v1, ...v1Paging(page, params), chat_list: page.sessions.map(v1Session) };
  },
});

/**
 * /chat/get → GET /chat/users/me/messages of the session (`to_contact` for a one-to-one chat's
 * peer, `to_channel` for a group), and for a group GET /chat/users/me/sessions for its
 * `group_name` (the messages answer has no name): one page of up to 300 of the range's groups; a
 * group beyond it answers "".
 */
export const chatGet = defineEndpoint({
  path: '/chat/get',
  params: v1Params({ session_id: v1.string({ max: 128 }), ...reportRangeParams, ...pagingParams }),
  v2Calls: [V2.chat.userMessages, V2.chat.userSessions],
  tables: [CHAT_MESSAGE_ROWS],
  async handle(params, ctx) {
    const range = v2Range(params);
    const oneToOne = isOneToOne(params.session_id);
    const [page, groups] = await Promise.all([
      ctx.v2.get(V2.chat.userMessages.at('me'), {
        ...(oneToOne ? { to_contact: params.session_id } : { to_channel: params.session_id }),
        ...range.v2,
        page_size: params.page_size,
        next_page_token: params.next_page_token,
      }),
      oneToOne ? undefined : ctx.v2.get(V2.chat.userSessions.at('me'), { type: 'groupchat', ...range.v2, page_size: 300 }),
    ]);
    const name = groups?.sessions.find((s) => s.channel_id === params.session_id)?.name;
    return {
      session_id: params.session_id,
      group_name: name ?? '',
      ...range.v1,
      ...v1Paging(page, params),
      chat_messages: page.messages.map((m) => toV1(CHAT_MESSAGE_ROWS, m)),
    };
  },
});
