import { defineEndpoint } from '../kit/define.js';
import { MEETING } from '../sessions/kinds.js';
import { readSessions, renderItems, v1ListAnswer } from '../sessions/list.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { pagingOf, v1PagingParams } from '../../v1/paging.js';
import { v1PageOfTokens } from '../kit/token-walk.js';

/**
 * /meeting/list → GET /users/{host_id}/meetings?type=scheduled (v1 listed the host's scheduled
 * meetings; v1's page reached by the token chain, kit/token-walk.ts), each read in full, and the host's live meetings for
 * `status`, in parallel.
 */
export const meetingList = defineEndpoint({
  path: '/meeting/list',
  params: v1Params({ host_id: v1.id(), ...v1PagingParams }),
  v2Calls: [V2.users.meetings, ...MEETING.live.calls, MEETING.v2.get],
  tables: [MEETING.table],
  async handle(params, ctx) {
    const paging = pagingOf(params);
    const list = { target: V2.users.meetings.at(params.host_id), query: { type: 'scheduled' } };
    const [page, liveIds] = await Promise.all([
      v1PageOfTokens(ctx, { ...list, itemsOf: (p) => p.meetings }, paging),
      MEETING.live.idsOf(ctx, params.host_id),
    ]);
    const sessions = await readSessions(ctx, MEETING, page.items);
    return v1ListAnswer(MEETING, paging, page.total_records, renderItems(MEETING, sessions, liveIds));
  },
});
