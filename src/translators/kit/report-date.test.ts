import { describe, expect, it } from 'vitest';
import { parseReportDate } from './report-date.js';

describe('parseReportDate', () => {
  it('reads the forms v1 took: padded, unpadded and US dates', () => {
    expect(parseReportDate('2013-05-19')).toEqual({ year: 2013, month: 5, day: 19 });
    expect(parseReportDate('2013-5-9')).toEqual({ year: 2013, month: 5, day: 9 });
    expect(parseReportDate('05/19/2013')).toEqual({ year: 2013, month: 5, day: 19 });
  });

  it('reads a date-time as the date written in it, whatever its time and offset', () => {
    // What the Ruby (`strftime("%FT%TZ")`) and Python (`date_to_str`) bindings send for a date.
    expect(parseReportDate('2026-11-01T00:00:00Z')).toEqual({ year: 2026, month: 11, day: 1 });
    expect(parseReportDate('2013-04-05T15:50:47Z')).toEqual({ year: 2013, month: 4, day: 5 });
    expect(parseReportDate('2026-11-01T23:59:59.999+02:00')).toEqual({ year: 2026, month: 11, day: 1 });
    expect(parseReportDate('2026-11-01T00:00-0500')).toEqual({ year: 2026, month: 11, day: 1 });
    expect(parseReportDate('2026-11-01T08:30')).toEqual({ year: 2026, month: 11, day: 1 });
  });

  it('refuses what names no day: an impossible date or time, other text', () => {
    for (const text of [
      '2026-02-30T00:00:00Z',
      '2026-11-01T24:00:00Z',
      '2026-11-01T10:61Z',
      '2026-11-01T',
      'yesterday',
      '2026-11-01 10:00',
    ]) {
      expect(parseReportDate(text), text).toBeUndefined();
    }
  });
});
