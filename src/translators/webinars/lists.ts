import { defineEndpoint } from '../define.js';
import { allInOrder } from '../scheduling/in-order.js';
import { WEBINAR } from '../scheduling/kinds.js';
import { allSessionsOf, readSessions, renderItems, v1ListAnswer } from '../scheduling/list.js';
import { v2CallNames } from '../scheduling/paths.js';
import { liveWebinarIds } from '../scheduling/status.js';
import type { V2Session } from '../scheduling/v2-session.js';
import { v1, v1Params } from '../v1-params.js';
import { itemsOnPage, pagingOf, v1PagingParams } from '../v1-paging.js';

/** approval_type 2: no registration required. */
const takesRegistration = (s: V2Session) => (s.settings?.['approval_type'] ?? 2) !== 2;

/**
 * Still to come at `nowMs`: a one-time webinar starting later, a fixed-time series with an
 * occurrence still available later, and a series with no fixed time (it can always happen next).
 */
function isUpcoming(s: V2Session, nowMs: number): boolean {
  if (s.type === 6) return true;
  if (s.type === 9) return (s.occurrences ?? []).some((o) => o.status === 'available' && Date.parse(o.start_time) > nowMs);
  return s.start_time !== undefined && Date.parse(s.start_time) > nowMs;
}

/**
 * /webinar/list (webinars without registration) and /webinar/list/registration (upcoming ones
 * with it): v2 lists a host's webinars without settings and cannot filter them, so all of the
 * host's webinars are read (every v2 page, each webinar in full), filtered, and paged here; the
 * account's live webinars are read alongside for `status`.
 */
function webinarListEndpoint(path: string, keep: (s: V2Session, nowMs: number) => boolean) {
  const calls = v2CallNames(WEBINAR);
  return defineEndpoint({
    path,
    params: v1Params({ host_id: v1.string(), ...v1PagingParams }),
    v2Calls: [calls.list, calls.get, `${calls.liveWebinars}?type=live`],
    tables: [WEBINAR.table],
    async handle(params, ctx) {
      const paging = pagingOf(params);
      const nowMs = Date.parse(ctx.nowIso());
      // The host's webinars (their list also checks the host: 1001 first) and, alongside, which are live for `status`.
      const [all, liveIds] = await allInOrder([
        allSessionsOf(ctx, WEBINAR, params.host_id).then((items) => readSessions(ctx, WEBINAR, items)),
        liveWebinarIds(ctx),
      ]);
      const kept = all.filter((s) => keep(s, nowMs));
      return v1ListAnswer(WEBINAR, paging, kept.length, renderItems(WEBINAR, itemsOnPage(kept, paging), liveIds));
    },
  });
}

export const webinarList = webinarListEndpoint('/webinar/list', (s) => !takesRegistration(s));

export const webinarListRegistration = webinarListEndpoint('/webinar/list/registration', (s, nowMs) => takesRegistration(s) && isUpcoming(s, nowMs));
