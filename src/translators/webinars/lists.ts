import { defineEndpoint } from '../kit/define.js';
import { WEBINAR } from '../sessions/kinds.js';
import { allSessionsOf, readSessions, renderItems, v1ListAnswer } from '../sessions/list.js';
import type { V2Session } from '../kit/v2-answers/sessions.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { itemsOnPage, pagingOf, v1PagingParams } from '../../v1/paging.js';

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
 * host's webinars are read (every v2 page, each webinar in full), filtered, and paged here.
 */
function webinarListEndpoint(path: string, keep: (s: V2Session, nowMs: number) => boolean) {
  return defineEndpoint({
    path,
    params: v1Params({ host_id: v1.id(), ...v1PagingParams }),
    v2Calls: [WEBINAR.v2.list, WEBINAR.v2.get],
    tables: [WEBINAR.table],
    async handle(params, ctx) {
      const paging = pagingOf(params);
      const nowMs = Date.parse(ctx.nowIso());
      const all = await readSessions(ctx, WEBINAR, await allSessionsOf(ctx, WEBINAR, params.host_id));
      const kept = all.filter((s) => keep(s, nowMs));
      // v2 shows no live state for webinars (status.ts): none is listed as started.
      return v1ListAnswer(WEBINAR, paging, kept.length, renderItems(WEBINAR, itemsOnPage(kept, paging), new Set()));
    },
  });
}

export const webinarList = webinarListEndpoint('/webinar/list', (s) => !takesRegistration(s));

export const webinarListRegistration = webinarListEndpoint(
  '/webinar/list/registration',
  (s, nowMs) => takesRegistration(s) && isUpcoming(s, nowMs),
);
