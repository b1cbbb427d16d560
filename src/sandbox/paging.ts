import type { Context } from 'hono';
import { z } from 'zod';
import { queryInt, readQuery } from './validation.js';

/** The paging fields every v2 list answer carries. */
export interface Page<T> {
  page_count: number;
  page_number: number;
  page_size: number;
  total_records: number;
  items: T[];
}

export const pagingQuery = z.object({
  page_size: queryInt(1, 300).optional(),
  page_number: queryInt(1, Number.MAX_SAFE_INTEGER).optional(),
});

/** Slice `items` by the request's `page_size` (default 30, max 300) and `page_number` (default 1). */
export function paginate<T>(c: Context, items: readonly T[]): Page<T> {
  const { page_size = 30, page_number = 1 } = readQuery(c, pagingQuery);
  return pageOf(items, page_size, page_number);
}

export function pageOf<T>(items: readonly T[], pageSize: number, pageNumber: number): Page<T> {
  const start = (pageNumber - 1) * pageSize;
  return {
    page_count: Math.ceil(items.length / pageSize),
    page_number: pageNumber,
    page_size: pageSize,
    total_records: items.length,
    items: items.slice(start, start + pageSize),
  };
}

/** Render a page under the list's own key (`users`, `meetings`, ...). */
export function pageBody<T>(page: Page<T>, key: string): Record<string, unknown> {
  const { items, ...paging } = page;
  return { ...paging, [key]: items };
}
