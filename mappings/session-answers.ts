import type { AnswerShape } from '../src/v1/answer.js';

/**
 * The v1 answers of meetings and webinars (src/translators/sessions/render.ts fills them): their
 * fields in the order of the v1 reference's examples, and what v1 answered for what a session has
 * not got (no start time for a recurring meeting with no fixed time).
 */

/**
 * The real service emitted `option_enforce_login_domains` with a trailing space in six answers
 * (meeting create, list and live; webinar create, get and list: see their reference examples), and
 * clients coded against those answers read that key. Those answers carry it right after the
 * unspaced key, with the same value; no other answer does.
 */
export const SPACED_LOGIN_DOMAINS = 'option_enforce_login_domains ';

/** What v2 may leave out, with the value v1 answered in its place. */
const WHEN_ABSENT: Readonly<Record<string, unknown>> = {
  start_time: '',
  duration: 0,
  timezone: '',
  agenda: '',
  password: '',
  h323_password: '',
  option_enforce_login_domains: '',
  option_alternative_hosts: '',
  option_audio: 'both',
  option_jbh: false,
  option_host_video: false,
  option_participants_video: false,
  option_cn_meeting: false,
  option_in_meeting: false,
  option_use_pmi: false,
  option_enforce_login: false,
};

const COPIES = { [SPACED_LOGIN_DOMAINS]: 'option_enforce_login_domains' };

/**
 * A session's number is a JSON number in the answers that show the session (create, get, the
 * lists): the live service answered `"id": 494333439`, and typed clients decode it into an int
 * (docs/live-evidence.md, "Ids"). `real_id` and occurrence ids stay strings, as v1 answered them.
 */
const SESSION_WIRE = { id: 'number' } as const;

const sessionAnswer = (fields: readonly string[]): AnswerShape => ({ fields, whenAbsent: WHEN_ABSENT, copies: COPIES, wire: SESSION_WIRE });

/** The three answers of a kind: create, get, and an item of the lists. */
export interface SessionAnswers {
  create: AnswerShape;
  get: AnswerShape;
  listItem: AnswerShape;
}

/** How both kinds' list items begin, in the v1 reference's order. */
const LIST_ITEM_HEAD = ['uuid', 'id', 'start_url', 'join_url', 'created_at', 'host_id', 'topic', 'type'];

/** Meeting list item, as the v1 swagger example orders it (create adds real_id). */
const MEETING_ITEM = [
  ...LIST_ITEM_HEAD,
  'option_jbh',
  'option_start_type',
  'start_time',
  'duration',
  'timezone',
  'password',
  'h323_password',
  'option_host_video',
  'option_participants_video',
  'option_audio',
  'option_enforce_login',
  'option_enforce_login_domains',
  SPACED_LOGIN_DOMAINS,
  'option_alternative_hosts',
  'status',
];

export const MEETING_ANSWERS: SessionAnswers = {
  create: sessionAnswer(['uuid', 'id', 'real_id', ...MEETING_ITEM.slice(2)]),
  get: sessionAnswer([
    'uuid',
    'id',
    'host_id',
    'topic',
    'password',
    'h323_password',
    'status',
    'option_jbh',
    'option_start_type',
    'option_host_video',
    'option_participants_video',
    'option_cn_meeting',
    'option_enforce_login',
    'option_enforce_login_domains',
    'option_in_meeting',
    'option_audio',
    'option_alternative_hosts',
    'option_use_pmi',
    'type',
    'start_time',
    'duration',
    'timezone',
    'start_url',
    'join_url',
    'created_at',
    'occurrences',
  ]),
  listItem: sessionAnswer(MEETING_ITEM),
};

const WEBINAR_OUTPUT = [
  'uuid',
  'id',
  'host_id',
  'topic',
  'agenda',
  'status',
  'option_start_type',
  'option_audio',
  'option_enforce_login',
  'option_enforce_login_domains',
  SPACED_LOGIN_DOMAINS,
  'option_alternative_hosts',
  'type',
  'start_time',
  'duration',
  'timezone',
  'start_url',
  'join_url',
  'registration_url',
  'created_at',
];

export const WEBINAR_ANSWERS: SessionAnswers = {
  create: sessionAnswer(WEBINAR_OUTPUT),
  get: sessionAnswer([...WEBINAR_OUTPUT, 'occurrences']),
  listItem: sessionAnswer([
    ...LIST_ITEM_HEAD,
    'start_time',
    'duration',
    'timezone',
    'agenda',
    'option_start_type',
    'option_audio',
    'option_enforce_login',
    'option_enforce_login_domains',
    SPACED_LOGIN_DOMAINS,
    'option_alternative_hosts',
    'status',
  ]),
};

/**
 * The answers of the actions on one session (update, delete, end): its number and the time of the
 * action. The live service answered the number quoted here (`{"id": "252482092", "updated_at": …}`,
 * captured from it: docs/live-evidence.md), unlike the answers that show the session.
 */
const actionAnswer = (at: string): AnswerShape => ({ fields: ['id', at], wire: { id: 'string' } });

export const SESSION_ACTION_ANSWERS = {
  updated: actionAnswer('updated_at'),
  deleted: actionAnswer('deleted_at'),
  ended: actionAnswer('ended_at'),
} as const satisfies Record<string, AnswerShape>;

/**
 * /meeting/register and /webinar/register (one shape in the reference): the session's number is a
 * JSON number, as typed clients decode it (docs/live-evidence.md); a recurring session with no fixed
 * time has no start time, which v1 answered as `""`.
 */
export const REGISTER_ANSWER: AnswerShape = {
  fields: ['registrant_id', 'id', 'topic', 'start_time', 'join_url'],
  whenAbsent: { start_time: '' },
  wire: { id: 'number' },
};
