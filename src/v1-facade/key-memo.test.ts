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
});
