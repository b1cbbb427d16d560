import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoMillis } from './iso-time.js';

describe('isoMillis', () => {
  it('writes what toISOString writes, for any moment, in any order (the second it keeps changes under it)', () => {
    const moment = fc.oneof(
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
      fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2026, 0, 1) + 5_000 }),
      fc.constantFrom(0, 999, 1000, 1001, Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(10_000, 0, 1), -1),
    );
    fc.assert(
      fc.property(fc.array(moment, { minLength: 1, maxLength: 20 }), (moments) => {
        for (const ms of moments) expect(isoMillis(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 500 },
    );
  });

  it('pads the milliseconds within one second', () => {
    const at = Date.UTC(2026, 10, 27, 1, 2, 3);
    expect([0, 7, 42, 999].map((ms) => isoMillis(at + ms))).toEqual([
      '2026-11-27T01:02:03.000Z',
      '2026-11-27T01:02:03.007Z',
      '2026-11-27T01:02:03.042Z',
      '2026-11-27T01:02:03.999Z',
    ]);
  });
});
