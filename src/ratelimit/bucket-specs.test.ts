import { describe, expect, it } from 'vitest';
import { ArrivalSpread } from './arrival-spread.js';
import { DEFAULT_MIN_JITTER_MS, DEFAULT_SAFETY_MARGIN, bucketSpecOf, withSafetyMargin } from './bucket-specs.js';
import { takeToken, type BucketSpec, type BucketState } from '../shared/token-bucket.js';

describe('bucketSpecOf', () => {
  it('turns n per window into a bucket that refills n per window and holds n', () => {
    expect(bucketSpecOf({ count: 10, per: 'second' })).toEqual({ ratePerSecond: 10, burst: 10 });
    expect(bucketSpecOf({ count: 1, per: 'minute' })).toEqual({ ratePerSecond: 1 / 60, burst: 1 });
    expect(bucketSpecOf({ count: 2000, per: 'day' })).toEqual({ ratePerSecond: 2000 / 86_400, burst: 2000 });
  });

  it('scales rate and burst, never below a burst of one', () => {
    expect(bucketSpecOf({ count: 10, per: 'second' }, 5)).toEqual({ ratePerSecond: 50, burst: 50 });
    expect(bucketSpecOf({ count: 1, per: 'second' }, 0.5)).toEqual({ ratePerSecond: 0.5, burst: 1 });
  });
});

describe('withSafetyMargin', () => {
  it('by default sends 1% under the rate and absorbs at most 300 ms of jitter', () => {
    expect(withSafetyMargin({ ratePerSecond: 10, burst: 10 }, DEFAULT_SAFETY_MARGIN)).toEqual({ ratePerSecond: 9.9, burst: 7 });
    expect(withSafetyMargin({ ratePerSecond: 50, burst: 50 }, DEFAULT_SAFETY_MARGIN)).toEqual({ ratePerSecond: 49.5, burst: 35 });
    // A burst of 1 cannot be held back: the spacing grows by the jitter instead (1.3 s).
    expect(withSafetyMargin({ ratePerSecond: 1, burst: 1 }, DEFAULT_SAFETY_MARGIN)).toEqual({ ratePerSecond: 1 / 1.3, burst: 1 });
    // A burst of 2 at 2/s keeps one token back: 1 token / 1.98 per s covers 300 ms.
    expect(withSafetyMargin({ ratePerSecond: 2, burst: 2 }, DEFAULT_SAFETY_MARGIN)).toEqual({ ratePerSecond: 1.98, burst: 1 });
  });

  it('with the least jitter (10 ms) keeps 95% of the quota and more on every class', () => {
    const margin = { rateFactor: DEFAULT_SAFETY_MARGIN.rateFactor, jitterMs: DEFAULT_MIN_JITTER_MS };
    expect(withSafetyMargin({ ratePerSecond: 10, burst: 10 }, margin)).toEqual({ ratePerSecond: 9.9, burst: 9 });
    expect(withSafetyMargin({ ratePerSecond: 1, burst: 1 }, margin)).toEqual({ ratePerSecond: 0.99, burst: 1 });
    // 50 ms of measured spread still leaves a 1/s class at 1 / 1.05 ≈ 0.952/s.
    expect(withSafetyMargin({ ratePerSecond: 1, burst: 1 }, { rateFactor: 0.99, jitterMs: 50 }).ratePerSecond).toBeGreaterThanOrEqual(0.95);
  });

  it('with 100 ms of jitter keeps back fewer tokens', () => {
    const margin = { rateFactor: 0.9, jitterMs: 100 };
    expect(withSafetyMargin({ ratePerSecond: 10, burst: 10 }, margin)).toEqual({ ratePerSecond: 9, burst: 9 });
    expect(withSafetyMargin({ ratePerSecond: 50, burst: 50 }, margin)).toEqual({ ratePerSecond: 45, burst: 45 });
    expect(withSafetyMargin({ ratePerSecond: 1, burst: 1 }, margin)).toEqual({ ratePerSecond: 0.9, burst: 1 });
  });

  /**
   * Simulated time: a greedy client takes every token our bucket gives (with idle spells, so
   * bursts happen), each request arrives upstream after a random delay up to `jitterMs`, and the
   * upstream's own token bucket judges the arrivals. The margin must leave it nothing to refuse.
   */
  function upstreamRefusals(
    upstream: BucketSpec[],
    margin: { rateFactor: number; jitterMs: number },
    jitterMs: number,
    requests: number,
    seed: number,
  ): number {
    let s = seed;
    const random = () => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const ours = upstream.map((spec) => withSafetyMargin(spec, margin));
    const ourStates: (BucketState | undefined)[] = ours.map(() => undefined);
    const arrivals: number[] = [];
    let t = 1_000;
    while (arrivals.length < requests) {
      if (random() < 0.03) t += random() * 3_000;
      const results = ours.map((spec, i) => takeToken(ourStates[i], spec, t));
      if (results.every((r) => r.allowed)) {
        results.forEach((r, i) => (ourStates[i] = r.state));
        arrivals.push(t + random() * jitterMs);
      } else {
        t += Math.max(...results.map((r) => r.retryAfterMs));
      }
    }
    return refusedByUpstream(upstream, arrivals);
  }

  const cases: [string, BucketSpec[]][] = [
    ['10/s', [{ ratePerSecond: 10, burst: 10 }]],
    ['1/s', [{ ratePerSecond: 1, burst: 1 }]],
    ['2/s', [{ ratePerSecond: 2, burst: 2 }]],
    ['5/s', [{ ratePerSecond: 5, burst: 5 }]],
    ['50/s (tests)', [{ ratePerSecond: 50, burst: 50 }]],
    [
      '1/s + 2000/day',
      [
        { ratePerSecond: 1, burst: 1 },
        { ratePerSecond: 2000 / 86_400, burst: 2000 },
      ],
    ],
  ];

  it.each(cases)('never overruns an upstream %s with arrival jitter up to the allowance', (_, upstream) => {
    for (const seed of [1, 2, 3]) {
      expect(upstreamRefusals(upstream, DEFAULT_SAFETY_MARGIN, 300, 1_500, seed)).toBe(0);
      expect(upstreamRefusals(upstream, { rateFactor: 0.9, jitterMs: 100 }, 100, 1_500, seed)).toBe(0);
      expect(upstreamRefusals(upstream, { rateFactor: 0.95, jitterMs: 1_000 }, 1_000, 1_000, seed)).toBe(0);
      // At the upstream's own rate, the jitter allowance alone keeps it whole.
      expect(upstreamRefusals(upstream, { rateFactor: 1, jitterMs: 10 }, 10, 1_500, seed)).toBe(0);
      expect(upstreamRefusals(upstream, { rateFactor: 0.99, jitterMs: 50 }, 50, 1_500, seed)).toBe(0);
    }
  });

  it('is what makes the difference: without it the same jitter overruns the upstream', () => {
    const none = { rateFactor: 1, jitterMs: 0 };
    expect(upstreamRefusals([{ ratePerSecond: 10, burst: 10 }], none, 0, 1_500, 1)).toBe(0);
    expect(upstreamRefusals([{ ratePerSecond: 10, burst: 10 }], none, 100, 1_500, 1)).toBeGreaterThan(0);
    expect(upstreamRefusals([{ ratePerSecond: 1, burst: 1 }], none, 100, 1_500, 1)).toBeGreaterThan(0);
  });

  /**
   * The measured rule, replayed the same way: each call has a send→answer spread, arrives upstream
   * at a random point within it, and its answer feeds the ArrivalSpread that sets the margin of
   * the calls taken after it (simulated clock). `spreadAt(t)` is the largest spread of calls sent at t.
   */
  function measuredRefusals(upstream: BucketSpec[], spreadAt: (t: number) => number, requests: number, seed: number) {
    let s = seed;
    const random = () => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    let t = 1_000;
    const spread = new ArrivalSpread({ ceilingMs: DEFAULT_SAFETY_MARGIN.jitterMs, floorMs: DEFAULT_MIN_JITTER_MS, now: () => t });
    const answers: { at: number; answered: () => void }[] = [];
    const answerUpTo = (now: number) => {
      answers.sort((a, b) => a.at - b.at);
      while (answers.length > 0 && answers[0]!.at <= now) {
        const next = answers.shift()!;
        const clock = t;
        t = next.at;
        next.answered();
        t = clock;
      }
    };
    const ourStates: (BucketState | undefined)[] = upstream.map(() => undefined);
    const arrivals: number[] = [];
    const jitters: number[] = [];
    while (arrivals.length < requests) {
      if (random() < 0.03) t += random() * 3_000;
      answerUpTo(t);
      const jitterMs = spread.currentMs();
      jitters.push(jitterMs);
      const ours = upstream.map((spec) => withSafetyMargin(spec, { rateFactor: DEFAULT_SAFETY_MARGIN.rateFactor, jitterMs }));
      const results = ours.map((spec, i) => takeToken(ourStates[i], spec, t));
      if (results.every((r) => r.allowed)) {
        results.forEach((r, i) => (ourStates[i] = r.state));
        const callSpread = random() * spreadAt(t);
        arrivals.push(t + random() * callSpread);
        answers.push({ at: t + callSpread, answered: spread.sent() });
      } else {
        t += Math.max(...results.map((r) => r.retryAfterMs));
      }
    }
    return { refused: refusedByUpstream(upstream, arrivals), jitters };
  }

  describe('with the jitter measured from the calls (arrival-spread.ts)', () => {
    it.each(cases)('never overruns an upstream %s, and absorbs far less than 300 ms once answers come', (_, upstream) => {
      for (const seed of [1, 2, 3]) {
        for (const largest of [2, 20, 60]) {
          const { refused, jitters } = measuredRefusals(upstream, () => largest, 1_500, seed);
          expect(refused).toBe(0);
          expect(jitters[0]).toBe(300); // no answer yet: the whole allowance
          expect(jitters.filter((j) => j <= Math.max(largest, DEFAULT_MIN_JITTER_MS) + 5).length).toBeGreaterThan(jitters.length / 2);
        }
      }
    });

    it.each(cases)('never overruns an upstream %s when the spread changes by phases (a slow spell among quick ones)', (_, upstream) => {
      for (const seed of [1, 2, 3]) {
        // 20 s phases: quick answers (≤ 5 ms), then slow ones (≤ 150 ms), and so on.
        const { refused } = measuredRefusals(upstream, (t) => (Math.floor(t / 20_000) % 2 === 0 ? 5 : 150), 1_500, seed);
        expect(refused).toBe(0);
      }
    });
  });
});

/** How many of these arrivals the upstream's own buckets refuse, taken in time order. */
function refusedByUpstream(upstream: readonly BucketSpec[], arrivals: number[]): number {
  arrivals.sort((a, b) => a - b);
  const states: (BucketState | undefined)[] = upstream.map(() => undefined);
  let refused = 0;
  for (const at of arrivals) {
    const results = upstream.map((spec, i) => takeToken(states[i], spec, at));
    if (results.every((r) => r.allowed)) results.forEach((r, i) => (states[i] = r.state));
    else refused++;
  }
  return refused;
}
