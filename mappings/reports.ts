import { outputFieldsOf, type AnswerShape } from '../src/v1/answer.js';
import { NO_V2_FIELD, type FieldTable, type OutputCodec } from '../src/v1/field-map.js';

/**
 * The account usage reports: v1's /report/getdailyreport, /report/getaccountreport and
 * /report/getuserreport items, read from v2's GET /report/daily, GET /report/users and
 * GET /report/users/{userId}/meetings (+ GET /report/meetings/{uuid}/participants). Output only,
 * in v1's field order (the reference's examples).
 */

/** A day of /report/getdailyreport (GET /report/daily `dates[]`). */
export const DAILY_REPORT_ROWS: FieldTable = [
  { v1: 'meetings', v2: 'meetings', direction: 'out' },
  { v1: 'date', v2: 'date', direction: 'out' },
  { v1: 'new_user', v2: 'new_users', direction: 'out' },
  { v1: 'participants', v2: 'participants', direction: 'out' },
  { v1: 'meeting_minutes', v2: 'meeting_minutes', direction: 'out' },
];

/** A host of /report/getaccountreport (GET /report/users?type=active `users[]`). */
export const ACCOUNT_REPORT_USER_ROWS: FieldTable = [
  { v1: 'user_id', v2: 'id', direction: 'out' },
  { v1: 'email', v2: 'email', direction: 'out' },
  { v1: 'type', v2: 'type', direction: 'out' },
  { v1: 'meetings', v2: 'meetings', direction: 'out' },
  { v1: 'participants', v2: 'participants', direction: 'out' },
  { v1: 'meeting_minutes', v2: 'meeting_minutes', direction: 'out' },
  {
    v1: 'last_client_version',
    v2: NO_V2_FIELD,
    direction: 'out',
    note: "Not in v2's report: read from the account's user list (GET /users, active users); empty for a host no longer active.",
  },
  {
    v1: 'last_login_time',
    v2: NO_V2_FIELD,
    direction: 'out',
    note: "Not in v2's report: read from the account's user list (GET /users, active users); empty for a host no longer active.",
  },
];

/** A meeting of /report/getuserreport (GET /report/users/{userId}/meetings `meetings[]`). */
export const USER_REPORT_MEETING_ROWS: FieldTable = [
  { v1: 'number', v2: 'id', direction: 'out' },
  { v1: 'topic', v2: 'topic', direction: 'out' },
  { v1: 'start_time', v2: 'start_time', direction: 'out' },
  { v1: 'end_time', v2: 'end_time', direction: 'out' },
  { v1: 'duration', v2: 'duration', direction: 'out' },
];

/** A participant nested in a /report/getuserreport meeting (GET /report/meetings/{uuid}/participants). */
export const USER_REPORT_PARTICIPANT_ROWS: FieldTable = [
  { v1: 'name', v2: 'name', direction: 'out' },
  { v1: 'join_time', v2: 'join_time', direction: 'out' },
  { v1: 'leave_time', v2: 'leave_time', direction: 'out' },
];

/**
 * A leg's direction: v2's telephone report has no direction field, but a leg that rang one of the
 * service's dial-in numbers (`call_in_number`) was dialled in; one without was dialled out.
 */
export const legDirectionCodec: OutputCodec<string, string> = {
  name: 'call_in_number set → "call-in", else "call-out"',
  toV1: (callInNumber) => (callInNumber ? 'call-in' : 'call-out'),
};

/** A v1 /report/getaudioreport item (GET /report/telephone `telephony_usage[]`). Output only, in v1's order. */
export const TELEPHONY_ROWS: FieldTable = [
  { v1: 'meeting_id', v2: 'meeting_id', direction: 'out' },
  { v1: 'phone_number', v2: 'phone_number', direction: 'out' },
  { v1: 'type', v2: 'call_in_number', codec: legDirectionCodec, direction: 'out' },
  { v1: 'host_name', v2: 'host_name', direction: 'out' },
  { v1: 'host_email', v2: 'host_email', direction: 'out' },
  { v1: 'department', v2: 'dept', direction: 'out' },
  { v1: 'start_time', v2: 'start_time', direction: 'out' },
  { v1: 'end_time', v2: 'end_time', direction: 'out' },
  { v1: 'duration', v2: 'duration', direction: 'out', note: 'Minutes, every started minute counts (v1 and v2 alike).' },
  { v1: 'total', v2: 'total', direction: 'out' },
];

/**
 * The v1 /report/getaccountreport answer: its page, its range, the account's totals (under v2's
 * report's own names), then its hosts.
 */
export const ACCOUNT_REPORT_ANSWER: AnswerShape = {
  fields: [
    'page_count',
    'page_number',
    'page_size',
    'total_records',
    'from',
    'to',
    'total_meetings',
    'total_participants',
    'total_meeting_minutes',
    'users',
  ],
};

/** A host of /report/getaccountreport; the two fields v2's report lacks are empty for a host no longer active. */
export const ACCOUNT_REPORT_USER_ANSWER: AnswerShape = {
  fields: outputFieldsOf(ACCOUNT_REPORT_USER_ROWS),
  whenAbsent: { last_client_version: '', last_login_time: '' },
};

/**
 * A meeting of /report/getuserreport: the table's fields, then its participants. The meeting number
 * is answered a second time as `id`, right after `number`: the Moodle plugin (v1 era) files each
 * reported meeting under `$meet->id` and looks it up by its meeting number, so the live report
 * carried it there too (docs/live-evidence.md).
 */
export const USER_REPORT_MEETING_ANSWER: AnswerShape = {
  fields: ['number', 'id', ...outputFieldsOf(USER_REPORT_MEETING_ROWS).filter((field) => field !== 'number'), 'participants'],
  copies: { id: 'number' },
};
