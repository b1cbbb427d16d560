import { describe, expect, it } from 'vitest';
import { callsAdmittedWithin, msToAdmit } from './fan-out.js';

describe('fan-out arithmetic', () => {
  const oneASecond = { ratePerSecond: 1, burst: 1 };
  const daily = { ratePerSecond: 2000 / 86_400, burst: 2000 };

  it('admits the burst at once, then what refills within the wait; the tightest bucket decides', () => {
    expect(callsAdmittedWithin([oneASecond], 0)).toBe(1);
    expect(callsAdmittedWithin([oneASecond], 2_999)).toBe(3);
    expect(callsAdmittedWithin([oneASecond], 30_000)).toBe(31);
    expect(callsAdmittedWithin([oneASecond, daily], 30_000)).toBe(31);
    expect(callsAdmittedWithin([oneASecond, { ratePerSecond: 0.001, burst: 2 }], 30_000)).toBe(2);
    expect(callsAdmittedWithin([oneASecond], -5)).toBe(1);
  });

  it('names how long a fan-out takes to be admitted from full buckets', () => {
    expect(msToAdmit([oneASecond], 1)).toBe(0);
    expect(msToAdmit([oneASecond], 11)).toBe(10_000);
    expect(msToAdmit([oneASecond, daily], 11)).toBe(10_000);
  });
});
