import { REGISTRANT_FIELDS } from '../../../mappings/registration.js';
import { REGISTER_ANSWER } from '../../../mappings/session-answers.js';
import { answer } from '../../v1/answer.js';
import { defineEndpoint } from '../kit/define.js';
import { inputShape, toV2 } from '../../v1/field-map.js';
import { MEETING, WEBINAR, type SessionKind } from '../sessions/kinds.js';
import { v1, v1Params } from '../../v1/param-types.js';

/**
 * /meeting/register and /webinar/register → POST /{meetings|webinars}/{id}/registrants. One
 * translator for both kinds. v1 registration carried no host_id (the registrant calls it, through
 * the integration), so there is no host check: the number alone names the session, as in v2.
 */

/** The registration rows that both versions require. */
const REQUIRED = new Set(['email', 'first_name', 'last_name']);

function registrationShape() {
  const shape = inputShape(REGISTRANT_FIELDS);
  for (const row of REGISTRANT_FIELDS) if (REQUIRED.has(row.v1)) shape[row.v1] = row.type!;
  return shape;
}

function registerEndpoint(kind: SessionKind) {
  return defineEndpoint({
    path: `/${kind.noun}/register`,
    params: v1Params({
      id: v1.id(),
      ...registrationShape(),
      // v1: "Occurrence IDs, could get this value from the Get API"; comma-separated as v2 takes them.
      occurrence_ids: v1.list().optional(),
    }),
    v2Calls: [kind.v2.register],
    tables: [REGISTRANT_FIELDS],
    async handle(params, ctx) {
      const registered = await ctx.v2.post(kind.v2.register.at(params.id), toV2(REGISTRANT_FIELDS, params), {
        occurrence_ids: params.occurrence_ids?.join(','),
      });
      return answer(REGISTER_ANSWER, registered);
    },
  });
}

export const meetingRegister = registerEndpoint(MEETING);
export const webinarRegister = registerEndpoint(WEBINAR);
