import { describe, expect, it } from 'vitest';
import { MemoryBucketStore } from './memory-store.js';
import { ProofLimiter } from './proof-budget.js';

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
