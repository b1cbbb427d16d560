import { outputFieldsOf, type AnswerShape } from '../src/v1/answer.js';
import { NO_V2_FIELD, type Codec, type FieldTable } from '../src/v1/field-map.js';

/**
 * Cloud recordings: the v1 /recording/list item and its files, read from v2's
 * GET /users/{userId}/recordings items. Output only (v1 sends no recording fields).
 */

/** v1 prints counts and sizes as numbers where the v2 reference types them as decimal strings. */
export const decimalStringCodec: Codec<number, string> = {
  name: 'number ↔ decimal string',
  toV2: (value) => String(value),
  toV1: (value) => Number(value),
};

/** A recorded meeting, in v1's field order. */
export const RECORDING_MEETING_ROWS: FieldTable = [
  { v1: 'uuid', v2: 'uuid', direction: 'out' },
  { v1: 'meeting_number', v2: 'id', direction: 'out' },
  { v1: 'host_id', v2: 'host_id', direction: 'out' },
  { v1: 'account_id', v2: 'account_id', direction: 'out' },
  { v1: 'topic', v2: 'topic', direction: 'out' },
  { v1: 'start_time', v2: 'start_time', direction: 'out' },
  {
    v1: 'timezone',
    v2: NO_V2_FIELD,
    direction: 'out',
    note: "Not in v2's item: answered with the host's timezone (read anyway for from/to); a meeting scheduled in another zone shows the host's.",
  },
  { v1: 'duration', v2: 'duration', direction: 'out' },
  { v1: 'total_size', v2: 'total_size', codec: decimalStringCodec, direction: 'out' },
  { v1: 'recording_count', v2: 'recording_count', codec: decimalStringCodec, direction: 'out' },
];

/**
 * A recorded meeting's v1 answer: the table's fields, then its files (read through one of the file
 * tables below). The meeting number is a JSON number, as the live service answered it where the
 * reference quotes it (docs/live-evidence.md).
 */
export const RECORDING_MEETING_ANSWER: AnswerShape = {
  fields: [...outputFieldsOf(RECORDING_MEETING_ROWS), 'recording_files'],
  wire: { meeting_number: 'number' },
};

/** One recording file; v2's `recording_type` has no v1 field and is left out. */
export const RECORDING_FILE_ROWS: FieldTable = [
  { v1: 'id', v2: 'id', direction: 'out' },
  { v1: 'meeting_id', v2: 'meeting_id', direction: 'out' },
  { v1: 'recording_start', v2: 'recording_start', direction: 'out' },
  { v1: 'recording_end', v2: 'recording_end', direction: 'out' },
  { v1: 'file_type', v2: 'file_type', direction: 'out' },
  { v1: 'file_size', v2: 'file_size', direction: 'out' },
  { v1: 'status', v2: 'status', direction: 'out' },
  { v1: 'play_url', v2: 'play_url', direction: 'out' },
  { v1: 'download_url', v2: 'download_url', direction: 'out' },
];

/** The files of v1's /recording/get: the reference's answer prints no `status` there (its list does). */
export const RECORDING_GET_FILE_ROWS: FieldTable = RECORDING_FILE_ROWS.filter((row) => row.v1 !== 'status');

/** A file of v1's /mc/recording/list: a meeting connector's recording has no processing `status`. */
export const MC_RECORDING_FILE_ROWS: FieldTable = RECORDING_FILE_ROWS.filter((row) => row.v1 !== 'status');
