import { SESSION_ACTION_ANSWERS } from '../../../mappings/session-answers.js';
import { answer } from '../../v1/answer.js';
import { defineEndpoint } from '../kit/define.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { OWN_SESSION_CALLS, requireOwnSession } from './host-check.js';
import type { SessionKind } from './kinds.js';
import { sessionRefShape } from './params.js';

/**
 * /meeting/delete, /webinar/delete → (host check) DELETE /{meetings|webinars}/{id}, one occurrence
 * when `occurrence_id` is given (an unknown or deleted occurrence is v2's 400, v1's 300 naming it).
 */
export function deleteEndpoint(kind: SessionKind) {
  return defineEndpoint({
    path: `/${kind.noun}/delete`,
    params: v1Params({ ...sessionRefShape, occurrence_id: v1.id().optional() }),
    v2Calls: [...OWN_SESSION_CALLS(kind), kind.v2.delete],
    async handle({ id, host_id, occurrence_id }, ctx) {
      const session = await requireOwnSession(ctx, kind, id, host_id);
      await ctx.v2.delete(kind.v2.delete.at(session.id), occurrence_id === undefined ? undefined : { occurrence_id });
      return answer(SESSION_ACTION_ANSWERS.deleted, { id: session.id, deleted_at: ctx.nowIso() });
    },
  });
}

/**
 * /meeting/end, /webinar/end → (host check) PUT /{meetings|webinars}/{id}/status with the kind's
 * end body. Ending a session that is not in progress succeeds, as it does in v2 (and did in v1).
 */
export function endEndpoint(kind: SessionKind) {
  return defineEndpoint({
    path: `/${kind.noun}/end`,
    params: v1Params(sessionRefShape),
    v2Calls: [...OWN_SESSION_CALLS(kind), kind.v2.setStatus],
    async handle({ id, host_id }, ctx) {
      const session = await requireOwnSession(ctx, kind, id, host_id);
      await ctx.v2.put(kind.v2.setStatus.at(session.id), kind.endBody);
      return answer(SESSION_ACTION_ANSWERS.ended, { id: session.id, ended_at: ctx.nowIso() });
    },
  });
}
