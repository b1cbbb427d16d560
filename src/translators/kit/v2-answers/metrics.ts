import { z } from 'zod';
import { V2_TOKEN_PAGE } from '../v2-paging.js';
import { looseFields, OBJECT_READ_BY_KEY } from '../answer-shape.js';
import { V2_SESSION_LIST_ITEM } from './sessions.js';

/**
 * The v2 dashboard answers the /metrics translators read. Items are read through the metrics
 * tables by name, so only the lists and the figures the translators compute with are checked;
 * `from` and `to` are echoed as v2 gives them (the v2 OpenAPI does not promise them).
 */
const ITEMS = z.array(OBJECT_READ_BY_KEY);
const RANGE = { from: z.string().optional(), to: z.string().optional() };

/**
 * GET /metrics/meetings and /metrics/webinars (by token), the items under the collection. A meeting's
 * id is checked: /meeting/live reads each listed meeting in full by it.
 */
export const V2_METRICS_SESSION_PAGES = {
  meetings: looseFields({ ...RANGE, ...V2_TOKEN_PAGE, meetings: z.array(V2_SESSION_LIST_ITEM) }),
  webinars: looseFields({ ...RANGE, ...V2_TOKEN_PAGE, webinars: ITEMS }),
} as const;

/** GET /metrics/meetings|webinars/{id}: read through the detail table. */
export const V2_METRICS_SESSION = OBJECT_READ_BY_KEY;

/** GET /metrics/meetings|webinars/{id}/participants (by token). */
export const V2_METRICS_PARTICIPANT_PAGE = looseFields({ ...V2_TOKEN_PAGE, participants: ITEMS });

/**
 * A participant's QoS (GET .../participants/{participantId}/qos): `user_qos` is a series of
 * samples in today's documents and one sample in the old reference (the sandbox's legacy shape);
 * either is read, each sample by key.
 */
export const V2_QOS = looseFields({ user_qos: z.union([OBJECT_READ_BY_KEY, z.array(OBJECT_READ_BY_KEY)]).optional() });

/** GET .../participants/qos: the first participant is read. */
export const V2_QOS_PAGE = looseFields({ participants: z.array(V2_QOS) });

/** GET /metrics/crc: each day's hours. */
export const V2_CRC = looseFields({
  ...RANGE,
  crc_ports_usage: z.array(looseFields({ date_time: z.string(), crc_ports_hour_usage: ITEMS })),
});

/** GET /metrics/chat: by token only, with no total (the service's typings, zoom/rivet-javascript). */
export const V2_CHAT_METRICS_PAGE = looseFields({ ...RANGE, next_page_token: z.string().optional(), users: ITEMS });

/** GET /metrics/zoomrooms: v1gate pages the v1 answer by the total. */
export const V2_ROOM_PAGE = looseFields({ total_records: z.number(), zoom_rooms: ITEMS });

/** GET /metrics/zoomrooms/{zoomroomId}: the room, its live meeting if any, and its past meetings by token. */
export const V2_ROOM_DETAIL = looseFields({
  live_meeting: OBJECT_READ_BY_KEY.optional(),
  past_meetings: looseFields({ ...RANGE, ...V2_TOKEN_PAGE, meetings: ITEMS }),
});
export type V2RoomDetail = z.output<typeof V2_ROOM_DETAIL>;
