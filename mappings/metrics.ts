import { outputFieldsOf, type AnswerShape } from '../src/v1/answer.js';
import { type Codec, type FieldTable, type OutputCodec } from '../src/v1/field-map.js';

/**
 * The dashboard's session lists: a v1 /metrics/meetings or /metrics/webinars item, read from v2's
 * GET /metrics/meetings or /metrics/webinars item (`MeetingMetric`, `WebinarMetric`). Output only,
 * in v1's field order (the reference's examples).
 */

/**
 * v2 prints the elapsed time `HH:MM:SS`; the live v1 printed `MM:SS` under an hour and `HH:MM:SS`
 * from an hour on, hours past 23 for a session of a day or more (the reference's `"4 mins"` is a
 * hand-written example: docs/live-evidence.md, "Durations").
 */
export const elapsedClockCodec: OutputCodec<string, string> = {
  name: 'HH:MM:SS → MM:SS under an hour, else HH:MM:SS',
  toV1: (clock) => {
    const [hours = 0, minutes = 0, seconds = 0] = clock.split(':').map(Number);
    const mmss = `${pad2(minutes)}:${pad2(seconds)}`;
    return hours > 0 ? `${pad2(hours)}:${mmss}` : mmss;
  },
};

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * The elapsed time of a session still going on: the live dashboards answered none (`""`, captured
 * from the live service: docs/live-evidence.md), where v2 counts the time so far. A source put
 * before the table's values in the answers of live sessions.
 */
export const STILL_GOING = { duration: '' } as const;

/** v2's `has_recording` (boolean) as v1's `recording` (0 or 1). */
export const recordingFlagCodec: Codec<number, boolean> = {
  name: 'boolean → 0/1',
  toV2: (flag) => flag === 1,
  toV1: (has) => (has ? 1 : 0),
};

export const SESSION_METRIC_ROWS: FieldTable = [
  { v1: 'uuid', v2: 'uuid', direction: 'out' },
  { v1: 'id', v2: 'id', direction: 'out' },
  { v1: 'host', v2: 'host', direction: 'out' },
  { v1: 'email', v2: 'email', direction: 'out' },
  { v1: 'user_type', v2: 'user_type', direction: 'out' },
  { v1: 'start_time', v2: 'start_time', direction: 'out' },
  { v1: 'end_time', v2: 'end_time', direction: 'out', note: 'v2 leaves it out of a live session; v1gate answers it empty.' },
  { v1: 'duration', v2: 'duration', codec: elapsedClockCodec, direction: 'out' },
  { v1: 'participants', v2: 'participants', direction: 'out' },
  { v1: 'has_pstn', v2: 'has_pstn', direction: 'out' },
  { v1: 'has_voip', v2: 'has_voip', direction: 'out' },
  { v1: 'has_3rd_party_audio', v2: 'has_3rd_party_audio', direction: 'out' },
  { v1: 'has_video', v2: 'has_video', direction: 'out' },
  { v1: 'has_screen_share', v2: 'has_screen_share', direction: 'out' },
  { v1: 'recording', v2: 'has_recording', codec: recordingFlagCodec, direction: 'out' },
];

/**
 * v1 /metrics/meetingdetail and /metrics/webinardetail head: the session's fields of
 * SESSION_METRIC_ROWS but its participant count, which the detail answers as `participants_count`
 * (the list's total) after the flags.
 */
export const SESSION_DETAIL_ROWS: FieldTable = SESSION_METRIC_ROWS.filter((row) => row.v1 !== 'participants');

/** The session's `type` label of the detail answers, by v1 type (1 live, 2 past). */
export const DETAIL_TYPE_LABELS = {
  meetings: ['Live Meeting', 'Past Meeting'],
  webinars: ['Live Webinar', 'Past Webinar'],
} as const;

/** v2 prints a participant's `location` as `City (CC)`; v1 split it into `city` and `cn`. */
const LOCATION = /^(.*) \(([A-Z]{2})\)$/;
const locationPart = (part: 'city' | 'cn'): OutputCodec<string, string> => ({
  name: `"City (CC)" → ${part}`,
  toV1: (location) => {
    const match = LOCATION.exec(location);
    return match ? match[part === 'city' ? 1 : 2]! : part === 'city' ? location : '';
  },
});
export const cityCodec = locationPart('city');
export const countryCodec = locationPart('cn');

/**
 * A participant of v1's session detail, read from v2's GET /metrics/{meetings|webinars}/{id}/participants
 * item. Output only, in v1's order.
 */
export const DASHBOARD_PARTICIPANT_ROWS: FieldTable = [
  { v1: 'id', v2: 'id', direction: 'out' },
  { v1: 'user_id', v2: 'user_id', direction: 'out' },
  { v1: 'user_name', v2: 'user_name', direction: 'out' },
  { v1: 'device', v2: 'device', direction: 'out' },
  { v1: 'ip_address', v2: 'ip_address', direction: 'out' },
  { v1: 'cn', v2: 'location', codec: countryCodec, direction: 'out' },
  { v1: 'city', v2: 'location', codec: cityCodec, direction: 'out' },
  { v1: 'network_type', v2: 'network_type', direction: 'out' },
  { v1: 'join_time', v2: 'join_time', direction: 'out' },
  { v1: 'leave_time', v2: 'leave_time', direction: 'out', note: 'v2 leaves it out while the participant is in; v1gate answers it empty.' },
  { v1: 'share_application', v2: 'share_application', direction: 'out' },
  { v1: 'share_desktop', v2: 'share_desktop', direction: 'out' },
  { v1: 'share_whiteboard', v2: 'share_whiteboard', direction: 'out' },
  { v1: 'recording', v2: 'recording', direction: 'out' },
];

/** The head of v1 /metrics/qos, read from v2's `Participant QOS`. Output only, in v1's order. */
export const QOS_PARTICIPANT_ROWS: FieldTable = [
  { v1: 'user_id', v2: 'user_id', direction: 'out' },
  { v1: 'device', v2: 'device', direction: 'out' },
  { v1: 'ip_address', v2: 'ip_address', direction: 'out' },
  { v1: 'cn', v2: 'location', codec: countryCodec, direction: 'out' },
  { v1: 'city', v2: 'location', codec: cityCodec, direction: 'out' },
  { v1: 'version', v2: 'version', direction: 'out' },
];

/** A v1 QoS sample, read from v2's `user_qos`: v1 wrote `dateTime`, the streams are the same objects. */
export const QOS_SAMPLE_ROWS: FieldTable = [
  { v1: 'dateTime', v2: 'date_time', direction: 'out' },
  { v1: 'audio_input', v2: 'audio_input', direction: 'out' },
  { v1: 'audio_output', v2: 'audio_output', direction: 'out' },
  { v1: 'video_input', v2: 'video_input', direction: 'out' },
  { v1: 'video_output', v2: 'video_output', direction: 'out' },
  { v1: 'as_input', v2: 'as_input', direction: 'out' },
  { v1: 'as_output', v2: 'as_output', direction: 'out' },
  { v1: 'cpu_usage', v2: 'cpu_usage', direction: 'out' },
];

/**
 * The v1 detail answer: `uuid`, `id`, the session `type` label, the rest of the head, then the
 * participants page (`participants_count` is its total). A live session has no end_time in v2: v1
 * answered it empty, in its place.
 */
export const SESSION_DETAIL_ANSWER: AnswerShape = {
  wire: { id: 'number' },
  fields: [
    ...new Set([
      'uuid',
      'id',
      'type',
      ...outputFieldsOf(SESSION_DETAIL_ROWS),
      'participants_count',
      'page_count',
      'page_number',
      'page_size',
      'participants',
    ]),
  ],
  whenAbsent: { end_time: '', duration: '' },
};

/** The v1 /metrics/qos answer: v1 put `user_id` before `type`, the rest of the participant after it, then the samples. */
export const QOS_ANSWER: AnswerShape = {
  fields: [...new Set(['meeting_id', 'user_id', 'type', ...outputFieldsOf(QOS_PARTICIPANT_ROWS), 'user_qos'])],
};

/**
 * A session of the metrics lists (and a Zoom Room's live meeting): a live session has no end_time
 * nor duration in v2, v1 answered them empty. The number is a JSON number, as the live service
 * answered it (docs/live-evidence.md).
 */
export const SESSION_METRIC_ANSWER: AnswerShape = {
  fields: outputFieldsOf(SESSION_METRIC_ROWS),
  whenAbsent: { end_time: '', duration: '' },
  wire: { id: 'number' },
};

/** A participant of the detail answers: v2 leaves leave_time out while the participant is in, v1 answered it empty. */
export const DASHBOARD_PARTICIPANT_ANSWER: AnswerShape = {
  fields: outputFieldsOf(DASHBOARD_PARTICIPANT_ROWS),
  whenAbsent: { leave_time: '' },
};
