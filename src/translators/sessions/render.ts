import { toV1 } from '../../v1/field-map.js';
import type { V1Answer } from '../kit/define.js';
import { SPACED_LOGIN_DOMAINS, type SessionKind } from './kinds.js';
import { v1Status } from './status.js';
import type { V2Session } from './v2-session.js';

/**
 * The one v1 renderer of meetings and webinars: the v2 object, read through the kind's option
 * table, then the fields of the requested v1 answer picked in the v1 reference's order. v1 typed
 * ids as strings (`"id": "123456789"`, `"occurrence_id": "1483210260000"`) and answered `""` and
 * `0` for what a session has not got (no start time for a recurring meeting with no fixed time).
 */
export type OutputShape = keyof SessionKind['fields'];

/** What v2 may leave out, with the value v1 answered in its place. */
const WHEN_ABSENT: Record<string, unknown> = {
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

/** v2 session fields that are v1 fields of the same name. */
const SAME_NAME = new Set([
  'uuid',
  'host_id',
  'topic',
  'type',
  'start_time',
  'duration',
  'timezone',
  'created_at',
  'agenda',
  'start_url',
  'join_url',
  'password',
  'h323_password',
]);

/**
 * Each field of the requested answer, from the first source that has it: what v1 computed itself,
 * the kind's option table (read through toV1), the v2 field of the same name (when set), and last
 * what v1 answered in its absence. Resolved per field rather than by merging the sources into one
 * object: a ~40-key spread of three objects was most of the render's cost (60 → ~10 µs).
 */
export function renderSession(kind: SessionKind, shape: OutputShape, session: V2Session, live: boolean): V1Answer {
  const options = toV1(kind.table, session);
  // Read by field name from the shape's list: a v2 session is an interface without an index signature.
  const own = session as unknown as Record<string, unknown>;
  const out: V1Answer = {};
  for (const field of kind.fields[shape]) {
    const computed = computedField(field, session, live);
    if (field === SPACED_LOGIN_DOMAINS) out[field] = out.option_enforce_login_domains;
    else if (computed !== NOT_COMPUTED) out[field] = computed;
    else if (field in options) out[field] = options[field];
    else if (SAME_NAME.has(field) && own[field] !== undefined && own[field] !== null) out[field] = own[field];
    else out[field] = WHEN_ABSENT[field];
  }
  return out;
}

const NOT_COMPUTED = Symbol('not computed');

/** The fields v1gate computes itself rather than reading from v2. */
function computedField(field: string, session: V2Session, live: boolean): unknown {
  switch (field) {
    case 'id':
      return String(session.id);
    case 'real_id':
      // v1's own meeting number; v2 has one number per meeting, so both are it (docs/decisions.md).
      return String(session.id);
    case 'option_start_type':
      // Deprecated in v1, no v2 home: v1's default is the only value a v2 session can have.
      return 'video';
    case 'status':
      return v1Status(live);
    case 'registration_url':
      return registrationUrl(session);
    case 'occurrences':
      return (session.occurrences ?? []).map((o) => ({
        occurrence_id: String(o.occurrence_id),
        start_time: o.start_time,
        duration: o.duration,
        status: o.status,
      }));
    default:
      return NOT_COMPUTED;
  }
}

/**
 * v2 has no registration url: a session that takes registrations (approval_type 0 or 1) gets the
 * service's registration page for its number, on the host of its join url; one without, `""`
 * (as the v1 example answers for a registrationless webinar).
 */
function registrationUrl(session: V2Session): string {
  const approvalType = session.settings?.['approval_type'];
  if (approvalType === undefined || approvalType === 2) return '';
  return `${new URL(session.join_url).origin}/webinar/register/${session.id}`;
}
