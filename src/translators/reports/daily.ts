import { DAILY_REPORT_ROWS } from '../../../mappings/reports.js';
import { defineEndpoint } from '../kit/define.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { toV1 } from '../../v1/field-map.js';
import { v1, v1Params } from '../../v1/param-types.js';

/** /report/getdailyreport → GET /report/daily: one row per day of the month (`new_users` is v1's `new_user`). */
export const dailyReport = defineEndpoint({
  path: '/report/getdailyreport',
  params: v1Params({ year: v1.int({ min: 1970, max: 9999 }), month: v1.int({ min: 1, max: 12 }) }),
  v2Calls: [V2.reports.daily],
  tables: [DAILY_REPORT_ROWS],
  async handle({ year, month }, ctx) {
    const report = await ctx.v2.get(V2.reports.daily.at(), { year, month });
    return { year: report.year, month: report.month, dates: report.dates.map((day) => toV1(DAILY_REPORT_ROWS, day)) };
  },
});
