import { everyFieldOf, type AnswerShape } from '../src/v1/answer.js';
import { NO_V2_FIELD, type FieldTable } from '../src/v1/field-map.js';

/**
 * The account dashboards: v1's /metrics/zoomrooms, /metrics/zoomroomdetail, /metrics/crc and
 * /metrics/im, read from v2's GET /metrics/zoomrooms[/{zoomroomId}], /metrics/crc and /metrics/im.
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

/** A user's chat counts (GET /metrics/im `users[]`): the same fields in both versions. */
export const IM_USER_ROWS: FieldTable = [
  'user_id',
  'user_name',
  'email',
  'total_send',
  'total_receive',
  'group_send',
  'group_receive',
  'calls_send',
  'calls_receive',
  'files_send',
  'files_receive',
  'images_send',
  'images_receive',
  'voice_send',
  'voice_receive',
  'videos_send',
  'videos_receive',
  'emoji_send',
  'emoji_receive',
].map((field) => ({ v1: field, v2: field, direction: 'out' as const }));

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
