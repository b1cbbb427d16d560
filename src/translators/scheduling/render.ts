import { toV1 } from '../field-map.js';
import type { V1Answer } from '../define.js';
import type { SessionKind } from './kinds.js';
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

export function renderSession(kind: SessionKind, shape: OutputShape, session: V2Session, live: boolean): V1Answer {
  const all: Record<string, unknown> = {
    ...WHEN_ABSENT,
    ...definedOnly({
      uuid: session.uuid,
      host_id: session.host_id,
      topic: session.topic,
      type: session.type,
      start_time: session.start_time,
      duration: session.duration,
      timezone: session.timezone,
      created_at: session.created_at,
      agenda: session.agenda,
      start_url: session.start_url,
      join_url: session.join_url,
      password: session.password,
      h323_password: session.h323_password,
    }),
    ...toV1(kind.table, session),
    id: String(session.id),
    // v1's own meeting number; v2 has one number per meeting, so both are it (docs/decisions.md).
    real_id: String(session.id),
    // Deprecated in v1, no v2 home: v1's default is the only value a v2 session can have.
    option_start_type: 'video',
    status: v1Status(live),
    registration_url: registrationUrl(session),
    occurrences: (session.occurrences ?? []).map((o) => ({
      occurrence_id: String(o.occurrence_id),
      start_time: o.start_time,
      duration: o.duration,
      status: o.status,
    })),
  };
  const out: V1Answer = {};
  for (const field of kind.fields[shape]) out[field] = all[field];
  return out;
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

function definedOnly(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined && v !== null));
}
