import { describe, expect, it, vi } from 'vitest';
import { V2 } from '../v2-contract/v2-routes.js';
import type { Credentials } from './client.js';
import { UpstreamUnavailable, V2Error } from './errors.js';
import { PairProver, ProofsExhausted, pairProofOf, type ProofBudget } from './pair-proof.js';

const owner: Credentials = { apiKey: 'key', apiSecret: 'right' };
const ME = V2.users.get.at('me');
const wrong = (n: number): Credentials => ({ apiKey: 'key', apiSecret: `wrong-${n}` });

/** A v2 stand-in: accepts the secret `right`, answers 401 to any other; each answer waits for `release`. */
function v2() {
  const sent: { secret: string; asProof: boolean }[] = [];
  let release: () => void = () => {};
  let gate = new Promise<void>((resolve) => (release = resolve));
  return {
    sent,
    open: () => release(),
    reset: () => (gate = new Promise<void>((resolve) => (release = resolve))),
    send: (credentials: Credentials) => async (asProof: boolean) => {
      sent.push({ secret: credentials.apiSecret, asProof });
      await gate;
      if (credentials.apiSecret !== 'right') throw new V2Error(401, 124, 'Invalid access token.');
      return 'answer';
    },
  };
}

/** A budget of `n` proofs, then none; counts what it was asked. */
function budgetOf(n: number): ProofBudget & { asked: string[] } {
  const asked: string[] = [];
  return { asked, take: (apiKey) => (asked.push(apiKey), { allowed: asked.length <= n, retryAfterMs: 250 }) };
}

describe('PairProver', () => {
  it('proves a pair by its first call, sent as a proof under the budget, and charges it to the key once accepted', async () => {
    const charged: string[] = [];
    const budget = budgetOf(10);
    const prover = new PairProver({
      budget,
      charge: ({ apiKey }, target) => charged.push(`${apiKey} ${target.route.name} ${target.path}`),
    });
    const upstream = v2();
    upstream.open();
    expect(prover.isProven(owner)).toBe(false);
    expect(await prover.prove(owner, ME, upstream.send(owner))).toBe('answer');
    expect(upstream.sent).toEqual([{ secret: 'right', asProof: true }]);
    expect(prover.isProven(owner)).toBe(true);
    expect(budget.asked).toEqual(['key']);
    await Promise.resolve();
    expect(charged).toEqual(['key GET /users/{userId} /users/me']);
  });

  it('never proves or charges a pair v2 refused', async () => {
    const charged: string[] = [];
    const prover = new PairProver({ charge: ({ apiKey }) => charged.push(apiKey) });
    const upstream = v2();
    upstream.open();
    await expect(prover.prove(wrong(1), ME, upstream.send(wrong(1)))).rejects.toBeInstanceOf(V2Error);
    expect(prover.isProven(wrong(1))).toBe(false);
    expect(charged).toEqual([]);
  });

  it('shares a proof in flight: the pair’s other calls wait for it, then go as the owner’s', async () => {
    const budget = budgetOf(10);
    const prover = new PairProver({ budget });
    const upstream = v2();
    const calls = [1, 2, 3].map(() => prover.prove({ ...owner }, ME, upstream.send(owner)));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(upstream.sent).toEqual([{ secret: 'right', asProof: true }]);
    upstream.open();
    expect(await Promise.all(calls)).toEqual(['answer', 'answer', 'answer']);
    expect(upstream.sent).toEqual([
      { secret: 'right', asProof: true },
      { secret: 'right', asProof: false },
      { secret: 'right', asProof: false },
    ]);
    expect(budget.asked).toHaveLength(1);
  });

  it('answers the waiters of a refused proof with its 401, sending nothing more', async () => {
    const prover = new PairProver();
    const upstream = v2();
    const calls = [1, 2].map(() => prover.prove(wrong(7), V2.users.delete.at('u'), upstream.send(wrong(7))));
    upstream.open();
    const outcomes = await Promise.allSettled(calls);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(upstream.sent).toHaveLength(1);
  });

  it('refuses a proof past the budget without sending it', async () => {
    const prover = new PairProver({ budget: budgetOf(1) });
    const upstream = v2();
    upstream.open();
    await expect(prover.prove(wrong(1), ME, upstream.send(wrong(1)))).rejects.toBeInstanceOf(V2Error);
    const refused: unknown = await prover.prove(wrong(2), ME, upstream.send(wrong(2))).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProofsExhausted);
    expect((refused as ProofsExhausted).retryAfterMs).toBe(250);
    expect(upstream.sent).toHaveLength(1);
  });

  it('lets the next call prove the pair again when a proof got no answer', async () => {
    const prover = new PairProver();
    let fail = true;
    const send = async () => {
      if (fail) throw new UpstreamUnavailable('unreachable', 'The v2 service could not be reached.', false);
      return 'answer';
    };
    await expect(prover.prove(owner, ME, send)).rejects.toBeInstanceOf(UpstreamUnavailable);
    expect(prover.isProven(owner)).toBe(false);
    fail = false;
    expect(await prover.prove(owner, ME, send)).toBe('answer');
    expect(prover.isProven(owner)).toBe(true);
  });

  it('forgets a proven pair at its first 401', async () => {
    const prover = new PairProver();
    await prover.prove(owner, ME, async () => 'answer');
    prover.refused({ ...owner });
    expect(prover.isProven(owner)).toBe(false);
  });

  it('keeps a pair proven while it is used, and lets a signature-only use expire', async () => {
    const clock = { now: 1_000 };
    const prover = new PairProver({ provenTtlMs: 1_000, now: () => clock.now });
    await prover.prove(owner, ME, async () => 'answer');
    clock.now += 800;
    expect(prover.isProven(owner)).toBe(true);
    clock.now += 800;
    expect(prover.wasProvenLately(owner)).toBe(true);
    clock.now += 1_100;
    expect(prover.wasProvenLately(owner)).toBe(false);
  });

  it('keys pairs by a hash of key and secret, never the secret', () => {
    expect(pairProofOf({ apiKey: 'key', apiSecret: 'right' })).not.toContain('right');
    expect(pairProofOf({ apiKey: 'key', apiSecret: 'right' })).not.toBe(pairProofOf({ apiKey: 'key', apiSecret: 'wrong' }));
  });

  it("reads its clock for a pair's age at most once a second while called every millisecond, not a timer a call", async () => {
    const prover = new PairProver();
    const upstream = v2();
    upstream.open();
    await prover.prove(owner, ME, upstream.send(owner));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      const started = performance.now();
      while (performance.now() - started < 40) {
        expect(prover.isProven(owner)).toBe(true);
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      // lru-cache's default resolution (1 ms) set one at each of the 40 milliseconds.
      expect(timers.mock.calls.length).toBeLessThanOrEqual(1);
    } finally {
      timers.mockRestore();
    }
  });
});
