import { z } from 'zod';
import type { SandboxApp, SandboxContext } from '../context.js';
import type { Instance, Meeting } from '../model/meeting.js';
import { readQuery } from '../validation.js';
import { onDateWithin, queryDate, rangeIssue } from './dates.js';
import { renderMeetingMetric } from './render.js';
import { dateOf } from './time.js';
import { tokenPageBody, tokenPagingQuery, type NextPageTokens } from './token-paging.js';

/**
 * `from` and `to` bound past meetings by start date; a live meeting is live now, so for
 * `type=live` they are optional and filter nothing (as in v1, where they were "only for past meetings").
 */
const metricsQuery = z
  .object({
    type: z.enum(['live', 'past', 'pastOne'], { error: 'Must be live, past or pastOne.' }).default('live'),
    from: queryDate.optional(),
    to: queryDate.optional(),
    ...tokenPagingQuery,
  })
  .superRefine((q, ctx) => {
    if (q.type !== 'live') {
      for (const field of ['from', 'to'] as const) {
        if (!q[field]) ctx.addIssue({ code: 'custom', path: [field], message: 'Required for past meetings.' });
      }
    }
    rangeIssue(q.from, q.to, ctx);
  });

type MetricsQuery = z.output<typeof metricsQuery>;

/** `pastOne` lists past meetings where the host was alone. */
const PICKS: Record<MetricsQuery['type'], (instance: Instance, q: MetricsQuery) => boolean> = {
  live: (i) => i.end_time === null,
  past: (i, q) => i.end_time !== null && onDateWithin(i.start_time, q.from!, q.to!),
  pastOne: (i, q) => PICKS.past(i, q) && new Set(i.participants.map((p) => p.id)).size <= 1,
};

/** The dashboard's meeting list: GET /metrics/meetings. Newest first. */
export function registerMetricsRoutes(app: SandboxApp, { state }: SandboxContext, pages: NextPageTokens): void {
  app.get('/metrics/meetings', (c) => {
    const q = readQuery(c, metricsQuery);
    const account = c.var.account;
    const pick = PICKS[q.type];
    const picked: { meeting: Meeting; instance: Instance }[] = [];
    for (const meeting of state.meetings.values()) {
      if (meeting.kind !== 'meeting' || meeting.account_id !== account.id) continue;
      for (const instance of meeting.instances) if (pick(instance, q)) picked.push({ meeting, instance });
    }
    picked.sort((a, b) => b.instance.start_time.localeCompare(a.instance.start_time));
    const today = dateOf(state.nowIso());
    const scope = `metrics_meetings:${account.id}:${q.type}:${q.from ?? ''}:${q.to ?? ''}`;
    const page = pages.page(scope, picked, q);
    const items = page.items.map(({ meeting, instance }) => renderMeetingMetric(state, meeting, instance));
    return c.json({ from: q.from ?? today, to: q.to ?? today, ...tokenPageBody({ ...page, items }, 'meetings') });
  });
}
