import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoMillis } from '../shared/iso-time.js';
import { timeField } from './log-time.js';

describe("a log line's time field", () => {
  it('is `,"time":"` and isoMillis\'s text of the time, for any time, in any order', () => {
    const near = fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2026, 0, 1) + 5_000 });
    const any = fc.oneof(
      near,
      fc.integer({ min: 0, max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }),
      fc.constantFrom(0, 999, 1_000, -1, -1_000, Date.UTC(10_000, 0, 1), Date.UTC(10_000, 0, 1) - 1, 1.5),
    );
    fc.assert(
      fc.property(fc.array(any, { minLength: 1, maxLength: 20 }), (times) => {
        for (const ms of times) expect(timeField(ms)).toBe(`,"time":"${isoMillis(ms)}"`);
      }),
      { numRuns: 500 },
    );
  });
});
