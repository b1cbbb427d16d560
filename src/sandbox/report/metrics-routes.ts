import { z } from 'zod';
import type { SandboxApp, SandboxContext } from '../context.js';
import type { Instance, Meeting, MeetingKind } from '../model/meeting.js';
import { readQuery } from '../validation.js';
import { onDateWithin, queryDate, rangeIssue } from './dates.js';
import { renderSessionMetric } from './render.js';
import { dateOf } from './time.js';
import { pageBody, tokenPagingQuery, type NextPageTokens } from '../paging.js';

/** The dashboard lists, one per kind: the path segment, which is also the answer's list key. */
const METRIC_LISTS: readonly { kind: MeetingKind; collection: 'meetings' | 'webinars' }[] = [
  { kind: 'meeting', collection: 'meetings' },
  { kind: 'webinar', collection: 'webinars' },
];

/**
 * `from` and `to` bound past sessions by start date; a live session is live now, so for
 * `type=live` they are optional and filter nothing (as in v1, where they were "only for past meetings").
 */
const metricsQuery = (collection: string) =>
  z
    .object({
      type: z.enum(['live', 'past', 'pastOne'], { error: 'Must be live, past or pastOne.' }).default('live'),
      from: queryDate.optional(),
      to: queryDate.optional(),
      ...tokenPagingQuery,
    })
    .superRefine((q, ctx) => {
      if (q.type !== 'live') {
        for (const field of ['from', 'to'] as const) {
          if (!q[field]) ctx.addIssue({ code: 'custom', path: [field], message: `Required for past ${collection}.` });
        }
      }
      rangeIssue(q.from, q.to, ctx);
    });

type MetricsQuery = z.output<ReturnType<typeof metricsQuery>>;

/** `pastOne` lists past sessions where the host was alone. */
const PICKS: Record<MetricsQuery['type'], (instance: Instance, q: MetricsQuery) => boolean> = {
  live: (i) => i.end_time === null,
  past: (i, q) => i.end_time !== null && onDateWithin(i.start_time, q.from!, q.to!),
  pastOne: (i, q) => PICKS.past(i, q) && new Set(i.participants.map((p) => p.id)).size <= 1,
};

/** The dashboard's session lists: GET /metrics/meetings and GET /metrics/webinars, one handler for both. Newest first. */
export function registerMetricsRoutes(app: SandboxApp, { state }: SandboxContext, pages: NextPageTokens): void {
  for (const { kind, collection } of METRIC_LISTS) {
    const query = metricsQuery(collection);
    app.get(`/metrics/${collection}`, (c) => {
      const q = readQuery(c, query);
      const account = c.var.account;
      const pick = PICKS[q.type];
      const picked: { meeting: Meeting; instance: Instance }[] = [];
      for (const meeting of state.meetings.values()) {
        if (meeting.kind !== kind || meeting.account_id !== account.id) continue;
        for (const instance of meeting.instances) if (pick(instance, q)) picked.push({ meeting, instance });
      }
      picked.sort((a, b) => b.instance.start_time.localeCompare(a.instance.start_time));
      const today = dateOf(state.nowIso());
      const scope = `metrics_${collection}:${account.id}:${q.type}:${q.from ?? ''}:${q.to ?? ''}`;
      const page = pages.page(scope, picked, q);
      const items = page.items.map(({ meeting, instance }) => renderSessionMetric(state, meeting, instance));
      return c.json({ from: q.from ?? today, to: q.to ?? today, ...pageBody({ ...page, items }, collection) });
    });
  }
}
