import { PANELIST } from '../../../mappings/registration.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { defineEndpoint } from '../kit/define.js';
import { toV1 } from '../../v1/field-map.js';
import { OWN_SESSION_CALLS, readOwnSession } from '../sessions/host-check.js';
import { WEBINAR } from '../sessions/kinds.js';
import { sessionRefShape } from '../sessions/params.js';
import { v1Params } from '../../v1/param-types.js';

/** /webinar/panelists → GET /webinars/{id}/panelists, read alongside the host check. */
export const webinarPanelists = defineEndpoint({
  path: '/webinar/panelists',
  params: v1Params(sessionRefShape),
  v2Calls: [...OWN_SESSION_CALLS(WEBINAR), V2.webinars.panelists],
  tables: [PANELIST],
  async handle({ id, host_id }, ctx) {
    const [, answer] = await readOwnSession(ctx, WEBINAR, id, host_id, () => ctx.v2.get(V2.webinars.panelists.at(id)));
    return { total_records: answer.total_records, panelists: answer.panelists.map((p) => toV1(PANELIST, p)) };
  },
});
