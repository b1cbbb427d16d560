import { V1Code } from '../../v1/errors.js';
import { V2Error } from '../../upstream/errors.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { toV1Error } from '../kit/failures.js';
import { V1Error } from '../../v1/errors.js';
import { batchesOf } from '../kit/batches.js';
import { defineEndpoint, type TranslatorContext } from '../kit/define.js';
import { OWN_SESSION_CALLS, readOwnSession, requireOwnSession, type HostCheckRoute } from '../sessions/host-check.js';
import { WEBINAR } from '../sessions/kinds.js';
import { sessionRefShape } from '../sessions/params.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { registrantIdsOf, registrantIdsShape, unknownRegistrants, V2_BATCH } from './registrant-ids.js';
import { registrantsWithStatus } from '../sessions/registrants.js';
import { requireRegistration } from './registration-enabled.js';

/**
 * /webinar/registration/cancel and /webinar/registrants/approve → PUT /webinars/{id}/registrants/status
 * with action `cancel` / `approve` and the registrants by id (v2 takes an id or an email per
 * registrant, so the ids v1 sent are enough: no email lookup). Unknown ids are a v1 300 naming
 * registrant_ids, and nothing changes: v2 refuses a whole call that names an unknown registrant,
 * and when the ids need several v2 calls (more than 30) they are all checked first.
 */

/** v1's cap on one cancel call (v1 Limits). */
const MAX_CANCEL = 15;

/**
 * After the host check found the webinar, a v2 404 on the status change can only be a registrant
 * v2 does not know (the sandbox says 3027; the real code is not in the specs, so any 404 but the
 * webinar's own 3001 counts).
 */
const isUnknownRegistrant = (error: unknown) => error instanceof V2Error && error.status === 404 && error.code !== V1Code.meetingNotFound;

type Action = 'cancel' | 'approve';

const PAST: Record<Action, string> = { cancel: 'cancelled', approve: 'approved' };

async function changeStatus(
  ctx: TranslatorContext<typeof V2.webinars.setRegistrantStatus>,
  webinarId: string,
  action: Action,
  ids: string[],
  occurrenceId?: string,
) {
  const put = (batch: string[]) =>
    ctx.v2.put(
      V2.webinars.setRegistrantStatus.at(webinarId),
      { action, registrants: batch.map((id) => ({ id })) },
      { occurrence_id: occurrenceId },
    );
  const batches = batchesOf(ids, V2_BATCH);
  if (batches.length === 1) {
    try {
      await put(ids);
    } catch (error) {
      if (isUnknownRegistrant(error)) throw unknownRegistrants((error as V2Error).message);
      throw error;
    }
    return;
  }
  // v2 cannot undo an approval or a cancellation, so a failure after the first batch (the ids were
  // all checked, so only an outage or a concurrent change) says exactly what was done.
  const done: string[] = [];
  for (const batch of batches) {
    try {
      await put(batch);
    } catch (error) {
      const failure = toV1Error(error);
      const notDone = ids.filter((id) => !done.includes(id));
      throw new V1Error(
        failure.code,
        `${failure.message} Registrants ${done.join(', ')} were ${PAST[action]}; ${notDone.join(', ')} were not.`,
        {},
        error,
      );
    }
    done.push(...batch);
  }
}

/** Check the host, registration, and (when several v2 calls are needed) every id, before any change. */
async function checkBeforeChange(
  ctx: TranslatorContext<HostCheckRoute | typeof V2.webinars.registrants>,
  params: { id: string; host_id: string; occurrence_id?: string | undefined },
  ids: string[],
) {
  if (ids.length <= V2_BATCH) {
    requireRegistration(await requireOwnSession(ctx, WEBINAR, params.id, params.host_id));
    return;
  }
  const [session, registrants] = await readOwnSession(ctx, WEBINAR, params.id, params.host_id, () =>
    registrantsWithStatus(ctx, params.id, ['approved', 'pending', 'denied'], params.occurrence_id),
  );
  requireRegistration(session);
  const known = new Set(registrants.map((r) => r.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) throw unknownRegistrants(`Registrant not found: ${unknown.join(', ')}.`);
}

function statusEndpoint(opts: { path: string; action: Action; maxIds?: number; occurrence: boolean }) {
  return defineEndpoint({
    path: opts.path,
    params: v1Params({
      ...sessionRefShape,
      ...registrantIdsShape(opts.maxIds),
      ...(opts.occurrence ? { occurrence_id: v1.id().optional() } : {}),
    }),
    // More ids than one v2 call takes are all checked against the registrants first.
    v2Calls: [
      ...OWN_SESSION_CALLS(WEBINAR),
      ...(opts.maxIds !== undefined && opts.maxIds <= V2_BATCH ? [] : [V2.webinars.registrants]),
      V2.webinars.setRegistrantStatus,
    ],
    async handle(params, ctx) {
      const ids = registrantIdsOf(params);
      const occurrenceId = (params as { occurrence_id?: string }).occurrence_id;
      await checkBeforeChange(ctx, { ...params, occurrence_id: occurrenceId }, ids);
      await changeStatus(ctx, params.id, opts.action, ids, occurrenceId);
      return { id: params.id, updated_at: ctx.nowIso() };
    },
  });
}

export const webinarRegistrationCancel = statusEndpoint({
  path: '/webinar/registration/cancel',
  action: 'cancel',
  maxIds: MAX_CANCEL,
  occurrence: true,
});

/** v1 set no cap on approvals: any number, sent on in v2 batches of 30. */
export const webinarRegistrantsApprove = statusEndpoint({ path: '/webinar/registrants/approve', action: 'approve', occurrence: false });
