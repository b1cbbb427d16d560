import type { Meeting, Occurrence, Panelist, Registrant } from '../model/meeting.js';
import type { KindSpec } from './kinds.js';

/** The answers' shapes: exactly the fields the spec lists, in its order. */

/**
 * An occurrence as answered. `occurrence_id` is kept as the string the service's ids are (epoch
 * milliseconds) and rendered as the integer our spec and the reference type it as; the queries
 * that take occurrence ids accept that number in decimal.
 */
function renderOccurrence(o: Occurrence) {
  return { occurrence_id: Number(o.occurrence_id), start_time: o.start_time, duration: o.duration, status: o.status };
}

function fieldsOf(meeting: Meeting): Record<string, unknown> {
  return {
    ...meeting,
    occurrences: meeting.occurrences.map(renderOccurrence),
    settings: withDeprecatedLogin(meeting.settings),
  };
}

/** Today's answers still carry the deprecated `enforce_login` pair, as copies of the authentication settings. */
function withDeprecatedLogin(settings: Meeting['settings']): Record<string, unknown> {
  return {
    ...settings,
    enforce_login: settings.meeting_authentication === true,
    enforce_login_domains: typeof settings.authentication_domains === 'string' ? settings.authentication_domains : '',
  };
}

/** Pick `fields`; a session with no fixed time has no start_time at all (as the service answers it). */
function pick(meeting: Meeting, fields: readonly string[]): Record<string, unknown> {
  const all = fieldsOf(meeting);
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (all[field] === null || all[field] === undefined) continue;
    out[field] = all[field];
  }
  return out;
}

export const renderFull = (spec: KindSpec, meeting: Meeting) => pick(meeting, spec.fullFields);

export const renderListItem = (spec: KindSpec, meeting: Meeting) => pick(meeting, spec.listFields);

/**
 * An enumerated registrant answer, only when given: `''` is no value of its enumeration, so an
 * unanswered question is left out rather than answered empty.
 */
const answered = (field: string, value: string) => (value === '' ? {} : { [field]: value });

export function renderRegistrant(r: Registrant) {
  return {
    id: r.id,
    email: r.email,
    first_name: r.first_name,
    last_name: r.last_name,
    address: r.address,
    city: r.city,
    country: r.country,
    zip: r.zip,
    state: r.state,
    phone: r.phone,
    industry: r.industry,
    org: r.org,
    job_title: r.job_title,
    ...answered('purchasing_time_frame', r.purchasing_time_frame),
    ...answered('role_in_purchase_process', r.role_in_purchase_process),
    ...answered('no_of_employees', r.no_of_employees),
    comments: r.comments,
    custom_questions: r.custom_questions.map((q) => ({ ...q })),
    status: r.status,
    create_time: r.create_time,
    join_url: r.join_url,
  };
}

export const renderPanelist = (p: Panelist) => ({ id: p.id, name: p.name, email: p.email, join_url: p.join_url });
