import { USER_REPORT_MEETING_ANSWER, USER_REPORT_MEETING_ROWS, USER_REPORT_PARTICIPANT_ROWS } from '../../../mappings/reports.js';
import { answer } from '../../v1/answer.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { defineEndpoint, type TranslatorContext } from '../kit/define.js';
import { toV1 } from '../../v1/field-map.js';
import { itemsOnPage, pageOf, pagingOf, v1PageFields, v1PagingParams } from '../../v1/paging.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { tokenPagesUpTo, V2_MAX_PAGE_SIZE } from '../kit/v2-paging.js';
import { reportRef } from '../kit/instance-uuid.js';
import { reportRange, reportRangeParams } from '../kit/report-range.js';
import { type V2HostedMeeting } from '../kit/v2-answers/reports.js';

/** Every participant row of one ended meeting's report (by its instance uuid). */
async function participantsOf(ctx: TranslatorContext<typeof V2.reports.meetingParticipants>, meeting: V2HostedMeeting) {
  const participants = V2.reports.meetingParticipants.at(reportRef(String(meeting.id), meeting.uuid));
  const { items } = await tokenPagesUpTo(
    (token) => ctx.v2.get(participants, { page_size: V2_MAX_PAGE_SIZE, ...token }),
    (page) => page.participants,
  );
  return items.map((p) => toV1(USER_REPORT_PARTICIPANT_ROWS, p));
}

/**
 * /report/getuserreport → GET /report/users/{userId}/meetings (the meetings the user hosted in
 * the range; v2 pages it by token, v1 by number: page n needs the v2 items before it), then, for
 * each meeting on v1's page, GET /report/meetings/{uuid}/participants, which v1 nested in it.
 * Those reads are the fan-out the pre-check guards: one report-class call per meeting on the page.
 */
export const userReport = defineEndpoint({
  path: '/report/getuserreport',
  params: v1Params({ user_id: v1.id(), ...reportRangeParams, ...v1PagingParams }),
  v2Calls: [V2.reports.userMeetings, V2.reports.meetingParticipants],
  tables: [USER_REPORT_MEETING_ROWS, USER_REPORT_PARTICIPANT_ROWS],
  async handle(params, ctx) {
    const range = reportRange(params);
    const paging = pagingOf(params);
    const hosted = V2.reports.userMeetings.at(params.user_id);
    const { items, last } = await tokenPagesUpTo(
      (token) => ctx.v2.get(hosted, { ...range.v2, page_size: V2_MAX_PAGE_SIZE, ...token }),
      (page) => page.meetings,
      paging.page_number * paging.page_size,
    );
    const meetings = itemsOnPage(items, paging);
    ctx.requireFanOut(V2.reports.meetingParticipants, meetings.length);
    const participants = await Promise.all(meetings.map((meeting) => participantsOf(ctx, meeting)));
    return {
      ...v1PageFields(pageOf(paging, last.total_records)),
      ...range.v1,
      meetings: meetings.map((meeting, i) =>
        answer(USER_REPORT_MEETING_ANSWER, toV1(USER_REPORT_MEETING_ROWS, meeting), { participants: participants[i] }),
      ),
    };
  },
});
