import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { z } from 'zod';
import type { Clock } from './clock.js';
import { invalidField } from './errors.js';
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

/** Render a page (numbered or token) under the list's own key (`users`, `meetings`, `participants`, ...). */
export function pageBody(page: { items: readonly unknown[] }, key: string): Record<string, unknown> {
  const { items, ...paging } = page;
  return { ...paging, [key]: items };
}

/**
 * Token paging, the way the report-style v2 lists (and the registrant lists) page: `page_size`
 * (default 30, max 300) and an opaque `next_page_token`, answered whenever results exceed the
 * page, that continues where the last page stopped and expires after 15 minutes. A token belongs
 * to one list (its scope: the endpoint and its filters); replaying it on another list, or after
 * it expired, is a 400 on `next_page_token`. Lists that also take `page_number` start there when
 * no token is given.
 */

export const NEXT_PAGE_TOKEN_LIFETIME_MS = 15 * 60_000;

/** Merge into an endpoint's query schema, so one 400 names every invalid parameter. */
export const tokenPagingQuery = {
  page_size: pagingQuery.shape.page_size,
  next_page_token: z.string().optional(),
};

export interface TokenPaging {
  page_size?: number | undefined;
  next_page_token?: string | undefined;
  /** Only for lists that page both ways; a token, when given, wins. */
  page_number?: number | undefined;
}

export interface TokenPage<T> {
  page_count: number;
  page_size: number;
  total_records: number;
  /** Empty on the last page. */
  next_page_token: string;
  items: T[];
}

interface IssuedToken {
  scope: string;
  offset: number;
  expiresAtMs: number;
}

/** The tokens one sandbox has handed out; each sandbox has its own. */
export class NextPageTokens {
  /** Insertion order is expiry order (one lifetime for all), which makes pruning cheap. */
  private readonly issued = new Map<string, IssuedToken>();

  constructor(private readonly clock: Clock) {}

  page<T>(scope: string, items: readonly T[], paging: TokenPaging): TokenPage<T> {
    const pageSize = paging.page_size ?? 30;
    const offset = paging.next_page_token ? this.redeem(scope, paging.next_page_token) : ((paging.page_number ?? 1) - 1) * pageSize;
    const end = offset + pageSize;
    return {
      page_count: Math.ceil(items.length / pageSize),
      page_size: pageSize,
      total_records: items.length,
      next_page_token: end < items.length ? this.issue(scope, end) : '',
      items: items.slice(offset, end),
    };
  }

  private redeem(scope: string, token: string): number {
    const entry = this.issued.get(token);
    if (!entry || entry.scope !== scope || entry.expiresAtMs <= this.clock.now().getTime()) {
      throw invalidField('next_page_token', 'The next page token is invalid or has expired.');
    }
    return entry.offset;
  }

  private issue(scope: string, offset: number): string {
    const nowMs = this.clock.now().getTime();
    for (const [token, entry] of this.issued) {
      if (entry.expiresAtMs > nowMs) break;
      this.issued.delete(token);
    }
    const token = randomBytes(24).toString('base64url');
    this.issued.set(token, { scope, offset, expiresAtMs: nowMs + NEXT_PAGE_TOKEN_LIFETIME_MS });
    return token;
  }
}
