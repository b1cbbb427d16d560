import { v1 } from './param-types.js';

/**
 * v1 list paging, for every v1 list that pages: the params (`page_size` 1 to 300, default 30;
 * `page_number` from 1, default 1) and the four paging fields of the answer.
 */

export const v1PagingParams = {
  page_size: v1.int({ min: 1, max: 300 }).optional(),
  page_number: v1.int({ min: 1 }).optional(),
};

const DEFAULT_PAGE_SIZE = 30;
const DEFAULT_PAGE_NUMBER = 1;

/** A type, not an interface, so that it passes as a v2 query as it is. */
export type Paging = { page_size: number; page_number: number };

/** The v1 paging of a request with v1's defaults filled in. */
export function pagingOf(params: { page_size?: number | undefined; page_number?: number | undefined }): Paging {
  return { page_size: params.page_size ?? DEFAULT_PAGE_SIZE, page_number: params.page_number ?? DEFAULT_PAGE_NUMBER };
}

/** The items of a whole list that fall on the requested page (lists v1gate pages itself). */
export const itemsOnPage = <T>(items: readonly T[], paging: Paging): T[] =>
  items.slice((paging.page_number - 1) * paging.page_size, paging.page_number * paging.page_size);

export type V1Page = Paging & { page_count: number; total_records: number };

/** The page of a list of `totalRecords` that v1gate pages itself. */
export const pageOf = (paging: Paging, totalRecords: number): V1Page => ({
  page_count: Math.ceil(totalRecords / paging.page_size),
  total_records: totalRecords,
  ...paging,
});

/**
 * Where v1 put `total_records` among the paging fields, per its reference examples: last in most
 * lists (members, sub accounts, recordings, registrants), second in the user, meeting and webinar
 * lists.
 */
export type V1PageOrder = 'total last' | 'total second';

/** The four paging fields of a v1 list answer, in v1's order. */
export function v1PageFields(page: V1Page, order: V1PageOrder = 'total last') {
  return order === 'total last'
    ? { page_count: page.page_count, page_number: page.page_number, page_size: page.page_size, total_records: page.total_records }
    : { page_count: page.page_count, total_records: page.total_records, page_number: page.page_number, page_size: page.page_size };
}
