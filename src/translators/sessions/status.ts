import { V2 } from '../../v2-contract/v2-routes.js';
import type { TranslatorContext } from '../kit/define.js';
import { V2_MAX_PAGE_SIZE } from '../kit/v2-paging.js';

/**
 * v1's integer `status` of a meeting or webinar (docs/decisions.md, "Meetings and webinars"):
 * 0 waiting (not in progress), 1 started (in progress now). v1 also had 2 (finished); a v2
 * scheduled session can always be started again, and v2 has no finished flag, so it is not answered.
 */
export const V1_STATUS = { waiting: 0, started: 1 } as const;

export const v1Status = (live: boolean) => (live ? V1_STATUS.started : V1_STATUS.waiting);

/** A host has few meetings in progress at once; one page of the largest size holds them all. */
const LIVE_PAGE_SIZE = V2_MAX_PAGE_SIZE;

/** How a kind answers v1's `status`: the numbers of a host's sessions in progress, and the v2 routes reading them calls. */
export interface LiveStatus {
  calls: readonly LiveStatusRoute[];
  /** Of `calls`, what a read of one session does without when its app's scopes do not open it (`v2Optional`). */
  optional: { readonly routes: readonly LiveStatusRoute[]; readonly without: string } | undefined;
  idsOf(ctx: TranslatorContext<LiveStatusRoute>, hostId: string): Promise<Set<string>>;
}

/** What either kind's status read calls: an endpoint that reads a session's status declares its kind's `live.calls`. */
export type LiveStatusRoute = typeof V2.users.meetings | typeof V2.users.get;

/** The host checked (GET /users/{id} answers 1001 for an unknown one), and no session in progress. */
async function hostOnly(ctx: TranslatorContext<LiveStatusRoute>, hostId: string): Promise<Set<string>> {
  await ctx.v2.get(V2.users.get.at(hostId));
  return new Set();
}

/**
 * Meetings: GET /users/{id}/meetings?type=live, which also answers 1001 for an unknown host (so it
 * doubles as the host check of a read). Only `status` comes of it (and the host check, which a
 * cached answer already passed): a short-lived per-key cache serves repeated gets of a host's
 * meetings (docs/decisions.md, "Reads kept").
 */
export const LIVE_MEETINGS: LiveStatus = {
  calls: [V2.users.meetings],
  // An app granted the meeting but not the host's list (meeting:read:list_meetings:admin) still
  // reads meetings: the host is checked as a webinar's is, and no meeting shows as in progress.
  optional: {
    routes: [V2.users.meetings],
    without: '`status` is always 0 (waiting), as for webinars: only the host’s list of live meetings shows one in progress',
  },
  async idsOf(ctx, hostId) {
    if (!ctx.canCall(V2.users.meetings)) return hostOnly(ctx, hostId);
    const ids = await ctx.memo.aux(`live-meetings ${hostId}`, async () => {
      const { meetings } = await ctx.v2.get(V2.users.meetings.at(hostId), {
        type: 'live',
        page_size: LIVE_PAGE_SIZE,
      });
      return Object.freeze(meetings.map((m) => String(m.id)));
    });
    return new Set(ids);
  },
};

/**
 * Webinars: v2 has no live list per host; the account-wide GET /metrics/webinars?type=live is in
 * v2's report class (1/s and 2000/day per account), so reading it on every /webinar/get would
 * spend the account's daily report quota on status polling. Only the host is checked, and none is
 * live (docs/decisions.md, "Meetings and webinars").
 */
export const NO_LIVE_WEBINARS: LiveStatus = {
  calls: [V2.users.get],
  optional: undefined,
  idsOf: (ctx, hostId) => hostOnly(ctx, hostId),
};
