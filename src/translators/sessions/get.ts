import { defineEndpoint } from '../kit/define.js';
import { v1Params } from '../../v1/param-types.js';
import { readOwnSession } from './host-check.js';
import type { SessionKind } from './kinds.js';
import { sessionRefShape } from './params.js';
import { v2CallNames } from './paths.js';
import { renderSession } from './render.js';
import { liveIdsOf } from './status.js';

/**
 * /meeting/get, /webinar/get → GET /{meetings|webinars}/{id}, and in parallel the host's live
 * meetings (for v1's `status`; it also proves the host exists). Host checks: host-check.ts.
 */
export function getEndpoint(kind: SessionKind) {
  const calls = v2CallNames(kind);
  return defineEndpoint({
    path: `/${kind.noun}/get`,
    params: v1Params(sessionRefShape),
    v2Calls: [calls.get, kind.noun === 'meeting' ? `${calls.liveMeetings}?type=live` : calls.user],
    tables: [kind.table],
    async handle({ id, host_id }, ctx) {
      const [session, liveIds] = await readOwnSession(ctx, kind, id, host_id, () => liveIdsOf(ctx, kind, host_id), { keyedByHost: true });
      return renderSession(kind, 'get', session, liveIds.has(String(session.id)));
    },
  });
}
