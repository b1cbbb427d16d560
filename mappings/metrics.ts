import { type Codec, type FieldTable } from '../src/translators/field-map.js';
import { meetingNumberCodec } from './recordings.js';

/**
 * The dashboard's session lists: a v1 /metrics/meetings or /metrics/webinars item, read from v2's
 * GET /metrics/meetings or /metrics/webinars item (`MeetingMetric`, `WebinarMetric`). Output only,
 * in v1's field order (the reference's examples).
 */

/** v2 prints the elapsed time `HH:MM:SS`; v1 printed whole minutes, `4 mins` (every started minute counts). */
export const elapsedMinutesCodec: Codec<string, string> = {
  name: 'HH:MM:SS → "N mins"',
  toV2: () => {
    throw new Error('A dashboard duration is output only');
  },
  toV1: (clock) => {
    const [hours = 0, minutes = 0, seconds = 0] = clock.split(':').map(Number);
    return `${hours * 60 + minutes + (seconds > 0 ? 1 : 0)} mins`;
  },
};

/** v2's `has_recording` (boolean) as v1's `recording` (0 or 1). */
export const recordingFlagCodec: Codec<number, boolean> = {
  name: 'boolean → 0/1',
  toV2: (flag) => flag === 1,
  toV1: (has) => (has ? 1 : 0),
};

export const SESSION_METRIC_ROWS: FieldTable = [
  { v1: 'uuid', v2: 'uuid', direction: 'out' },
  { v1: 'id', v2: 'id', codec: meetingNumberCodec, direction: 'out' },
  { v1: 'host', v2: 'host', direction: 'out' },
  { v1: 'email', v2: 'email', direction: 'out' },
  { v1: 'user_type', v2: 'user_type', direction: 'out' },
  { v1: 'start_time', v2: 'start_time', direction: 'out' },
  { v1: 'end_time', v2: 'end_time', direction: 'out', note: 'v2 leaves it out of a live session; v1gate answers it empty.' },
  { v1: 'duration', v2: 'duration', codec: elapsedMinutesCodec, direction: 'out' },
  { v1: 'participants', v2: 'participants', direction: 'out' },
  { v1: 'has_pstn', v2: 'has_pstn', direction: 'out' },
  { v1: 'has_voip', v2: 'has_voip', direction: 'out' },
  { v1: 'has_3rd_party_audio', v2: 'has_3rd_party_audio', direction: 'out' },
  { v1: 'has_video', v2: 'has_video', direction: 'out' },
  { v1: 'has_screen_share', v2: 'has_screen_share', direction: 'out' },
  { v1: 'recording', v2: 'has_recording', codec: recordingFlagCodec, direction: 'out' },
];
