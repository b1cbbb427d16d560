import { TELEPHONY_ROWS } from '../../../mappings/reports.js';
import { invalidParameter } from '../../v1/errors.js';
import { defineEndpoint } from '../kit/define.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { toV1 } from '../../v1/field-map.js';
import { pageOf, pagingOf, v1PageFields, v1PagingParams } from '../../v1/paging.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { reportRange, reportRangeParams } from '../kit/report-range.js';
import { v1PageOfTokens } from '../kit/token-walk.js';

/**
 * /report/getaudioreport → GET /report/telephone: the account's telephone legs between `from` and
 * `to`, v1's page reached by the token chain (kit/token-walk.ts). v1's type 1 (toll-free call-in and call-out, the
 * default) is v2's only type; v1's type 2 (toll) has no v2 report, so it is refused as an invalid
 * value rather than answered with legs of the other kind.
 */
export const audioReport = defineEndpoint({
  path: '/report/getaudioreport',
  params: v1Params({ ...reportRangeParams, type: v1.int({ min: 1, max: 2 }).optional(), ...v1PagingParams }),
  v2Calls: [V2.reports.telephone],
  tables: [TELEPHONY_ROWS],
  async handle(params, ctx) {
    if (params.type === 2)
      throw invalidParameter('type', 'Toll calls (type 2) have no report in v2: only type 1, toll-free call-in and call-out.');
    const range = reportRange(params);
    const paging = pagingOf(params);
    const list = { target: V2.reports.telephone.at(), query: { type: 1, ...range.v2 } };
    const report = await v1PageOfTokens(ctx, { ...list, itemsOf: (p) => p.telephony_usage }, paging);
    return {
      from: report.last.from,
      to: report.last.to,
      ...v1PageFields(pageOf(paging, report.total_records)),
      telephony_usage: report.items.map((leg) => toV1(TELEPHONY_ROWS, leg)),
    };
  },
});
