import { z } from 'zod';
import { looseFields, OBJECT_READ_BY_KEY } from '../answer-shape.js';

/**
 * The Team Chat answers /chat/list and /chat/get read (the service's typings: zoom/rivet-javascript,
 * teamchat/teamchat.d.ts). Both page by token only, with no `page_count` nor `total_records`; the
 * range is echoed only when given. Messages are read through the chat table by name.
 */
const V2_CHAT_PAGE = {
  from: z.string().optional(),
  to: z.string().optional(),
  page_size: z.number().optional(),
  next_page_token: z.string().optional(),
};

/** A session: a group by its `channel_id`, a one-to-one chat by its `peer_contact_email`. */
const V2_USER_CHAT_SESSION = looseFields({
  type: z.string(),
  name: z.string().optional(),
  channel_id: z.string().optional(),
  peer_contact_email: z.string().optional(),
});
export type V2UserChatSession = z.output<typeof V2_USER_CHAT_SESSION>;

/** GET /chat/users/{userId}/sessions. */
export const V2_USER_CHAT_SESSIONS = looseFields({ ...V2_CHAT_PAGE, sessions: z.array(V2_USER_CHAT_SESSION) });

/** GET /chat/users/{userId}/messages. */
export const V2_USER_CHAT_MESSAGES = looseFields({ ...V2_CHAT_PAGE, messages: z.array(OBJECT_READ_BY_KEY) });
