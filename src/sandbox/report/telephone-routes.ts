import { z } from 'zod';
import type { SandboxApp, SandboxContext } from '../context.js';
import type { Meeting, PhoneLeg } from '../model/meeting.js';
import { pageBody, pagingQuery } from '../paging.js';
import { readQuery } from '../validation.js';
import { onDateWithin, queryDate, rangeIssue } from './dates.js';
import { displayName } from './people.js';
import { minutesOf, secondsBetween } from './time.js';

/**
 * GET /report/telephone: the account's telephone legs (control API: only a phone network makes
 * them) that started on a date from `from` to `to`, oldest first, paged by number. `type` 1 (the
 * only one the reference has) is toll-free call-in and call-out.
 */

const telephoneQuery = z
  .object({
    type: z.enum(['1'], { error: 'Must be 1.' }).default('1'),
    from: queryDate,
    to: queryDate,
    ...pagingQuery.shape,
    next_page_token: z.string().optional(),
  })
  .superRefine((q, ctx) => rangeIssue(q.from, q.to, ctx));

const MEETING_TYPES = { meeting: 'Meeting', webinar: 'Webinar' } as const;

export function registerTelephoneRoutes(app: SandboxApp, { state }: SandboxContext): void {
  app.get('/report/telephone', (c) => {
    const q = readQuery(c, telephoneQuery);
    const legs: { meeting: Meeting; leg: PhoneLeg }[] = [];
    for (const meeting of state.meetings.values()) {
      if (meeting.account_id !== c.var.account.id) continue;
      for (const instance of meeting.instances) {
        for (const leg of instance.phone_legs ?? []) if (onDateWithin(leg.start_time, q.from, q.to)) legs.push({ meeting, leg });
      }
    }
    legs.sort((a, b) => a.leg.start_time.localeCompare(b.leg.start_time));
    const page = state.pages.page(`report_telephone:${c.var.account.id}:${q.from}:${q.to}`, legs, q, 'kept');
    const items = page.items.map(({ meeting, leg }) => {
      const host = state.users.get(meeting.host_id);
      return {
        meeting_id: meeting.id,
        phone_number: leg.phone_number,
        host_name: host ? displayName(host) : '',
        host_email: host?.email ?? '',
        dept: host?.dept ?? '',
        start_time: leg.start_time,
        end_time: leg.end_time,
        // Billed by the started minute.
        duration: minutesOf(secondsBetween(leg.start_time, leg.end_time)),
        total: leg.total,
        country_name: leg.country_name,
        meeting_type: MEETING_TYPES[meeting.kind],
        call_in_number: leg.call_in_number,
      };
    });
    return c.json({ from: q.from, to: q.to, ...pageBody({ ...page, items }, 'telephony_usage') });
  });
}
