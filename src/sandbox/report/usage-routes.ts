import { z } from 'zod';
import type { SandboxApp, SandboxContext } from '../context.js';
import type { Account } from '../model/account.js';
import type { Instance, Meeting } from '../model/meeting.js';
import type { SandboxState } from '../state.js';
import { queryInt, readQuery } from '../validation.js';
import { onDateWithin, queryDate, rangeIssue } from './dates.js';
import { endedInstancesOf } from './instance-lookup.js';
import { displayName } from './people.js';
import { renderPastMeeting } from './render.js';
import { dateOf, minutesOf, secondsBetween } from './time.js';
import { pageBody, pagingQuery, tokenPagingQuery, type NextPageTokens } from '../paging.js';

/**
 * The account's usage reports, counted from the meetings that happened in the sandbox (ended
 * instances of meetings; webinars have reports of their own): GET /report/daily, GET /report/users
 * (active or inactive hosts of a date range) and GET /report/users/{userId}/meetings.
 * A meeting counts on the UTC date it started; its minutes are its length, every started minute.
 */

interface Ended {
  meeting: Meeting;
  instance: Instance & { end_time: string };
}

/** The account's ended meeting instances (not webinars), oldest first. */
function endedMeetings(state: SandboxState, account: Account): Ended[] {
  const ended: Ended[] = [];
  for (const meeting of state.meetings.values()) {
    if (meeting.kind !== 'meeting' || meeting.account_id !== account.id) continue;
    for (const instance of endedInstancesOf(meeting)) ended.push({ meeting, instance: instance as Ended['instance'] });
  }
  return ended.sort((a, b) => a.instance.start_time.localeCompare(b.instance.start_time));
}

interface Usage {
  meetings: number;
  participants: number;
  meeting_minutes: number;
}

function usageOf(ended: readonly Ended[]): Usage {
  return {
    meetings: ended.length,
    participants: ended.reduce((sum, e) => sum + e.instance.participants.length, 0),
    meeting_minutes: ended.reduce((sum, e) => sum + minutesOf(secondsBetween(e.instance.start_time, e.instance.end_time)), 0),
  };
}

const dailyQuery = z.object({ year: queryInt(1970, 9999).optional(), month: queryInt(1, 12).optional() });

const dateRange = { from: queryDate, to: queryDate };
const usersQuery = z
  .object({
    type: z.enum(['active', 'inactive'], { error: 'Must be active or inactive.' }).default('active'),
    ...dateRange,
    ...pagingQuery.shape,
    next_page_token: z.string().optional(),
  })
  .superRefine((q, ctx) => rangeIssue(q.from, q.to, ctx));
const userMeetingsQuery = z.object({ ...dateRange, ...tokenPagingQuery }).superRefine((q, ctx) => rangeIssue(q.from, q.to, ctx));

const pad2 = (n: number) => String(n).padStart(2, '0');

export function registerUsageRoutes(app: SandboxApp, { state }: SandboxContext, pages: NextPageTokens): void {
  /** One row per day of the month (default: this month), new users counted by their creation date. */
  app.get('/report/daily', (c) => {
    const q = readQuery(c, dailyQuery);
    const today = dateOf(state.nowIso());
    const year = q.year ?? Number(today.slice(0, 4));
    const month = q.month ?? Number(today.slice(5, 7));
    const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
    const account = c.var.account;
    const ended = endedMeetings(state, account);
    const users = [...state.users.values()].filter((u) => u.account_id === account.id);
    const dates = Array.from({ length: days }, (_, i) => {
      const date = `${year}-${pad2(month)}-${pad2(i + 1)}`;
      const usage = usageOf(ended.filter((e) => dateOf(e.instance.start_time) === date));
      return { date, new_users: users.filter((u) => dateOf(u.created_at) === date).length, ...usage };
    });
    return c.json({ year, month, dates });
  });

  /** Active hosts: those who hosted a meeting in the range, most meetings first; inactive: the others. */
  app.get('/report/users', (c) => {
    const q = readQuery(c, usersQuery);
    const account = c.var.account;
    const inRange = endedMeetings(state, account).filter((e) => onDateWithin(e.instance.start_time, q.from, q.to));
    const users = [...state.users.values()].filter((u) => u.account_id === account.id);
    const rows = users
      .map((user) => ({ user, usage: usageOf(inRange.filter((e) => e.meeting.host_id === user.id)) }))
      .filter(({ usage }) => (q.type === 'active') === usage.meetings > 0)
      .sort((a, b) => b.usage.meetings - a.usage.meetings || a.user.email.localeCompare(b.user.email))
      .map(({ user, usage }) => ({
        id: user.id,
        email: user.email,
        user_name: displayName(user),
        type: user.type,
        dept: user.dept,
        ...usage,
      }));
    const total = usageOf(inRange);
    const page = pages.page(`report_users:${c.var.account.id}:${q.type}:${q.from}:${q.to}`, rows, q, 'kept');
    const { items, ...paging } = page;
    return c.json({
      from: q.from,
      to: q.to,
      ...paging,
      total_meetings: total.meetings,
      total_participants: total.participants,
      total_meeting_minutes: total.meeting_minutes,
      users: items,
    });
  });

  /** The meetings a user hosted in the range, oldest first, as the past-meeting report shows each. */
  app.get('/report/users/:userId/meetings', (c) => {
    const q = readQuery(c, userMeetingsQuery);
    const user = state.requireUser(c.var.account, c.req.param('userId'));
    const hosted = endedMeetings(state, c.var.account).filter(
      (e) => e.meeting.host_id === user.id && onDateWithin(e.instance.start_time, q.from, q.to),
    );
    const page = pages.page(`report_user_meetings:${user.id}:${q.from}:${q.to}`, hosted, q);
    const items = page.items.map(({ meeting, instance }) => renderPastMeeting(state, meeting, instance));
    return c.json({ from: q.from, to: q.to, ...pageBody({ ...page, items }, 'meetings') });
  });
}
