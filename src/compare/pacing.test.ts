import { describe, expect, it } from 'vitest';
import { ReplayPacer } from './pacing.js';

/** A pacer on a clock that moves only when it sleeps: the waits it asks for are the pace. */
function pacedClock(options: { rate?: number; maxWaitMs?: number } = {}) {
  let now = 0;
  const sleeps: number[] = [];
  const pacer = new ReplayPacer({
    ...options,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  });
  return { pacer, sleeps, now: () => now };
}

describe('the replay pace', () => {
  it("admits a list call per target and key at v1's 1/s less the gateway's margin, and other reads in a burst", async () => {
    const { pacer, now } = pacedClock();
    // The general class (10/s) holds a burst: 10 less the 3 tokens the margin's 300 ms of jitter holds back.
    for (let i = 0; i < 7; i++) expect(await pacer.admit('http://a', 'key', '/user/get')).toBe(true);
    expect(now()).toBe(0);
    const start = now();
    for (let i = 0; i < 4; i++) expect(await pacer.admit('http://a', 'key', '/user/list')).toBe(true);
    // Three waits of 1/s widened by the margin's jitter (1.3 s), never faster than v1 admits.
    expect(now() - start).toBeGreaterThanOrEqual(3_000);
    expect(now() - start).toBeLessThan(4_200);
  });

  it('keeps targets and keys apart, and both sides of one target together', async () => {
    const { pacer, now } = pacedClock();
    await pacer.admit('http://a', 'key', '/group/list');
    await pacer.admit('http://b', 'key', '/group/list');
    await pacer.admit('http://a', 'other', '/group/list');
    expect(now()).toBe(0);
    await pacer.admit('http://a', 'key', '/group/list');
    expect(now()).toBeGreaterThan(1_000);
  });

  it('does not wait past the bound for a daily quota: the call is reported not replayed instead', async () => {
    const { pacer, now } = pacedClock({ maxWaitMs: 60_000 });
    expect(await pacer.admit('http://a', 'key', '/report/getuserreport')).toBe(true);
    expect(await pacer.admit('http://a', 'key', '/report/getuserreport')).toBe(false);
    expect(now()).toBeLessThanOrEqual(60_000);
  });

  it('holds every call to --rate on top', async () => {
    const { pacer, now } = pacedClock({ rate: 2 });
    for (let i = 0; i < 5; i++) await pacer.paced();
    expect(now()).toBe(2_000);
  });
});
