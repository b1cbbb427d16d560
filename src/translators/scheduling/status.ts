import { v2path } from '../../upstream/path.js';
import type { TranslatorContext } from '../define.js';
import { tokenPagesUpTo, V2_MAX_PAGE_SIZE } from '../v2-paging.js';
import { allInOrder } from './in-order.js';
import type { SessionKind } from './kinds.js';
import { v2CallNames } from './paths.js';
import type { V2SessionListItem } from './v2-session.js';

/**
 * v1's integer `status` of a meeting or webinar (docs/decisions.md, "Meetings and webinars"):
 * 0 waiting (not in progress), 1 started (in progress now). v1 also had 2 (finished); a v2
 * scheduled session can always be started again, and v2 has no finished flag, so it is not answered.
 */
export const V1_STATUS = { waiting: 0, started: 1 } as const;

export const v1Status = (live: boolean) => (live ? V1_STATUS.started : V1_STATUS.waiting);

/** A host has few meetings in progress at once; one page of the largest size holds them all. */
const LIVE_PAGE_SIZE = V2_MAX_PAGE_SIZE;

/**
 * The numbers of the host's sessions in progress, and the host check of a read (1001 for an
 * unknown host). Meetings: GET /users/{id}/meetings?type=live, which does both. Webinars: v2 has
 * no live list per host, so the host is read and, in parallel, the account's live webinars
 * (liveWebinarIds); the set may hold other hosts' webinars, which callers only ever match
 * against this host's own.
 */
export async function liveIdsOf(ctx: TranslatorContext, kind: SessionKind, hostId: string): Promise<Set<string>> {
  if (kind.noun === 'webinar') {
    const [, ids] = await allInOrder([ctx.v2.get(v2path`/users/${hostId}`), liveWebinarIds(ctx)]);
    return ids;
  }
  const { meetings } = await ctx.v2.get<{ meetings: V2SessionListItem[] }>(v2path`/users/${hostId}/meetings`, {
    type: 'live',
    page_size: LIVE_PAGE_SIZE,
  });
  return new Set(meetings.map((m) => String(m.id)));
}

/** The v2 calls of liveIdsOf, for v2Calls (docs/coverage.md). */
export function liveIdsCalls(kind: SessionKind): string[] {
  const calls = v2CallNames(kind);
  return kind.noun === 'webinar' ? [calls.user, `${calls.liveWebinars}?type=live`] : [`${calls.liveMeetings}?type=live`];
}

interface LiveWebinarsPage {
  next_page_token: string;
  webinars: V2SessionListItem[];
}

/**
 * The numbers of the account's webinars in progress: GET /metrics/webinars?type=live (the
 * dashboard's list; token paged, every page read at v2's largest size). A metrics call is in v2's
 * scarce report class (1/s, 2000/day per account), which is the price of a webinar's live status.
 */
export async function liveWebinarIds(ctx: TranslatorContext): Promise<Set<string>> {
  const { items } = await tokenPagesUpTo(
    (token) => ctx.v2.get<LiveWebinarsPage>('/metrics/webinars', { type: 'live', page_size: V2_MAX_PAGE_SIZE, ...token }),
    (page) => page.webinars,
  );
  return new Set(items.map((w) => String(w.id)));
}
