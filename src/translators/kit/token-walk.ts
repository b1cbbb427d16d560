import type { PathValue, V2Route, V2Target } from '../../v2-contract/v2-route.js';
import type { Query } from '../../upstream/client.js';
import { V2Error } from '../../upstream/errors.js';
import { invalidParameter } from '../../v1/errors.js';
import type { Paging } from '../../v1/paging.js';
import type { TranslatorContext } from './define.js';
import type { V2Answer, V2Answers, V2RouteName } from './v2-answers/table.js';

/**
 * v1's page N of a v2 list that pages by token only. Today's v2 deprecates `page_number` and some
 * lists no longer honour it (docs/live-evidence.md, "Token paging today"): page N is reached by
 * following the token chain from the first page. v2 pages of v1's own `page_size` make each v1 page
 * one v2 page, and the token where each page begins is kept per key and list for a short while
 * (`CallMemo.pageToken`), so page N+1 after page N costs one v2 call.
 *
 * The walk is bounded: one v1 call reads at most `MAX_WALK_PAGES` v2 pages, from the nearest page
 * whose token is kept (or the first). A page beyond that is refused with v1's invalid-parameter
 * error after one v2 page (which says whether it is past the list's end: then the empty page v1
 * answered), never walked: no client makes v1gate follow an unbounded chain.
 */

/** The most v2 pages one v1 call follows to reach the page it asks for. */
export const MAX_WALK_PAGES = 20;

/** What the walk reads of each v2 page: `total_records` where v2 gives it, the token where more follow. */
export interface TokenPaged {
  total_records?: number | undefined;
  next_page_token?: string | undefined;
}

/** The routes whose answer is a token-paged list: what the walk reads of each page. */
export type TokenPagedName = { [Name in V2RouteName]: V2Answers[Name] extends TokenPaged ? Name : never }[V2RouteName] & `GET ${string}`;

/** A token-paged list: its target names its route, which an endpoint that walks it declares; its pages are the route's answers. */
export interface TokenList<Name extends TokenPagedName, T> {
  target: V2Target<'GET', Name>;
  /** The list's filters (status, type...): everything of the query but its paging. */
  query?: Query;
  itemsOf(page: V2Answer<Name>): readonly T[];
}

export interface V1PageOfTokens<T, P = unknown> {
  items: T[];
  /** The last v2 page read: what a list answers beside its items (a report's range and totals). */
  last: P;
  /**
   * v2's `total_records` where it gives it. Where it does not: exact when the walk reached the
   * list's end; otherwise the items counted so far plus the one more a next-page token promises
   * (v2 gives one only when more follow): a lower bound, the most v1gate can say without reading on.
   */
  total_records: number;
}

/**
 * v1's page `paging` of `list`: its items and the list's total. The caller's context must be over
 * the list's route (its endpoint declares it); the walk below calls only that route, which the
 * compiler cannot follow through a generic name (a client's route names are a conditional type of
 * its routes, which stays unresolved over a type parameter), so it is handed the context as one of
 * any route. The page's type still follows the list's route: the target names it.
 */
export async function v1PageOfTokens<Name extends TokenPagedName, T>(
  declared: TranslatorContext<ListRoute<NoInfer<Name>>>,
  list: TokenList<Name, T>,
  paging: Paging,
): Promise<V1PageOfTokens<T, V2Answer<Name>>> {
  const ctx = declared as TranslatorContext;
  const chain = `${list.target.path}?${new URLSearchParams(sortedQuery(list.query)).toString()}&page_size=${paging.page_size}`;
  const resumed = resumePoint(ctx, chain, paging);
  try {
    return await walk(ctx, list, chain, paging, resumed);
  } catch (error) {
    // A kept token v2 no longer takes (expired, or the list changed under it): start again from the first page.
    if (resumed.offset > 0 && error instanceof V2Error && error.status === 400) {
      return walk(ctx, list, chain, paging, { offset: 0, token: '' });
    }
    throw error;
  }
}

/** The route of a list named `Name` (each route of it, where the target is one of several routes). */
type ListRoute<Name extends string> = Name extends string ? V2Route<'GET', PathValue[], Name> : never;

interface Resume {
  offset: number;
  token: string;
}

/** The kept token nearest before v1's page, looked for no further back than a walk may go. */
function resumePoint(ctx: Pick<TranslatorContext, 'memo'>, chain: string, paging: Paging): Resume {
  const page = paging.page_number - 1;
  for (let k = page; k > 0 && k > page - MAX_WALK_PAGES; k--) {
    const token = ctx.memo.pageToken(chain, k * paging.page_size);
    if (token) return { offset: k * paging.page_size, token };
  }
  return { offset: 0, token: '' };
}

async function walk<Name extends TokenPagedName, T>(
  ctx: TranslatorContext,
  list: TokenList<Name, T>,
  chain: string,
  paging: Paging,
  from: Resume,
): Promise<V1PageOfTokens<T, V2Answer<Name>>> {
  const start = (paging.page_number - 1) * paging.page_size;
  const end = start + paging.page_size;
  let { offset, token } = from;
  let total: number | undefined;
  const items: T[] = [];
  let page: V2Answer<Name>;
  for (let read = 1; ; read++) {
    const query = { ...list.query, page_size: paging.page_size, ...(token ? { next_page_token: token } : {}) };
    page = await ctx.v2.get(list.target, query);
    const got = list.itemsOf(page);
    const paged: TokenPaged = page;
    total = paged.total_records ?? total;
    items.push(...got.slice(Math.max(0, start - offset), Math.max(0, end - offset)));
    offset += got.length;
    token = got.length > 0 ? (paged.next_page_token ?? '') : '';
    if (token) ctx.memo.keepPageToken(chain, offset, token);
    if (!token || offset >= end || (total !== undefined && start >= total)) break;
    if (read === 1) admitWalk(ctx, list, paging, { offset, total, stride: got.length });
    // The first page's size and total foretold the walk; pages that come shorter never stretch it past the bound.
    if (read >= MAX_WALK_PAGES) throw tooFar(paging, read + 1);
  }
  return { items, last: page, total_records: total ?? offset + (token ? 1 : 0) };
}

/** After the first page: refuse a walk longer than the bound, and check the rest as one fan-out. */
function admitWalk<Name extends TokenPagedName, T>(
  ctx: TranslatorContext,
  list: TokenList<Name, T>,
  paging: Paging,
  at: { offset: number; total: number | undefined; stride: number },
): void {
  const end = paging.page_number * paging.page_size;
  const more = Math.ceil((Math.min(end, at.total ?? end) - at.offset) / at.stride);
  if (1 + more > MAX_WALK_PAGES) throw tooFar(paging, 1 + more);
  if (more > 0) ctx.requireFanOut(list.target.route, more);
}

function tooFar(paging: Paging, pages: number) {
  return invalidParameter(
    'page_number',
    `Page ${paging.page_number} is ${pages} v2 pages into a list v2 pages only by token; v1gate follows at most ${MAX_WALK_PAGES} in one call: read the pages before it first, or a larger page_size.`,
  );
}

function sortedQuery(query: Query | undefined): [string, string][] {
  return Object.entries(query ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([name, value]): [string, string] => [name, String(value)])
    .sort(([a], [b]) => a.localeCompare(b));
}
