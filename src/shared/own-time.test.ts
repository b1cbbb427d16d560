import { afterEach, describe, expect, it, vi } from 'vitest';
import { OwnTime } from './own-time.js';

/** The clock read through a fake performance.now(), so each step's length is exact. */
function clockAt(start: number) {
  let now = start;
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  const clock = new OwnTime();
  return { clock, advance: (ms: number) => (now += ms), at: () => now };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a call’s own time', () => {
  it('is its time less its waits, overlapping waits counted once', () => {
    const { clock, advance } = clockAt(1_000);
    advance(2); // reading the request
    clock.wait(); // a first read sent
    advance(10);
    clock.wait(); // a second, in parallel
    advance(5);
    clock.resume();
    advance(3);
    clock.resume(); // both answered: 18 ms waited
    advance(1); // shaping the answer
    expect(clock.ownSeconds()).toBeCloseTo(0.003, 9);
  });

  it('counts an open wait as waited up to now', () => {
    const { clock, advance } = clockAt(0);
    advance(4);
    clock.wait();
    advance(100);
    expect(clock.ownSeconds()).toBeCloseTo(0.004, 9);
  });

  it('waits for a promise until it settles, fulfilled or rejected', async () => {
    const { clock, advance } = clockAt(0);
    advance(1);
    let fail!: (error: Error) => void;
    const pending = clock.waitFor(new Promise<never>((_, reject) => (fail = reject)));
    advance(50);
    fail(new Error('v2 went away'));
    await expect(pending).rejects.toThrow('v2 went away');
    advance(2);
    expect(clock.ownSeconds()).toBeCloseTo(0.003, 9);
  });
});
