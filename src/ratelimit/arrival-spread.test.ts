import { describe, expect, it } from 'vitest';
import { ArrivalSpread } from './arrival-spread.js';

/** A spread estimator on a clock the test moves. */
function estimator(options: { minSamples?: number } = {}) {
  let t = 100_000;
  const spread = new ArrivalSpread({ ceilingMs: 300, floorMs: 10, now: () => t, ...options });
  /** One call answered `ms` after it was sent, at the current time. */
  const call = (ms: number) => {
    const answered = spread.sent();
    t += ms;
    answered();
  };
  return { spread, call, advance: (ms: number) => (t += ms) };
}

describe('ArrivalSpread', () => {
  it('absorbs the whole allowance until enough answers came, then the largest spread, in 5 ms steps, never under the floor', () => {
    const { spread, call } = estimator();
    expect(spread.currentMs()).toBe(300);
    for (const ms of [2, 3, 1, 2]) call(ms);
    expect(spread.currentMs()).toBe(300);
    call(3);
    expect(spread.currentMs()).toBe(10);
    call(37);
    expect(spread.currentMs()).toBe(40);
    call(900);
    expect(spread.currentMs()).toBe(300); // never above the allowance
  });

  it('counts a call still in flight with its age', () => {
    const { spread, call, advance } = estimator();
    for (let i = 0; i < 5; i++) call(2);
    const answered = spread.sent();
    advance(62);
    expect(spread.currentMs()).toBe(65);
    answered();
    expect(spread.currentMs()).toBe(65); // its spread is now an answer of the window
  });

  it('forgets answers older than the window: after a quiet spell the whole allowance is back', () => {
    const { spread, call, advance } = estimator();
    call(120);
    for (let i = 0; i < 5; i++) call(2);
    expect(spread.currentMs()).toBe(120);
    advance(6_000);
    for (let i = 0; i < 5; i++) call(2);
    advance(5_000);
    // The 120 ms answer is more than 10 s old; the five quick ones are still in the window.
    expect(spread.currentMs()).toBe(10);
    advance(10_000);
    expect(spread.currentMs()).toBe(300);
  });

  it('goes back to the whole allowance for a minute after an upstream 429', () => {
    const { spread, call, advance } = estimator({ minSamples: 1 });
    for (let i = 0; i < 5; i++) call(2);
    spread.upstreamRefused();
    expect(spread.currentMs()).toBe(300);
    advance(59_000);
    call(2);
    expect(spread.currentMs()).toBe(300);
    advance(1_000);
    call(2);
    expect(spread.currentMs()).toBe(10);
  });
});
