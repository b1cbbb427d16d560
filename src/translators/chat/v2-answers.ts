import { z } from 'zod';
import { looseFields, OBJECT_READ_BY_KEY } from '../kit/answer-shape.js';

/**
 * The v2 IM chat answers /chat/list and /chat/get read. Sessions and messages are read through the
 * chat tables by name. The v2 OpenAPI lists no `page_count` on these pages and a `next_page_token`
 * only when there is a next page: both may be absent.
 */
const V2_CHAT_PAGE = {
  from: z.string(),
  to: z.string(),
  page_size: z.number(),
  page_count: z.number().optional(),
  next_page_token: z.string().optional(),
};

/** GET /im/chat/sessions. */
export const V2_CHAT_SESSIONS = looseFields({ ...V2_CHAT_PAGE, sessions: z.array(OBJECT_READ_BY_KEY) });

/** GET /im/chat/sessions/{sessionId}. */
export const V2_CHAT_MESSAGES = looseFields({ ...V2_CHAT_PAGE, messages: z.array(OBJECT_READ_BY_KEY) });

export type V2ChatPage = z.output<typeof V2_CHAT_SESSIONS> | z.output<typeof V2_CHAT_MESSAGES>;
