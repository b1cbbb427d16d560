import { z } from 'zod';

/**
 * Reading v2 lists whole (or up to a point) when one v1 answer needs more than one v2 page. v2
 * pages some lists by number (`page_count`) and others by token (`next_page_token`).
 */

/** v2's largest page: the fewest calls when a v1 answer needs a whole list. */
export const V2_MAX_PAGE_SIZE = 300;

/**
 * Every page of a list, one after another by its token chain: today's v2 answers a
 * `next_page_token` on every list, deprecates `page_number`, and some lists ignore it (reading
 * pages 2..n by number in parallel got page 1 n times). `page` gets the token query of the next
 * page (none for the first).
 */
export async function everyPage<P extends { next_page_token?: string | undefined }>(
  page: (token: { next_page_token?: string }) => Promise<P>,
): Promise<P[]> {
  const pages: P[] = [];
  await tokenPagesUpTo(page, (read) => (pages.push(read), []));
  return pages;
}

/**
 * The pages of a list v2 pages by token, read one after another until the list ends or `enough`
 * items are in hand (v1 pages by number: v1's page n needs the v2 items before it). `page` gets
 * the token query of the next page (none for the first). Answers the items and the last page read.
 * `beforeMore` is told of the first page when more must be read (the place for a fan-out check).
 */
export async function tokenPagesUpTo<P extends { next_page_token?: string | undefined }, T>(
  page: (token: { next_page_token?: string }) => Promise<P>,
  itemsOf: (page: P) => readonly T[],
  enough = Infinity,
  beforeMore?: (first: P) => void,
): Promise<{ items: T[]; last: P }> {
  const items: T[] = [];
  let token = '';
  let last: P;
  let first = true;
  do {
    last = await page(token ? { next_page_token: token } : {});
    items.push(...itemsOf(last));
    token = last.next_page_token ?? '';
    if (first && token && items.length < enough) beforeMore?.(last);
    first = false;
  } while (token && items.length < enough);
  return { items, last };
}

/**
 * How many more token pages of `pageSize` a reader needs after the first page of a list of
 * `totalRecords`, to hold `enough` items: the fan-out to check before reading on.
 */
export function morePagesNeeded(totalRecords: number, enough: number, pageSize: number): number {
  return Math.max(0, Math.ceil(Math.min(totalRecords, enough) / pageSize) - 1);
}

/**
 * The paging fields of a v2 list v2 paged by number. `page_count` and `page_number` are deprecated
 * and left out of several lists today (docs/live-evidence.md, "Retired routes and token paging"):
 * no reader needs them (v1's page_count is counted from total_records), and their absence is no bad answer. Today these
 * lists page by `next_page_token` too, which the readers follow (token-walk.ts, `everyPage`).
 */
export const V2_NUMBERED_PAGE = {
  page_count: z.number().optional(),
  page_number: z.number().optional(),
  page_size: z.number(),
  total_records: z.number(),
  next_page_token: z.string().optional(),
};

/**
 * The fields of a v2 list v2 pages by token that the readers use: the total, and the token of the
 * next page, which v2 leaves out when there is none ("returned whenever results exceed the page size").
 */
export const V2_TOKEN_PAGE = {
  total_records: z.number(),
  next_page_token: z.string().optional(),
};
