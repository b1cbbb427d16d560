import { z } from 'zod';
import { V2_NUMBERED_PAGE, V2_TOKEN_PAGE } from '../v2-paging.js';
import { looseFields, OBJECT_READ_BY_KEY } from '../answer-shape.js';

/**
 * The v2 report answers the /report translators read. Rows are read through the report tables by
 * name; the lists, the totals v1gate pages by, and the ids it reads further with are checked. The
 * figures only echoed (`from`, `to`, the account totals) may be absent, as the v2 OpenAPI allows.
 */
const ROWS = z.array(OBJECT_READ_BY_KEY);
const RANGE = { from: z.string().optional(), to: z.string().optional() };

/** GET /report/daily. */
export const V2_DAILY_REPORT = looseFields({ year: z.number().optional(), month: z.number().optional(), dates: ROWS });

/** GET /report/users?type=active: paged by number, each host matched to the account's users by id. */
export const V2_HOSTS_REPORT = looseFields({
  ...V2_NUMBERED_PAGE,
  total_meetings: z.number().optional(),
  total_participants: z.number().optional(),
  total_meeting_minutes: z.number().optional(),
  users: z.array(looseFields({ id: z.string() })),
});

/** GET /report/telephone: v1gate pages the v1 answer by the total. */
export const V2_TELEPHONE_REPORT = looseFields({ ...RANGE, total_records: z.number(), telephony_usage: ROWS });

/** An item of GET /report/users/{userId}/meetings: its number and instance uuid name its participants report. */
const V2_HOSTED_MEETING = looseFields({ uuid: z.string(), id: z.union([z.number(), z.string()]) });
export type V2HostedMeeting = z.output<typeof V2_HOSTED_MEETING>;

/** GET /report/users/{userId}/meetings, by token. */
export const V2_HOSTED_PAGE = looseFields({ ...V2_TOKEN_PAGE, meetings: z.array(V2_HOSTED_MEETING) });

/** GET /report/meetings/{meetingId}/participants, by token, read to the end. */
export const V2_MEETING_PARTICIPANT_PAGE = looseFields({ next_page_token: z.string().optional(), participants: ROWS });
