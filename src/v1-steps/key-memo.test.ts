import { describe, expect, it } from 'vitest';
import { KeyMemo } from './key-memo.js';

/** The per-key memo on its own: what is kept, for whom, and what drops it. */
describe('KeyMemo', () => {
  const counter = () => {
    let reads = 0;
    return { read: async () => ++reads, reads: () => reads };
  };

  it('keeps a fact per pair until v2 refuses the pair', async () => {
    const memo = new KeyMemo({ auxTtlMs: 0 });
    const c = counter();
    expect(await memo.fact('pair', 'account-id', c.read)).toBe(1);
    expect(await memo.fact('pair', 'account-id', c.read)).toBe(1);
    expect(await memo.fact('other pair', 'account-id', c.read)).toBe(2);
    memo.refused('pair');
    expect(await memo.fact('pair', 'account-id', c.read)).toBe(3);
    expect(await memo.fact('other pair', 'account-id', c.read)).toBe(2);
  });

  it('a failed fact read is not kept', async () => {
    const memo = new KeyMemo({ auxTtlMs: 0 });
    await expect(memo.fact('pair', 'x', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await memo.fact('pair', 'x', async () => 'read again')).toBe('read again');
  });

  it('keeps an aux read for its TTL, per pair; off at 0', async () => {
    const memo = new KeyMemo({ auxTtlMs: 60_000 });
    const c = counter();
    expect(await memo.auxRead('key', 'pair', 'live', c.read)).toBe(1);
    expect(await memo.auxRead('key', 'pair', 'live', c.read)).toBe(1);
    expect(await memo.auxRead('key', 'wrong pair', 'live', c.read)).toBe(2);
    const off = new KeyMemo({ auxTtlMs: 0 });
    expect(await off.auxRead('key', 'pair', 'live', c.read)).toBe(3);
    expect(await off.auxRead('key', 'pair', 'live', c.read)).toBe(4);
  });

  it('a write of the key drops its aux reads, and a read that overlapped a write is not kept', async () => {
    const memo = new KeyMemo({ auxTtlMs: 60_000 });
    const c = counter();
    await memo.auxRead('key', 'pair', 'live', c.read);
    memo.wrote('key');
    expect(await memo.auxRead('key', 'pair', 'live', c.read)).toBe(2);
    memo.wrote('key');
    // The read began before the write ended: what it saw may be the old state.
    expect(await memo.auxRead('key', 'pair', 'live', async () => (memo.wrote('key'), c.read()))).toBe(3);
    expect(await memo.auxRead('key', 'pair', 'live', c.read)).toBe(4);
    expect(await memo.auxRead('key', 'pair', 'live', c.read)).toBe(4);
    // Another key's write changes nothing here.
    memo.wrote('other key');
    expect(await memo.auxRead('key', 'pair', 'live', c.read)).toBe(4);
  });

  it('keeps page tokens per pair, bounded in entries and bytes however many a client makes, and briefly', async () => {
    const memo = new KeyMemo({ auxTtlMs: 0, pageTokens: { maxEntries: 50, maxBytes: 4_000, ttlMs: 40 } });
    memo.keepPageToken('pair-a', '/users?status=active&page_size=2', 2, 'token-a');
    expect(memo.pageToken('pair-a', '/users?status=active&page_size=2', 2)).toBe('token-a');
    // Another pair, another list or another offset never gets it.
    expect(memo.pageToken('pair-b', '/users?status=active&page_size=2', 2)).toBeUndefined();
    expect(memo.pageToken('pair-a', '/users?status=pending&page_size=2', 2)).toBeUndefined();
    expect(memo.pageToken('pair-a', '/users?status=active&page_size=2', 4)).toBeUndefined();

    // A client that pages through endless lists (or sends endless filters) only pushes older tokens out.
    for (let i = 0; i < 10_000; i++) memo.keepPageToken('pair-h', `/h323/devices?n=${i}&page_size=1`, i, 'x'.repeat(i % 97));
    const { entries, bytes } = memo.pageTokenStats();
    expect(entries).toBeLessThanOrEqual(50);
    expect(bytes).toBeLessThanOrEqual(4_000);
    // A token larger than the whole budget is not kept at all.
    memo.keepPageToken('pair-h', '/h323/devices?page_size=1', 1, 'y'.repeat(5_000));
    expect(memo.pageToken('pair-h', '/h323/devices?page_size=1', 1)).toBeUndefined();

    memo.keepPageToken('pair-a', '/accounts?page_size=2', 2, 'brief');
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(memo.pageToken('pair-a', '/accounts?page_size=2', 2)).toBeUndefined();
  });
});
