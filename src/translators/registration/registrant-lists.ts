import { REGISTRANT_LIST_QUERY, REGISTRANT_LIST_USER, REGISTRATION_ATTENDEE } from '../../../mappings/registration.js';
import { defineEndpoint } from '../kit/define.js';
import { inputShape, toV1, toV2, withV1Defaults } from '../../v1/field-map.js';
import { itemsOnPage, pageOf, pagingOf, v1PageFields, v1PagingParams } from '../../v1/paging.js';
import { OWN_SESSION_CALLS, readOwnSession } from '../sessions/host-check.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { WEBINAR } from '../sessions/kinds.js';
import { sessionRefShape } from '../sessions/params.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { registrantPage, registrantsWithStatus, type RegistrantStatus } from '../sessions/registrants.js';
import { requireRegistration } from './registration-enabled.js';

/**
 * /webinar/registration lists every registration of a webinar with its approval state. v2 lists one
 * status per call, so the three lists (approved, pending, denied — cancelled registrations are gone)
 * are read whole in parallel, merged in registration order, and paged the v1 way here.
 */
const EVERY_STATUS: readonly RegistrantStatus[] = ['approved', 'pending', 'denied'];

export const webinarRegistration = defineEndpoint({
  path: '/webinar/registration',
  params: v1Params({ ...sessionRefShape, occurrence_id: v1.id().optional(), ...v1PagingParams }),
  v2Calls: [...OWN_SESSION_CALLS(WEBINAR), V2.webinars.registrants],
  tables: [REGISTRATION_ATTENDEE],
  async handle(params, ctx) {
    const [session, registrants] = await readOwnSession(ctx, WEBINAR, params.id, params.host_id, () =>
      registrantsWithStatus(ctx, params.id, EVERY_STATUS, params.occurrence_id),
    );
    requireRegistration(session);
    const paging = pagingOf(params);
    return {
      ...v1PageFields(pageOf(paging, registrants.length)),
      attendees: itemsOnPage(registrants, paging).map((r) => toV1(REGISTRATION_ATTENDEE, r)),
    };
  },
});

/** /webinar/registrants/list → v1's page of the registrants of the status v1's `type` names. */
export const webinarRegistrantsList = defineEndpoint({
  path: '/webinar/registrants/list',
  params: v1Params({ ...sessionRefShape, ...inputShape(REGISTRANT_LIST_QUERY), ...v1PagingParams }),
  v2Calls: [...OWN_SESSION_CALLS(WEBINAR), V2.webinars.registrants],
  tables: [REGISTRANT_LIST_QUERY, REGISTRANT_LIST_USER],
  async handle(params, ctx) {
    const withDefaults = withV1Defaults(REGISTRANT_LIST_QUERY, params);
    const { status } = toV2(REGISTRANT_LIST_QUERY, withDefaults);
    const paging = pagingOf(params);
    const [session, page] = await readOwnSession(ctx, WEBINAR, params.id, params.host_id, () =>
      registrantPage(ctx, params.id, status, paging),
    );
    requireRegistration(session);
    return {
      ...v1PageFields(pageOf(paging, page.total_records)),
      type: withDefaults.type,
      users: page.items.map((r) => toV1(REGISTRANT_LIST_USER, r)),
    };
  },
});
