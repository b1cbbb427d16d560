import { defineEndpoint } from '../kit/define.js';
import { WEBINAR } from '../sessions/kinds.js';
import { allSessionsOf, readSessions, renderItems, v1ListAnswer } from '../sessions/list.js';
import { keeps, type ListKeep } from '../kit/list-keep.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { itemsOnPage, pagingOf, v1PagingParams } from '../../v1/paging.js';

/** approval_type 2 (v2's default): no registration required. */
const NO_REGISTRATION: ListKeep = { field: 'settings.approval_type', default: 2, equals: 2 };

/**
 * Still to come when the list is read: a series with no fixed time (it can always happen next), a
 * fixed-time series with an occurrence still available later, a one-time webinar starting later.
 */
const UPCOMING: ListKeep = {
  any: [
    { field: 'type', equals: 6 },
    {
      all: [
        { field: 'type', equals: 9 },
        {
          some: 'occurrences',
          where: {
            all: [
              { field: 'status', equals: 'available' },
              { field: 'start_time', after: 'now' },
            ],
          },
        },
      ],
    },
    {
      all: [
        { field: 'type', notEquals: 6 },
        { field: 'type', notEquals: 9 },
        { field: 'start_time', after: 'now' },
      ],
    },
  ],
};

/**
 * /webinar/list (webinars without registration) and /webinar/list/registration (upcoming ones
 * with it): v2 lists a host's webinars without settings and cannot filter them, so all of the
 * host's webinars are read (every v2 page, each webinar in full), filtered, and paged here.
 */
function webinarListEndpoint(path: string, listKeep: ListKeep) {
  return defineEndpoint({
    path,
    params: v1Params({ host_id: v1.id(), ...v1PagingParams }),
    v2Calls: [WEBINAR.v2.list, WEBINAR.v2.get],
    tables: [WEBINAR.table],
    listKeep,
    async handle(params, ctx) {
      const paging = pagingOf(params);
      const nowMs = Date.parse(ctx.nowIso());
      const all = await readSessions(ctx, WEBINAR, await allSessionsOf(ctx, WEBINAR, params.host_id));
      const kept = all.filter((s) => keeps(listKeep, s, nowMs));
      // v2 shows no live state for webinars (status.ts): none is listed as started.
      return v1ListAnswer(WEBINAR, paging, kept.length, renderItems(WEBINAR, itemsOnPage(kept, paging), new Set()));
    },
  });
}

export const webinarList = webinarListEndpoint('/webinar/list', NO_REGISTRATION);

export const webinarListRegistration = webinarListEndpoint('/webinar/list/registration', {
  all: [{ field: 'settings.approval_type', default: 2, notEquals: 2 }, UPCOMING],
});
