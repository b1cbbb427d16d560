import { describe, expect, it } from 'vitest';
import { everyPage, morePagesNeeded, tokenPagesUpTo } from './v2-paging.js';

/** A token-paged list of `total` numbers, `size` a page, as v2 answers it. */
function tokenList(total: number, size: number) {
  const reads: string[] = [];
  const page = async ({ next_page_token }: { next_page_token?: string }) => {
    const start = Number(next_page_token ?? 0);
    reads.push(next_page_token ?? '');
    const items = Array.from({ length: Math.max(0, Math.min(size, total - start)) }, (_, i) => start + i);
    return { total_records: total, next_page_token: start + size < total ? String(start + size) : '', items };
  };
  return { page, reads };
}

describe('token paging with a fan-out check', () => {
  it('asks before reading more pages, with the first page in hand, and not when one page is enough', async () => {
    const seen: number[] = [];
    const list = tokenList(700, 300);
    const { items } = await tokenPagesUpTo(
      list.page,
      (p) => p.items,
      650,
      (first) => seen.push(morePagesNeeded(first.total_records, 650, 300)),
    );
    expect(items).toHaveLength(700);
    expect(seen).toEqual([2]);
    expect(list.reads).toHaveLength(3);

    const short = tokenList(700, 300);
    await tokenPagesUpTo(
      short.page,
      (p) => p.items,
      30,
      () => seen.push(-1),
    );
    expect(seen).toEqual([2]);
    expect(short.reads).toHaveLength(1);
  });

  it('reads nothing more when the check throws', async () => {
    const list = tokenList(900, 300);
    await expect(
      tokenPagesUpTo(
        list.page,
        (p) => p.items,
        Infinity,
        () => {
          throw new Error('refused');
        },
      ),
    ).rejects.toThrow('refused');
    expect(list.reads).toHaveLength(1);
  });

  it('counts the pages still needed after the first', () => {
    expect(morePagesNeeded(0, 30, 300)).toBe(0);
    expect(morePagesNeeded(300, 600, 300)).toBe(0);
    expect(morePagesNeeded(301, 600, 300)).toBe(1);
    expect(morePagesNeeded(10_000, 3_000, 300)).toBe(9);
  });
});

describe('every page of a list, by its token chain', () => {
  it('reads each page once, in order, until no token follows', async () => {
    const list = tokenList(7, 2);
    const pages = await everyPage(list.page);
    expect(list.reads).toEqual(['', '2', '4', '6']);
    expect(pages.flatMap((page) => page.items)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
