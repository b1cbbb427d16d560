import { STANDARD_QUESTION_ROWS } from '../../../mappings/registration.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { defineEndpoint, type TranslatorContext } from '../kit/define.js';
import { toV1 } from '../../v1/field-map.js';
import { allRegistrants, type V2Registrant } from '../sessions/registrants.js';
import { OWN_SESSION_CALLS, readOwnSession } from '../sessions/host-check.js';
import { WEBINAR } from '../sessions/kinds.js';
import { sessionRefShape } from '../sessions/params.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { tokenPagesUpTo, V2_MAX_PAGE_SIZE } from '../kit/v2-paging.js';
import { WEBINAR_REPORTS, pastInstances, reportAt, unknownInstance } from './instances.js';
import { type V2WebinarParticipant } from '../kit/v2-answers/webinar-reports.js';

/**
 * /webinar/attendees/list: v1's attendee report of one ended instance (the latest when `uuid` is
 * omitted), built from three v2 reads made together with the host check:
 * - GET /report/webinars/{id}/participants — one v1 row per join (who, join_time, leave_time,
 *   time_in_session: the row's seconds in whole minutes, rounded up, as text), attended "Yes".
 *   The host (the row whose `id` is the host's user id: v2 keeps a signed-in user's id there) and the panelists (by email, GET /webinars/{id}/panelists) are left out:
 *   v1's report was of attendees, and the service's own report lists hosts and panelists apart;
 * - GET /webinars/{id}/registrants?status=approved — matched to a row by the participant's
 *   registrant_id, else by email: the registrant's names, `custom_questions` (title → value) and
 *   `questions` (the standard registration answers given, field → value, as the v1 example shows
 *   country/address/city); approved registrants with no row are listed after, attended "No";
 * - GET /past_webinars/{id}/instances, only when a uuid is given: it must be an instance of this webinar.
 */

type V2Participant = V2WebinarParticipant;

/** Every participant row of the report (token paging: one page after another). */
async function allParticipants(
  ctx: TranslatorContext<typeof WEBINAR_REPORTS.participants>,
  webinarId: string,
  uuid: string | undefined,
): Promise<V2Participant[]> {
  const { items } = await tokenPagesUpTo(
    (token) =>
      ctx.v2.get(reportAt(WEBINAR_REPORTS.participants, webinarId, uuid), {
        page_size: V2_MAX_PAGE_SIZE,
        ...token,
      }),
    (page) => page.participants,
  );
  return items;
}

/** The standard answers the registrant gave (unanswered ones are left out), with v1's values. */
function standardAnswers(registrant: V2Registrant): Record<string, string> {
  const given = toV1(STANDARD_QUESTION_ROWS, registrant);
  return Object.fromEntries(Object.entries(given).filter(([, value]) => typeof value === 'string' && value !== '')) as Record<
    string,
    string
  >;
}

const customAnswers = (registrant: V2Registrant | undefined) =>
  Object.fromEntries((registrant?.custom_questions ?? []).map((q) => [q.title, q.value]));

/** A participant without a registration: the name as the service shows it, split at its first space. */
function splitName(name: string): { first_name: string; last_name: string } {
  const at = name.indexOf(' ');
  return at < 0 ? { first_name: name, last_name: '' } : { first_name: name.slice(0, at), last_name: name.slice(at + 1) };
}

function attendeeRow(registrant: V2Registrant | undefined, participant: V2Participant | undefined) {
  const names = registrant ? { first_name: registrant.first_name, last_name: registrant.last_name } : splitName(participant?.name ?? '');
  return {
    ...names,
    email: participant?.user_email || registrant?.email || '',
    join_time: participant?.join_time ?? '',
    leave_time: participant?.leave_time ?? '',
    time_in_session: String(participant ? Math.ceil(participant.duration / 60) : 0),
    attended: participant ? 'Yes' : 'No',
    custom_questions: customAnswers(registrant),
    questions: registrant ? standardAnswers(registrant) : {},
  };
}

/** The participant rows of people who attended (not the host, not a panelist). */
export function attendeesOnly(participants: readonly V2Participant[], hostId: string, panelistEmails: readonly string[]): V2Participant[] {
  const panelists = new Set(panelistEmails.map((e) => e.toLowerCase()));
  return participants.filter((p) => p.id !== hostId && !(p.user_email && panelists.has(p.user_email.toLowerCase())));
}

export function attendeeRows(participants: readonly V2Participant[], registrants: readonly V2Registrant[]) {
  const byId = new Map(registrants.map((r) => [r.id, r]));
  const byEmail = new Map(registrants.map((r) => [r.email.toLowerCase(), r]));
  const attended = new Set<string>();
  const rows = participants.map((p) => {
    const registrant =
      (p.registrant_id ? byId.get(p.registrant_id) : undefined) ?? (p.user_email ? byEmail.get(p.user_email.toLowerCase()) : undefined);
    if (registrant) attended.add(registrant.id);
    return attendeeRow(registrant, p);
  });
  const noShows = registrants.filter((r) => !attended.has(r.id)).map((r) => attendeeRow(r, undefined));
  return [...rows, ...noShows];
}

export const webinarAttendeesList = defineEndpoint({
  path: '/webinar/attendees/list',
  params: v1Params({ ...sessionRefShape, uuid: v1.id().optional() }),
  v2Calls: [
    ...OWN_SESSION_CALLS(WEBINAR),
    V2.reports.webinarParticipants,
    V2.webinars.registrants,
    V2.webinars.panelists,
    V2.webinars.pastInstances,
  ],
  async handle({ id, host_id, uuid }, ctx) {
    const [session, [participants, registrants, panelists, instances]] = await readOwnSession(ctx, WEBINAR, id, host_id, () =>
      Promise.all([
        allParticipants(ctx, id, uuid),
        allRegistrants(ctx, id, 'approved'),
        ctx.v2.get(V2.webinars.panelists.at(id)),
        uuid === undefined ? undefined : pastInstances(ctx, id),
      ]),
    );
    if (uuid !== undefined && !instances?.webinars.some((w) => w.uuid === uuid)) throw unknownInstance(id, uuid);
    const attendees = attendeesOnly(
      participants,
      session.host_id,
      panelists.panelists.map((p) => p.email),
    );
    return { attendees: attendeeRows(attendees, registrants) };
  },
});
