import { defineEndpoint, type TranslatorContext } from '../kit/define.js';
import { MEETING } from '../sessions/kinds.js';
import { readSessions, renderItems, v1ListAnswer } from '../sessions/list.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import type { V2SessionListItem } from '../kit/v2-answers/sessions.js';
import { v1Params } from '../../v1/param-types.js';
import { itemsOnPage, pagingOf, v1PagingParams, type Paging } from '../../v1/paging.js';
import { tokenPagesUpTo, V2_MAX_PAGE_SIZE } from '../kit/v2-paging.js';

/**
 * /meeting/live is account-wide in v1 (no host_id): GET /metrics/meetings?type=live, which pages
 * by token. v1's page N is reached by reading v2 pages of the largest size until N pages' worth
 * is in hand (a metrics call is in v2's report class, so as few as possible), then each live
 * meeting is read in full for the v1 item fields. Every listed meeting is in progress: status 1.
 */
export const meetingLive = defineEndpoint({
  path: '/meeting/live',
  params: v1Params(v1PagingParams),
  v2Calls: [V2.metrics.meetings, MEETING.v2.get],
  tables: [MEETING.table],
  async handle(params, ctx) {
    const paging = pagingOf(params);
    const { total, items } = await liveMeetingsUpTo(ctx, paging);
    const sessions = await readSessions(ctx, MEETING, itemsOnPage(items, paging));
    const liveIds = new Set(sessions.map((s) => String(s.id)));
    return v1ListAnswer(MEETING, paging, total, renderItems(MEETING, sessions, liveIds));
  },
});

async function liveMeetingsUpTo(
  ctx: TranslatorContext<typeof V2.metrics.meetings>,
  paging: Paging,
): Promise<{ total: number; items: V2SessionListItem[] }> {
  const { items, last } = await tokenPagesUpTo(
    (token) => ctx.v2.get(V2.metrics.meetings.at(), { type: 'live', page_size: V2_MAX_PAGE_SIZE, ...token }),
    (page) => page.meetings,
    paging.page_number * paging.page_size,
  );
  return { total: last.total_records, items };
}
