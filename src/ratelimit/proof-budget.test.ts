import { describe, expect, it } from 'vitest';
import { MemoryBucketStore } from './memory-store.js';
import { OutboundLimiter, type V2Budget } from './outbound-limiter.js';
import { ProofLimiter, chargeAccepted } from './proof-budget.js';

describe('ProofLimiter', () => {
  const clock = { now: 1_000 };
  const limits = { perKey: { ratePerSecond: 2, burst: 2 }, total: { ratePerSecond: 3, burst: 3 } };

  it('admits proofs per key and across keys, both or neither', async () => {
    const proofs = new ProofLimiter(new MemoryBucketStore({ now: () => clock.now }), limits);
    const take = async (key: string) => (await proofs.take(key)).allowed;
    expect([await take('a'), await take('a'), await take('a')]).toEqual([true, true, false]);
    // The refused third took nothing from the total: one is left for another key.
    expect([await take('b'), await take('c')]).toEqual([true, false]);
    const refused = await proofs.take('c');
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    clock.now += 500;
    expect(await take('c')).toBe(true);
  });
});

describe('a proof and its charge at the outbound limiter', () => {
  /** v2's general class exactly (10/s, burst 10), no margin, on a clock the test moves. */
  /** A Pro account's Heavy category: 10 a second, like the old per-key general class these tests were written for. */
  const KEY: V2Budget = { account: 'key', plan: 'pro' };

  function limiter() {
    const clock = { now: 1_000 };
    const store = new MemoryBucketStore({ now: () => clock.now });
    const outbound = new OutboundLimiter({ store, margin: { rateFactor: 1, jitterMs: 0 }, now: () => clock.now });
    const takeAll = async () => {
      let taken = 0;
      while ((await outbound.schedule(KEY, 'heavy', () => true, { maxWaitMs: 0 }).catch(() => false)) === true) taken++;
      return taken;
    };
    return { clock, outbound, takeAll };
  }

  it('an unmetered call runs without a token, taking none', async () => {
    const { outbound, takeAll } = limiter();
    expect(await outbound.schedule(KEY, 'heavy', () => 'sent', { unmetered: true })).toBe('sent');
    expect(await takeAll()).toBe(10);
    // Even with the key's bucket empty.
    expect(await outbound.schedule(KEY, 'heavy', () => 'sent', { unmetered: true, maxWaitMs: 0 })).toBe('sent');
  });

  it('an accepted proof is charged to its key: one token fewer for the key', async () => {
    const { outbound, takeAll } = limiter();
    chargeAccepted(outbound, KEY, 'heavy');
    await Promise.resolve();
    expect(await takeAll()).toBe(9);
  });
});
