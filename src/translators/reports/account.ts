import { ACCOUNT_REPORT_USER_ANSWER, ACCOUNT_REPORT_USER_ROWS } from '../../../mappings/reports.js';
import { answer } from '../../v1/answer.js';
import { defineEndpoint, type TranslatorContext } from '../kit/define.js';
import { toV1 } from '../../v1/field-map.js';
import { pagingOf, v1PageFields, v1PagingParams } from '../../v1/paging.js';
import { v1Params } from '../../v1/param-types.js';
import { everyNumberedPage, V2_MAX_PAGE_SIZE } from '../kit/v2-paging.js';
import { reportRange, reportRangeParams } from './range.js';

interface V2HostRow {
  id: string;
  [field: string]: unknown;
}

interface V2HostsReport {
  page_count: number;
  page_number: number;
  page_size: number;
  total_records: number;
  total_meetings: number;
  total_participants: number;
  total_meeting_minutes: number;
  users: V2HostRow[];
}

interface V2UserListItem {
  id: string;
  last_login_time?: string;
  last_client_version?: string;
}

/** The account's active users, by id: where v1's last login and client version now live. */
async function activeUsersById(ctx: TranslatorContext): Promise<Map<string, V2UserListItem>> {
  const pages = await everyNumberedPage((page_number) =>
    ctx.v2.get<{ page_count: number; users: V2UserListItem[] }>('/users', { page_size: V2_MAX_PAGE_SIZE, page_number }),
  );
  return new Map(pages.flatMap((page) => page.users).map((user) => [user.id, user]));
}

/**
 * /report/getaccountreport → GET /report/users?type=active (the hosts who held meetings in the
 * range, with the account's totals; v1 and v2 page it alike, by number) and GET /users (each
 * host's last login and client version, which v2's report leaves out), in parallel.
 */
export const accountReport = defineEndpoint({
  path: '/report/getaccountreport',
  params: v1Params({ ...reportRangeParams, ...v1PagingParams }),
  v2Calls: ['GET /report/users', 'GET /users'],
  tables: [ACCOUNT_REPORT_USER_ROWS],
  async handle(params, ctx) {
    const range = reportRange(params);
    const paging = pagingOf(params);
    const [report, users] = await Promise.all([
      ctx.v2.get<V2HostsReport>('/report/users', { type: 'active', ...range.v2, ...paging }),
      activeUsersById(ctx),
    ]);
    return {
      ...v1PageFields(report),
      ...range.v1,
      total_meetings: report.total_meetings,
      total_participants: report.total_participants,
      total_meeting_minutes: report.total_meeting_minutes,
      users: report.users.map((host) => {
        const user = users.get(host.id);
        return answer(ACCOUNT_REPORT_USER_ANSWER, toV1(ACCOUNT_REPORT_USER_ROWS, host), {
          last_client_version: user?.last_client_version,
          last_login_time: user?.last_login_time,
        });
      }),
    };
  },
});
