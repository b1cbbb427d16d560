import { everyFieldOf, outputFieldsOf, type AnswerShape } from '../src/v1/answer.js';
import { NO_V2_FIELD, type FieldTable } from '../src/v1/field-map.js';

/**
 * The account dashboards: v1's /metrics/zoomrooms, /metrics/zoomroomdetail, /metrics/crc and
 * /metrics/im, read from v2's GET /metrics/zoomrooms[/{zoomroomId}], /metrics/crc and /metrics/chat.
 * Output only, in v1's field order (the reference's examples). A row with no v2 field is answered
 * empty: its note says why.
 */

/** A v1 Zoom Room (GET /metrics/zoomrooms item, or the room of /metrics/zoomrooms/{zoomroomId}). */
export const ZOOM_ROOM_ROWS: FieldTable = [
  { v1: 'id', v2: 'id', direction: 'out' },
  { v1: 'room_name', v2: 'room_name', direction: 'out' },
  { v1: 'email', v2: 'email', direction: 'out' },
  { v1: 'account_type', v2: 'account_type', direction: 'out' },
  { v1: 'passcode', v2: NO_V2_FIELD, direction: 'out', note: 'v2 never shows a room\'s passcode (a secret); always "".' },
  { v1: 'status', v2: 'status', direction: 'out' },
  { v1: 'messages', v2: NO_V2_FIELD, direction: 'out', note: 'An object of its own, read with ZOOM_ROOM_MESSAGE_ROWS.' },
  {
    v1: 'meeting_id',
    v2: NO_V2_FIELD,
    direction: 'out',
    note: 'The room list of v2 names no meeting: "" there; /metrics/zoomroomdetail answers its live meeting\'s number.',
  },
];

/** v1's `messages` object of a Zoom Room: what the room's devices report. */
export const ZOOM_ROOM_MESSAGE_ROWS: FieldTable = [
  { v1: 'last_started_time', v2: 'last_start_time', direction: 'out' },
  { v1: 'running_time', v2: NO_V2_FIELD, direction: 'out', note: 'v2 reports no running time of a room; always "".' },
  { v1: 'selected_microphone', v2: 'microphone', direction: 'out' },
  { v1: 'selected_speaker', v2: 'speaker', direction: 'out' },
  { v1: 'selected_camera', v2: 'camera', direction: 'out' },
];

/** An hour of CRC port usage: the same fields in both versions. */
export const CRC_HOUR_ROWS: FieldTable = [
  { v1: 'hour', v2: 'hour', direction: 'out' },
  { v1: 'max_usage', v2: 'max_usage', direction: 'out' },
  { v1: 'total_usage', v2: 'total_usage', direction: 'out' },
];

/**
 * A user's chat counts (GET /metrics/chat `users[]`, which replaced /metrics/im). Today's service
 * counts only what each user sent, by kind; what v1 also reported (messages received, calls, emoji)
 * it no longer counts, and v1gate answers 0 for those (IM_USER_ANSWER): the field a v1 client reads
 * is there, with the number it can know.
 */
const NOT_COUNTED_TODAY = 'Not counted by GET /metrics/chat (only messages sent, by kind): 0.';
export const IM_USER_ROWS: FieldTable = [
  { v1: 'user_id', v2: 'user_id', direction: 'out' },
  { v1: 'user_name', v2: 'user_name', direction: 'out' },
  { v1: 'email', v2: 'email', direction: 'out' },
  { v1: 'total_send', v2: 'total_sent', direction: 'out' },
  { v1: 'total_receive', v2: NO_V2_FIELD, direction: 'out', note: NOT_COUNTED_TODAY },
  { v1: 'group_send', v2: 'group_sent', direction: 'out' },
  { v1: 'group_receive', v2: NO_V2_FIELD, direction: 'out', note: NOT_COUNTED_TODAY },
  { v1: 'calls_send', v2: NO_V2_FIELD, direction: 'out', note: NOT_COUNTED_TODAY },
  { v1: 'calls_receive', v2: NO_V2_FIELD, direction: 'out', note: NOT_COUNTED_TODAY },
  { v1: 'files_send', v2: 'files_sent', direction: 'out' },
  { v1: 'files_receive', v2: NO_V2_FIELD, direction: 'out', note: NOT_COUNTED_TODAY },
  { v1: 'images_send', v2: 'images_sent', direction: 'out' },
  { v1: 'images_receive', v2: NO_V2_FIELD, direction: 'out', note: NOT_COUNTED_TODAY },
  { v1: 'voice_send', v2: 'audio_sent', direction: 'out' },
  { v1: 'voice_receive', v2: NO_V2_FIELD, direction: 'out', note: NOT_COUNTED_TODAY },
  { v1: 'videos_send', v2: 'video_sent', direction: 'out' },
  { v1: 'videos_receive', v2: NO_V2_FIELD, direction: 'out', note: NOT_COUNTED_TODAY },
  { v1: 'emoji_send', v2: NO_V2_FIELD, direction: 'out', note: 'GET /metrics/chat counts GIFs (giphys_sent), not emoji: 0.' },
  { v1: 'emoji_receive', v2: NO_V2_FIELD, direction: 'out', note: NOT_COUNTED_TODAY },
];

/** A /metrics/im user in v1's field order, each count v2 no longer keeps as 0 (see the rows' notes). */
export const IM_USER_ANSWER: AnswerShape = {
  fields: outputFieldsOf(IM_USER_ROWS),
  whenAbsent: Object.fromEntries(IM_USER_ROWS.filter((row) => row.v2 === NO_V2_FIELD).map((row) => [row.v1, 0])),
};

/** v1's `live_meeting` when no meeting runs in the room, as the reference's example shows it. */
export const NO_LIVE_MEETING = {
  uuid: '',
  id: 0,
  host: '',
  email: '',
  user_type: '',
  start_time: '',
  end_time: '',
  duration: '',
  participants: 0,
  has_pstn: false,
  has_voip: false,
  has_3rd_party_audio: false,
  has_video: false,
  has_screen_share: false,
  recording: 0,
} as const;

/** A v1 Zoom Room answers every field, `""` for what v2 lacks (`messages` is the object below, `meeting_id` its live meeting's). */
export const ZOOM_ROOM_ANSWER: AnswerShape = everyFieldOf(ZOOM_ROOM_ROWS);
export const ZOOM_ROOM_MESSAGES_ANSWER: AnswerShape = everyFieldOf(ZOOM_ROOM_MESSAGE_ROWS);
