import { V1Code } from '../../v1/errors.js';
import type { PathValue, V2Route } from '../../v2-contract/v2-route.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { V1Error } from '../../v1/errors.js';
import { defineEndpoint, type TranslatorContext } from '../kit/define.js';
import { OWN_SESSION_CALLS, readOwnSession } from '../sessions/host-check.js';
import { WEBINAR } from '../sessions/kinds.js';
import { sessionRefShape } from '../sessions/params.js';
import { reportRef } from '../kit/instance-uuid.js';
import { v1Params } from '../../v1/param-types.js';

export type { V2Instance } from '../kit/v2-answers/webinar-reports.js';

export const pastInstances = (ctx: TranslatorContext<typeof V2.webinars.pastInstances>, webinarId: string) =>
  ctx.v2.get(V2.webinars.pastInstances.at(webinarId));

/** The v2 reports of one webinar instance, by name. */
export const WEBINAR_REPORTS = {
  participants: V2.reports.webinarParticipants,
  polls: V2.reports.webinarPolls,
  qa: V2.reports.webinarQa,
} as const;

/** The v2 report `route` (of WEBINAR_REPORTS) of one webinar instance: the latest ended one when `uuid` is omitted. */
export const reportAt = <Name extends string>(route: V2Route<'GET', [PathValue], Name>, webinarId: string, uuid: string | undefined) =>
  route.at(reportRef(webinarId, uuid));

/** A uuid that is not an ended instance of this webinar: the v1 "webinar not found" (3001). */
export const unknownInstance = (webinarId: string, uuid: string) =>
  new V1Error(V1Code.meetingNotFound, `Webinar ${webinarId} has no ended instance ${uuid}.`);

/** /webinar/uuid/list → GET /past_webinars/{id}/instances: the ended instances, oldest first. */
export const webinarUuidList = defineEndpoint({
  path: '/webinar/uuid/list',
  params: v1Params(sessionRefShape),
  v2Calls: [...OWN_SESSION_CALLS(WEBINAR), V2.webinars.pastInstances],
  async handle({ id, host_id }, ctx) {
    const [, { webinars }] = await readOwnSession(ctx, WEBINAR, id, host_id, () => pastInstances(ctx, id));
    return { webinars: webinars.map((w) => ({ uuid: w.uuid, start_time: w.start_time })) };
  },
});
