import { apiCredential, opaqueId } from '../ids.js';
import { badRequest, notFound, V2Code } from '../errors.js';
import type { Meeting, Occurrence, Registrant, RegistrantStatus } from '../model/meeting.js';
import type { KindSpec } from './kinds.js';
import type { RegistrantInput } from './schemas.js';

/**
 * Registration for meetings and webinars: who may register, the status a registration gets, and
 * the status changes hosts make. A `cancelled` registration is gone: no list shows it, no status
 * change reaches it, and the same email may register again.
 */

/** Registration is open only when the host asked for approval (0 automatic, 1 manual). */
export function requireRegistration(spec: KindSpec, meeting: Meeting): void {
  const approval = meeting.settings.approval_type;
  if (approval !== 0 && approval !== 1) {
    throw badRequest(`Registration has not been enabled for this ${spec.noun.toLowerCase()}: ${meeting.id}.`);
  }
}

/**
 * Register `input` for `meeting`. The same email registering again gets its existing registration
 * back (the service keys registrations by email per session and answers a repeat with the same
 * registrant id and join url); newly chosen occurrences are added to it.
 */
export function register(
  meeting: Meeting,
  input: RegistrantInput,
  occurrences: Occurrence[],
  ctx: { nowIso: string; publicUrl: string },
): Registrant {
  const occurrence_ids = registeredOccurrences(meeting, occurrences);
  const existing = findByEmail(meeting, input.email);
  if (existing) {
    if (existing.occurrence_ids.length > 0) {
      existing.occurrence_ids = occurrence_ids.length === 0 ? [] : [...new Set([...existing.occurrence_ids, ...occurrence_ids])];
    }
    return existing;
  }
  const registrant: Registrant = {
    id: opaqueId(),
    email: input.email,
    first_name: input.first_name,
    last_name: input.last_name,
    address: input.address ?? '',
    city: input.city ?? '',
    country: input.country ?? '',
    zip: input.zip ?? '',
    state: input.state ?? '',
    phone: input.phone ?? '',
    industry: input.industry ?? '',
    org: input.org ?? '',
    job_title: input.job_title ?? '',
    purchasing_time_frame: input.purchasing_time_frame ?? '',
    role_in_purchase_process: input.role_in_purchase_process ?? '',
    no_of_employees: input.no_of_employees ?? '',
    comments: input.comments ?? '',
    custom_questions: input.custom_questions ?? [],
    status: meeting.settings.approval_type === 0 ? 'approved' : 'pending',
    create_time: ctx.nowIso,
    join_url: `${ctx.publicUrl}/w/${meeting.id}?tk=${apiCredential(32)}`,
    occurrence_ids,
  };
  // A cancelled registration of the same email is replaced by the new one.
  meeting.registrants = meeting.registrants.filter((r) => !(r.status === 'cancelled' && sameEmail(r.email, input.email)));
  meeting.registrants.push(registrant);
  return registrant;
}

/**
 * The occurrences a registration covers; empty means the whole series. Only registration types
 * 2 (per occurrence) and 3 (chosen occurrences) of a fixed-time series register for some.
 */
function registeredOccurrences(meeting: Meeting, chosen: Occurrence[]): string[] {
  const perOccurrence = meeting.settings.registration_type === 2 || meeting.settings.registration_type === 3;
  return perOccurrence ? chosen.map((o) => o.occurrence_id) : [];
}

const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

const isActive = (r: Registrant) => r.status !== 'cancelled';

function findByEmail(meeting: Meeting, email: string): Registrant | undefined {
  return meeting.registrants.find((r) => isActive(r) && sameEmail(r.email, email));
}

/** Registrations that cover `occurrenceId` (all of them when none is named). */
export function registrantsFor(meeting: Meeting, occurrenceId?: string): Registrant[] {
  return meeting.registrants.filter(
    (r) => isActive(r) && (occurrenceId === undefined || r.occurrence_ids.length === 0 || r.occurrence_ids.includes(occurrenceId)),
  );
}

const NEXT_STATUS: Record<'approve' | 'cancel' | 'deny', RegistrantStatus> = {
  approve: 'approved',
  cancel: 'cancelled',
  deny: 'denied',
};

/**
 * Apply `action` to the named registrants (by id or email), or to every registrant of the
 * occurrence when none is named. An unknown registrant refuses the whole call before any change.
 */
export function changeStatus(
  meeting: Meeting,
  action: keyof typeof NEXT_STATUS,
  refs: { id?: string; email?: string }[] | undefined,
  occurrenceId: string | undefined,
): void {
  const candidates = registrantsFor(meeting, occurrenceId);
  const targets = refs
    ? refs.map((ref) => {
        const found = candidates.find((r) => (ref.id ? r.id === ref.id : sameEmail(r.email, ref.email ?? '')));
        if (!found) throw notFound(V2Code.registrantNotFound, `Registrant not found: ${ref.id ?? ref.email}.`);
        return found;
      })
    : candidates;
  for (const registrant of targets) registrant.status = NEXT_STATUS[action];
}
