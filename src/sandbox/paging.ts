import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { z } from 'zod';
import type { Clock } from './clock.js';
import { invalidField } from './errors.js';
import { queryInt, readQuery } from './validation.js';

export const pagingQuery = z.object({
  page_size: queryInt(1, 300).optional(),
  page_number: queryInt(1, Number.MAX_SAFE_INTEGER).optional(),
});

/**
 * Where today's service leaves a list's deprecated `page_count` and `page_number` out of its
 * answers: `kept` where it still sends them, `omitted` where public clients found them gone
 * (docs/live-evidence.md, "Token paging today").
 */
export type PageNumbers = 'kept' | 'omitted';

const numberedListQuery = z.object({ ...pagingQuery.shape, next_page_token: z.string().optional() });

/**
 * A list v2 pages by number that today pages by token too: `page_size` (default 30, max 300),
 * `page_number` (default 1; deprecated) and `next_page_token`, which wins when given. `scope`
 * names the list (endpoint and filters), so a token of another list is refused.
 */
export function paginate<T>(
  c: Context,
  pages: NextPageTokens,
  scope: string,
  items: readonly T[],
  numbers: PageNumbers = 'kept',
): TokenPage<T> {
  return pages.page(scope, items, readQuery(c, numberedListQuery), numbers);
}

/** Render a page (numbered or token) under the list's own key (`users`, `meetings`, `participants`, ...). */
export function pageBody(page: { items: readonly unknown[] }, key: string): Record<string, unknown> {
  const { items, ...paging } = page;
  return { ...paging, [key]: items };
}

/**
 * A token page of a list that answers no total (Team Chat's sessions and messages, /metrics/chat):
 * its size, the next page's token and its items under the list's key, and the range asked for when
 * one was given.
 */
export function tokenPageBody(
  page: TokenPage<unknown>,
  key: string,
  range: { from?: string | undefined; to?: string | undefined } = {},
): Record<string, unknown> {
  return {
    ...(range.from ? { from: range.from } : {}),
    ...(range.to ? { to: range.to } : {}),
    page_size: page.page_size,
    next_page_token: page.next_page_token,
    [key]: page.items,
  };
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
  /** Left out where today's service leaves it out, and in token-only paging. */
  page_count?: number;
  /** Only on lists that page both ways and still send it (`kept`), outside token-only paging. */
  page_number?: number;
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

/**
 * How the sandbox pages, set through the control API (PUT /sandbox/paging). By default as today's
 * service: `page_number` still taken where a list takes it. `tokenOnly` models a list whose
 * `page_number` is withdrawn, as public clients found some (docs/live-evidence.md): the
 * parameter is ignored (every first page is page 1) and no answer carries `page_count` or
 * `page_number`. `maxPageSize` caps `page_size` (a larger one is served at the cap, as the
 * service serves its maximum), so a small list spans many pages.
 */
export interface PagingMode {
  tokenOnly: boolean;
  maxPageSize: number;
}

/** The tokens one sandbox has handed out, and how it pages; each sandbox has its own. */
export class NextPageTokens {
  /** Insertion order is expiry order (one lifetime for all), which makes pruning cheap. */
  private readonly issued = new Map<string, IssuedToken>();
  readonly mode: PagingMode = { tokenOnly: false, maxPageSize: 300 };

  constructor(private readonly clock: Clock) {}

  /** `numbers`: whether the answer carries `page_count` and `page_number` (lists that take `page_number` only). */
  page<T>(scope: string, items: readonly T[], paging: TokenPaging, numbers?: PageNumbers): TokenPage<T> {
    const pageSize = Math.min(paging.page_size ?? 30, this.mode.maxPageSize);
    const pageNumber = this.mode.tokenOnly ? 1 : (paging.page_number ?? 1);
    const offset = paging.next_page_token ? this.redeem(scope, paging.next_page_token) : (pageNumber - 1) * pageSize;
    const end = offset + pageSize;
    const withNumbers = numbers === 'kept' && !this.mode.tokenOnly;
    return {
      ...(this.mode.tokenOnly || numbers === 'omitted' ? {} : { page_count: Math.ceil(items.length / pageSize) }),
      // A token's page has a number too: where its page starts, in pages of this size.
      ...(withNumbers ? { page_number: Math.floor(offset / pageSize) + 1 } : {}),
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
