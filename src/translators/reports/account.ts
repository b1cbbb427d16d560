import { ACCOUNT_REPORT_ANSWER, ACCOUNT_REPORT_USER_ANSWER, ACCOUNT_REPORT_USER_ROWS } from '../../../mappings/reports.js';
import { answer } from '../../v1/answer.js';
import { defineEndpoint, type TranslatorContext } from '../kit/define.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { toV1 } from '../../v1/field-map.js';
import { pageOf, pagingOf, v1PageFields, v1PagingParams } from '../../v1/paging.js';
import { v1Params } from '../../v1/param-types.js';
import { everyPage, V2_MAX_PAGE_SIZE } from '../kit/v2-paging.js';
import { reportRange, reportRangeParams } from '../kit/report-range.js';
import { v1PageOfTokens } from '../kit/token-walk.js';
import { type V2User } from '../kit/v2-answers/users.js';

/** The account's active users, by id: where v1's last login and client version now live. */
async function activeUsersById(ctx: TranslatorContext<typeof V2.users.list>): Promise<Map<string, V2User>> {
  const pages = await everyPage((token) => ctx.v2.get(V2.users.list.at(), { page_size: V2_MAX_PAGE_SIZE, ...token }));
  return new Map(pages.flatMap((page) => page.users).map((user) => [user.id, user]));
}

/**
 * /report/getaccountreport → GET /report/users?type=active (the hosts who held meetings in the
 * range, with the account's totals; v1's page reached by the token chain, kit/token-walk.ts) and GET /users (each
 * host's last login and client version, which v2's report leaves out), in parallel.
 */
export const accountReport = defineEndpoint({
  path: '/report/getaccountreport',
  params: v1Params({ ...reportRangeParams, ...v1PagingParams }),
  v2Calls: [V2.reports.users, V2.users.list],
  tables: [ACCOUNT_REPORT_USER_ROWS],
  async handle(params, ctx) {
    const range = reportRange(params);
    const paging = pagingOf(params);
    const list = { target: V2.reports.users.at(), query: { type: 'active', ...range.v2 } };
    const [report, users] = await Promise.all([v1PageOfTokens(ctx, { ...list, itemsOf: (p) => p.users }, paging), activeUsersById(ctx)]);
    const hosts = report.items.map((host) => {
      const user = users.get(host.id);
      return answer(ACCOUNT_REPORT_USER_ANSWER, toV1(ACCOUNT_REPORT_USER_ROWS, host), {
        last_client_version: user?.last_client_version,
        last_login_time: user?.last_login_time,
      });
    });
    // The range and the hosts before the report itself, whose own from, to and users are v2's.
    return answer(ACCOUNT_REPORT_ANSWER, v1PageFields(pageOf(paging, report.total_records)), range.v1, { users: hosts }, report.last);
  },
});
