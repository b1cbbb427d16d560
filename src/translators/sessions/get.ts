import { defineEndpoint } from '../kit/define.js';
import { v1Params } from '../../v1/param-types.js';
import { OWN_SESSION_CALLS, readOwnSession } from './host-check.js';
import type { SessionKind } from './kinds.js';
import { sessionRefShape } from './params.js';
import { renderSession } from './render.js';

/**
 * /meeting/get, /webinar/get → GET /{meetings|webinars}/{id}, and in parallel what the kind reads
 * for v1's `status` (`kind.live`: the host's live meetings, or the webinar host alone), which also
 * proves the host exists. Host checks: host-check.ts.
 */
export function getEndpoint(kind: SessionKind) {
  return defineEndpoint({
    path: `/${kind.noun}/get`,
    params: v1Params(sessionRefShape),
    v2Calls: [...OWN_SESSION_CALLS(kind), ...kind.live.calls],
    ...(kind.live.optional ? { v2Optional: kind.live.optional } : {}),
    tables: [kind.table],
    async handle({ id, host_id }, ctx) {
      const [session, liveIds] = await readOwnSession(ctx, kind, id, host_id, () => kind.live.idsOf(ctx, host_id), { keyedByHost: true });
      return renderSession(kind, 'get', session, liveIds.has(String(session.id)));
    },
  });
}
