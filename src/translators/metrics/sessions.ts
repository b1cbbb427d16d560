import { SESSION_METRIC_ANSWER, SESSION_METRIC_ROWS, STILL_GOING } from '../../../mappings/metrics.js';
import { answer } from '../../v1/answer.js';
import { invalidParameter, missingParameter } from '../../v1/errors.js';
import { defineEndpoint } from '../kit/define.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { toV1 } from '../../v1/field-map.js';
import { itemsOnPage, pageOf, pagingOf, v1PageFields, v1PagingParams } from '../../v1/paging.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { morePagesNeeded, tokenPagesUpTo, V2_MAX_PAGE_SIZE } from '../kit/v2-paging.js';
import { isBackwards, reportDateParam, v2Date, type ReportDate } from '../kit/report-date.js';

/**
 * /metrics/meetings and /metrics/webinars → GET /metrics/meetings and /metrics/webinars: the
 * dashboard's live (type 1) or past (type 2, between `from` and `to`) sessions. v1 pages by number
 * (to v1's general 300 a page), v2 by token: page n needs the v2 items before it, and every v2 page past the
 * first is a report-class call, checked as a fan-out before it is read. Both v1 lists answer their
 * items under `meetings`, as the reference shows.
 */

const TYPE_LABELS = { meetings: ['Live Meetings', 'Past Meetings'], webinars: ['Live Webinars', 'Past Webinars'] } as const;
const V2_TYPES = ['live', 'past'] as const;

function sessionList(collection: 'meetings' | 'webinars') {
  const route = V2.metrics[collection];
  return defineEndpoint({
    path: `/metrics/${collection}`,
    params: v1Params({
      type: v1.int({ min: 1, max: 2 }),
      from: reportDateParam().optional(),
      to: reportDateParam().optional(),
      // v1's general paging, to 300: the dashboard reference's 100 was never enforced on clients that sent 300.
      ...v1PagingParams,
    }),
    v2Calls: [route],
    tables: [SESSION_METRIC_ROWS],
    async handle(params, ctx) {
      const past = params.type === 2;
      const range = past ? pastRange(params.from, params.to) : {};
      const paging = pagingOf(params);
      const enough = paging.page_number * paging.page_size;
      const { items, last } = await tokenPagesUpTo(
        (token) =>
          ctx.v2.get(route.at(), {
            type: V2_TYPES[params.type - 1]!,
            ...range,
            page_size: V2_MAX_PAGE_SIZE,
            ...token,
          }),
        (page) => page[collection] as Record<string, unknown>[],
        enough,
        (first) => ctx.requireFanOut(route, morePagesNeeded(first.total_records, enough, V2_MAX_PAGE_SIZE)),
      );
      return {
        from: last.from,
        to: last.to,
        ...v1PageFields(pageOf(paging, last.total_records)),
        type: TYPE_LABELS[collection][params.type - 1],
        meetings: itemsOnPage(items, paging).map((item) =>
          answer(SESSION_METRIC_ANSWER, past ? {} : STILL_GOING, toV1(SESSION_METRIC_ROWS, item)),
        ),
      };
    },
  });
}

/** Past sessions need both dates (v1: "only for past meetings", where they are required). */
function pastRange(from: ReportDate | undefined, to: ReportDate | undefined) {
  if (!from) throw missingParameter('from');
  if (!to) throw missingParameter('to');
  if (isBackwards(from, to)) throw invalidParameter('to', 'Must not be before from.');
  return { from: v2Date(from), to: v2Date(to) };
}

export const metricsMeetings = sessionList('meetings');
export const metricsWebinars = sessionList('webinars');
