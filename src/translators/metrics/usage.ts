import { CRC_HOUR_ROWS, IM_USER_ANSWER, IM_USER_ROWS } from '../../../mappings/dashboards.js';
import { answer } from '../../v1/answer.js';
import { invalidParameter } from '../../v1/errors.js';
import { defineEndpoint } from '../kit/define.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { toV1 } from '../../v1/field-map.js';
import { pageOf, pagingOf, v1PageFields } from '../../v1/paging.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { v1PageOfTokens } from '../kit/token-walk.js';
import { isBackwards, reportDateParam, v2Date, type ReportDate } from '../kit/report-date.js';

/**
 * /metrics/crc → GET /metrics/crc (CRC port usage per day and hour) and /metrics/im →
 * GET /metrics/chat, which replaced the retired GET /metrics/im (each user's chat counts between
 * `from` and `to`; v2 pages by token only, v1 by number, at most 30 a page).
 */

function v2Range(from: ReportDate, to: ReportDate) {
  if (isBackwards(from, to)) throw invalidParameter('to', 'Must not be before from.');
  return { from: v2Date(from), to: v2Date(to) };
}

export const metricsCrc = defineEndpoint({
  path: '/metrics/crc',
  params: v1Params({ from: reportDateParam(), to: reportDateParam() }),
  v2Calls: [V2.metrics.crc],
  tables: [CRC_HOUR_ROWS],
  async handle(params, ctx) {
    const usage = await ctx.v2.get(V2.metrics.crc.at(), v2Range(params.from, params.to));
    return {
      from: usage.from,
      to: usage.to,
      crc_ports_usage: usage.crc_ports_usage.map((day) => ({
        date_time: day.date_time,
        crc_ports_hour_usage: day.crc_ports_hour_usage.map((hour) => toV1(CRC_HOUR_ROWS, hour)),
      })),
    };
  },
});

export const metricsIm = defineEndpoint({
  path: '/metrics/im',
  params: v1Params({
    from: reportDateParam(),
    to: reportDateParam(),
    page_size: v1.int({ min: 1, max: 30 }).optional(),
    page_number: v1.int({ min: 1 }).optional(),
  }),
  v2Calls: [V2.metrics.chat],
  tables: [IM_USER_ROWS],
  async handle(params, ctx) {
    const range = v2Range(params.from, params.to);
    const paging = pagingOf(params);
    const list = { target: V2.metrics.chat.at(), query: range };
    const page = await v1PageOfTokens(ctx, { ...list, itemsOf: (p) => p.users }, paging);
    return {
      from: page.last.from ?? range.from,
      to: page.last.to ?? range.to,
      ...v1PageFields(pageOf(paging, page.total_records)),
      users: page.items.map((user) => answer(IM_USER_ANSWER, toV1(IM_USER_ROWS, user))),
    };
  },
});
