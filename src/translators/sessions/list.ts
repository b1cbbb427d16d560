import { V2Error } from '../../upstream/errors.js';
import type { TranslatorContext, V1Answer } from '../kit/define.js';
import { pageOf, v1PageFields, type Paging } from '../../v1/paging.js';
import { everyPage, V2_MAX_PAGE_SIZE } from '../kit/v2-paging.js';
import type { SessionKind, SessionRoutes } from './kinds.js';
import { renderSession } from './render.js';
import { type V2Session, type V2SessionListItem } from '../kit/v2-answers/sessions.js';

/**
 * What the v1 lists share. v2 list items lack most v1 item fields (start_url, password,
 * h323_password and every option_* field), so each listed session is read in full, all in parallel
 * (the outbound limiter paces them within v2's limits). A page whose reads cannot all be admitted
 * within the call's outbound wait is refused before any is sent (the v1 rate-limit error, with the
 * Retry-After it needs), rather than spending the key's tokens on reads that would come too late.
 * A session deleted between the list and its read is left out.
 */
export async function readSessions(
  ctx: TranslatorContext<SessionRoutes['get']>,
  kind: SessionKind,
  items: readonly V2SessionListItem[],
): Promise<V2Session[]> {
  if (items.length > 0) ctx.requireFanOut(kind.v2.get, items.length);
  const reads = await Promise.allSettled(items.map((item) => ctx.v2.get(kind.v2.get.at(item.id))));
  return reads.flatMap((read) => {
    if (read.status === 'fulfilled') return [read.value];
    if (read.reason instanceof V2Error && read.reason.status === 404) return [];
    throw read.reason;
  });
}

/** Every session of a host (all v2 pages), for the v1 lists v2 cannot filter. */
export async function allSessionsOf(
  ctx: TranslatorContext<SessionRoutes['list']>,
  kind: SessionKind,
  hostId: string,
): Promise<V2SessionListItem[]> {
  const pages = await everyPage((token) => ctx.v2.get(kind.v2.list.at(hostId), { page_size: V2_MAX_PAGE_SIZE, ...token }));
  return pages.flatMap((page) => page[kind.collection] as V2SessionListItem[]);
}

/** v1's list answer: the paging fields in v1's order for these lists, then the items under the kind's key. */
export function v1ListAnswer(kind: SessionKind, paging: Paging, totalRecords: number, items: V1Answer[]): V1Answer {
  return { ...v1PageFields(pageOf(paging, totalRecords), 'total second'), [kind.collection]: items };
}

/** Render list items. */
export const renderItems = (kind: SessionKind, sessions: readonly V2Session[], liveIds: ReadonlySet<string>) =>
  sessions.map((s) => renderSession(kind, 'listItem', s, liveIds.has(String(s.id))));
