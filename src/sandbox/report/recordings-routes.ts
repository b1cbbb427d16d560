import { z } from 'zod';
import type { SandboxApp, SandboxContext } from '../context.js';
import type { Instance, Meeting } from '../model/meeting.js';
import { readQuery } from '../validation.js';
import { onDateWithin, queryDate, rangeIssue } from './dates.js';
import { renderRecordingMeeting } from './render.js';
import { pageBody, tokenPagingQuery, type NextPageTokens } from '../paging.js';

const queryFlag = z.enum(['true', 'false'], { error: 'Must be true or false.' });

/** The reference requires `from` and `to`: the service lists recordings of a date range only. */
const recordingsQuery = z
  .object({ from: queryDate, to: queryDate, mc: queryFlag.optional(), trash: queryFlag.optional(), ...tokenPagingQuery })
  .superRefine((q, ctx) => rangeIssue(q.from, q.to, ctx));

/**
 * A user's cloud recordings (or, with `mc=true`, its meeting connector's): GET /users/{userId}/recordings, the meetings and webinars they hosted
 * that started within `from`..`to` and have recording files, newest first. The sandbox keeps no
 * trash (DELETE /meetings/{id}/recordings removes files outright), so `trash=true` is always empty.
 */
export function registerRecordingRoutes(app: SandboxApp, { state }: SandboxContext, pages: NextPageTokens): void {
  app.get('/users/:userId/recordings', (c) => {
    const q = readQuery(c, recordingsQuery);
    const user = state.requireUser(c.var.account, c.req.param('userId'));
    const recorded: { meeting: Meeting; instance: Instance }[] = [];
    // `mc=true` lists what a meeting connector recorded (control API), else the cloud's recordings.
    const connector = q.mc === 'true';
    if (q.trash !== 'true') {
      for (const meeting of state.meetings.values()) {
        if (meeting.host_id !== user.id) continue;
        for (const instance of meeting.instances) {
          if ((instance.recorded_by_connector === true) !== connector || instance.recording_files.length === 0) continue;
          if (onDateWithin(instance.start_time, q.from, q.to)) recorded.push({ meeting, instance });
        }
      }
    }
    recorded.sort((a, b) => b.instance.start_time.localeCompare(a.instance.start_time));
    const page = pages.page(`recordings:${user.id}:${q.from}:${q.to}:${q.trash ?? 'false'}:${q.mc ?? 'false'}`, recorded, q);
    const items = page.items.map(({ meeting, instance }) => renderRecordingMeeting(meeting, instance, new URL(c.req.url).origin));
    return c.json({ from: q.from, to: q.to, ...pageBody({ ...page, items }, 'meetings') });
  });
}
