import { CHAT_MESSAGE_ROWS, CHAT_SESSION_ANSWER, CHAT_SESSION_ROWS } from '../../../mappings/chat.js';
import { answer } from '../../v1/answer.js';
import { V2 } from '../../shared/v2-routes.js';
import { defineEndpoint } from '../kit/define.js';
import { toV1 } from '../../v1/field-map.js';
import { reportRange, reportRangeParams } from '../kit/report-range.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { V2_CHAT_MESSAGES, V2_CHAT_SESSIONS, type V2ChatPage } from './v2-answers.js';

/**
 * v1's chat history, paged by token as v2 pages it (v1 did too: `page_size` up to 300 and the
 * `next_page_token` of the previous answer). The dates are echoed as v2 answers them
 * (`2016-01-16`), the form of the reference's examples.
 */

const pagingParams = { page_size: v1.int({ min: 1, max: 300 }).default(30), next_page_token: v1.string({ max: 256 }).optional() };
const v1Paging = (page: V2ChatPage) => ({
  from: page.from,
  to: page.to,
  page_size: page.page_size,
  page_count: page.page_count,
  next_page_token: page.next_page_token ?? '',
});

const v1Session = (session: Record<string, unknown>) => answer(CHAT_SESSION_ANSWER, toV1(CHAT_SESSION_ROWS, session));

/** /chat/list → GET /im/chat/sessions. `email` (a user's chats) has no v2 filter: accepted and dropped. */
export const chatList = defineEndpoint({
  path: '/chat/list',
  params: v1Params({ ...reportRangeParams, ...pagingParams, email: v1.string({ max: 128 }).optional() }),
  v2Calls: [V2.chat.sessions],
  tables: [CHAT_SESSION_ROWS],
  async handle(params, ctx) {
    const range = reportRange(params);
    const page = await ctx.v2.get(V2.chat.sessions.at(), V2_CHAT_SESSIONS, {
      ...range.v2,
      page_size: params.page_size,
      next_page_token: params.next_page_token,
    });
    return { ...v1Paging(page), chat_list: page.sessions.map(v1Session) };
  },
});

/**
 * /chat/get → GET /im/chat/sessions/{sessionId}, and GET /im/chat/sessions for the session's
 * `group_name` (the session's own answer has no name): one page of up to 300 sessions of the same
 * range; a session beyond it answers "".
 */
export const chatGet = defineEndpoint({
  path: '/chat/get',
  params: v1Params({ session_id: v1.string({ max: 128 }), ...reportRangeParams, ...pagingParams }),
  v2Calls: [V2.chat.messages, V2.chat.sessions],
  tables: [CHAT_MESSAGE_ROWS],
  async handle(params, ctx) {
    const range = reportRange(params);
    const [page, sessions] = await Promise.all([
      ctx.v2.get(V2.chat.messages.at(params.session_id), V2_CHAT_MESSAGES, {
        ...range.v2,
        page_size: params.page_size,
        next_page_token: params.next_page_token,
      }),
      ctx.v2.get(V2.chat.sessions.at(), V2_CHAT_SESSIONS, { ...range.v2, page_size: 300 }),
    ]);
    const name = sessions.sessions.find((s) => s.session_id === params.session_id)?.name;
    const { from, to, ...paging } = v1Paging(page);
    return {
      session_id: params.session_id,
      group_name: typeof name === 'string' ? name : '',
      from,
      to,
      ...paging,
      chat_messages: page.messages.map((m) => toV1(CHAT_MESSAGE_ROWS, m)),
    };
  },
});
