import { v1 } from '../v1-params.js';

/**
 * v1 list paging: `page_size` (default 30, max 300) and `page_number` (default 1). Used by the
 * member lists, the sub account list and the recording list.
 */
export const v1PagingParams = {
  page_size: v1.int({ min: 1, max: 300 }).optional(),
  page_number: v1.int({ min: 1 }).optional(),
};

export const DEFAULT_PAGE_SIZE = 30;

export interface V1Paging {
  page_size?: number | undefined;
  page_number?: number | undefined;
}

/** The v1 paging of a request with v1's defaults filled in. */
export function pagingOf(params: V1Paging): { page_size: number; page_number: number } {
  return { page_size: params.page_size ?? DEFAULT_PAGE_SIZE, page_number: params.page_number ?? 1 };
}

/** The four paging fields of a v1 list answer, in v1's order. */
export function v1PageFields(page: { page_count: number; page_number: number; page_size: number; total_records: number }) {
  return {
    page_count: page.page_count,
    page_number: page.page_number,
    page_size: page.page_size,
    total_records: page.total_records,
  };
}
