import { outputFieldsOf, type AnswerShape } from '../src/v1/answer.js';
import { enumCodec, NO_V2_FIELD, type FieldTable } from '../src/v1/field-map.js';

/**
 * Chat history: v1's /chat/list and /chat/get items, read from today's Team Chat
 * GET /chat/users/{userId}/sessions and GET /chat/users/{userId}/messages (the /im/chat routes they
 * replaced are retired). Output only, in v1's field order (the reference's examples).
 */

/** A session of /chat/list (GET /chat/users/{userId}/sessions `sessions[]`). */
export const CHAT_SESSION_ROWS: FieldTable = [
  {
    v1: 'session_id',
    v2: NO_V2_FIELD,
    direction: 'out',
    note: "Today's sessions have no session id: a group's `channel_id`, a one-to-one chat's `peer_contact_email`; /chat/get reads either back.",
  },
  {
    v1: 'type',
    v2: 'type',
    direction: 'out',
    codec: enumCodec([
      ['Group', 'groupchat'],
      ['1:1', '1:1'],
    ]),
  },
  {
    v1: 'participants',
    v2: NO_V2_FIELD,
    direction: 'out',
    note: 'v2 lists no participants of a session; v1 answered "" in its own example too. Always "".',
  },
  {
    v1: 'group_name',
    v2: 'name',
    direction: 'out',
    note: 'A group\'s name; "" for a one-to-one chat, as v1 answered (v2 names the peer there).',
  },
  { v1: 'last_message_send_time', v2: 'last_message_sent_time', direction: 'out', note: 'v1 spelled it "send", v2 "sent".' },
];

/** A message of /chat/get (GET /chat/users/{userId}/messages `messages[]`). */
export const CHAT_MESSAGE_ROWS: FieldTable = [
  { v1: 'message', v2: 'message', direction: 'out' },
  { v1: 'sender', v2: 'sender', direction: 'out' },
  { v1: 'date_time', v2: 'date_time', direction: 'out' },
];

/** A /chat/list session in v1's field order; `participants`, which v2 does not list, as "" (see its row's note). */
export const CHAT_SESSION_ANSWER: AnswerShape = { fields: outputFieldsOf(CHAT_SESSION_ROWS), whenAbsent: { participants: '' } };
