import {
  DASHBOARD_PARTICIPANT_ANSWER,
  DASHBOARD_PARTICIPANT_ROWS,
  DETAIL_TYPE_LABELS,
  SESSION_DETAIL_ANSWER,
  SESSION_DETAIL_ROWS,
  STILL_GOING,
} from '../../../mappings/metrics.js';
import { answer } from '../../v1/answer.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { defineEndpoint } from '../kit/define.js';
import { toV1 } from '../../v1/field-map.js';
import { itemsOnPage, pageOf, pagingOf, v1PagingParams } from '../../v1/paging.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { uuidSegment } from '../kit/instance-uuid.js';
import { morePagesNeeded, tokenPagesUpTo, V2_MAX_PAGE_SIZE } from '../kit/v2-paging.js';

/**
 * /metrics/meetingdetail and /metrics/webinardetail → GET /metrics/{meetings|webinars}/{id} (the
 * session) + its /participants (the people, paged). `meeting_id` is a number or an instance uuid,
 * as in v1; type 1 is the live session, 2 the past one. v1 pages the participants by number (at
 * most 100), v2 by token: page n needs the v2 items before it. The answer carries
 * `participants_count` (the list's total) where a list would carry `total_records`.
 */

const V2_TYPES = ['live', 'past'] as const;

/** The session and its participants, by collection. */
const DETAIL_ROUTES = {
  meetings: { session: V2.metrics.meeting, participants: V2.metrics.meetingParticipants },
  webinars: { session: V2.metrics.webinar, participants: V2.metrics.webinarParticipants },
} as const;

function sessionDetail(collection: 'meetings' | 'webinars') {
  const v1Path = collection === 'meetings' ? '/metrics/meetingdetail' : '/metrics/webinardetail';
  const routes = DETAIL_ROUTES[collection];
  return defineEndpoint({
    path: v1Path,
    params: v1Params({
      meeting_id: v1.id(),
      type: v1.int({ min: 1, max: 2 }),
      // v1's general paging, to 300, as for the dashboard's session lists (sessions.ts).
      ...v1PagingParams,
    }),
    v2Calls: [routes.session, routes.participants],
    tables: [SESSION_DETAIL_ROWS, DASHBOARD_PARTICIPANT_ROWS],
    async handle(params, ctx) {
      const type = V2_TYPES[params.type - 1]!;
      const sessionRef = uuidSegment(params.meeting_id);
      const session = await ctx.v2.get(routes.session.at(sessionRef), { type });
      const paging = pagingOf(params);
      const enough = paging.page_number * paging.page_size;
      const participants = routes.participants.at(sessionRef);
      const { items, last } = await tokenPagesUpTo(
        (token) => ctx.v2.get(participants, { type, page_size: V2_MAX_PAGE_SIZE, ...token }),
        (page) => page.participants,
        enough,
        (first) => ctx.requireFanOut(routes.participants, morePagesNeeded(first.total_records, enough, V2_MAX_PAGE_SIZE)),
      );
      const page = pageOf(paging, last.total_records);
      return answer(SESSION_DETAIL_ANSWER, params.type === 1 ? STILL_GOING : {}, toV1(SESSION_DETAIL_ROWS, session), {
        type: DETAIL_TYPE_LABELS[collection][params.type - 1],
        participants_count: page.total_records,
        page_count: page.page_count,
        page_number: page.page_number,
        page_size: page.page_size,
        participants: itemsOnPage(items, paging).map((p) => answer(DASHBOARD_PARTICIPANT_ANSWER, toV1(DASHBOARD_PARTICIPANT_ROWS, p))),
      });
    },
  });
}

export const metricsMeetingDetail = sessionDetail('meetings');
export const metricsWebinarDetail = sessionDetail('webinars');
