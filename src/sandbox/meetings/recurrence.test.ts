import { describe, expect, it } from 'vitest';
import type { Recurrence } from '../model/meeting.js';
import { computeOccurrences, DEFAULT_END_TIMES, MAX_OCCURRENCES } from './recurrence.js';
import { instantOf, isKnownTimeZone, parseWallTime, startInstant, wallTimeAt } from './time.js';

const at = (iso: string) => Date.parse(iso);
const starts = (recurrence: Recurrence, start: string, timeZone = 'UTC') =>
  computeOccurrences(recurrence, at(start), timeZone, 30).map((o) => o.start_time);

describe('occurrences of a fixed-time series', () => {
  it('repeats daily every repeat_interval days, end_times times', () => {
    expect(starts({ type: 1, repeat_interval: 2, end_times: 3 }, '2030-01-01T09:30:00Z')).toEqual([
      '2030-01-01T09:30:00Z',
      '2030-01-03T09:30:00Z',
      '2030-01-05T09:30:00Z',
    ]);
  });

  it('names each occurrence by its start in epoch milliseconds, with the series duration and status available', () => {
    const [first] = computeOccurrences({ type: 1, end_times: 1 }, at('2030-01-01T09:30:00Z'), 'UTC', 45);
    expect(first).toEqual({
      occurrence_id: String(at('2030-01-01T09:30:00Z')),
      start_time: '2030-01-01T09:30:00Z',
      duration: 45,
      status: 'available',
    });
  });

  it('repeats weekly on the weekly_days, from the start date on (a Tuesday start skips to Wednesday)', () => {
    // 2030-03-05 is a Tuesday; 2 = Monday, 4 = Wednesday.
    expect(starts({ type: 2, weekly_days: '2,4', end_times: 4 }, '2030-03-05T08:00:00Z')).toEqual([
      '2030-03-06T08:00:00Z',
      '2030-03-11T08:00:00Z',
      '2030-03-13T08:00:00Z',
      '2030-03-18T08:00:00Z',
    ]);
  });

  it('skips weeks by repeat_interval and defaults weekly_days to Sunday', () => {
    // 2030-03-10 is a Sunday.
    expect(starts({ type: 2, repeat_interval: 2, end_times: 3 }, '2030-03-10T08:00:00Z')).toEqual([
      '2030-03-10T08:00:00Z',
      '2030-03-24T08:00:00Z',
      '2030-04-07T08:00:00Z',
    ]);
  });

  it('repeats monthly on monthly_day, falling on the last day of shorter months', () => {
    expect(starts({ type: 3, monthly_day: 31, end_times: 4 }, '2030-01-31T12:00:00Z')).toEqual([
      '2030-01-31T12:00:00Z',
      '2030-02-28T12:00:00Z',
      '2030-03-31T12:00:00Z',
      '2030-04-30T12:00:00Z',
    ]);
  });

  it('defaults monthly_day to the day of the start and skips months by repeat_interval', () => {
    expect(starts({ type: 3, repeat_interval: 3, end_times: 3 }, '2030-01-15T12:00:00Z')).toEqual([
      '2030-01-15T12:00:00Z',
      '2030-04-15T12:00:00Z',
      '2030-07-15T12:00:00Z',
    ]);
  });

  it("starts a monthly series in the next month when this month's day has passed", () => {
    expect(starts({ type: 3, monthly_day: 5, end_times: 2 }, '2030-01-15T12:00:00Z')).toEqual([
      '2030-02-05T12:00:00Z',
      '2030-03-05T12:00:00Z',
    ]);
  });

  it('repeats monthly on the last given weekday (monthly_week -1)', () => {
    // Last Fridays (6) of Jan, Feb, Mar 2030.
    expect(starts({ type: 3, monthly_week: -1, monthly_week_day: 6, end_times: 3 }, '2030-01-01T12:00:00Z')).toEqual([
      '2030-01-25T12:00:00Z',
      '2030-02-22T12:00:00Z',
      '2030-03-29T12:00:00Z',
    ]);
  });

  it('repeats monthly on the n-th weekday (second Monday)', () => {
    expect(starts({ type: 3, monthly_week: 2, monthly_week_day: 2, end_times: 2 }, '2030-03-01T12:00:00Z')).toEqual([
      '2030-03-11T12:00:00Z',
      '2030-04-08T12:00:00Z',
    ]);
  });

  it('ends with the last occurrence starting at or before end_date_time', () => {
    expect(starts({ type: 1, end_date_time: '2030-01-03T09:30:00Z' }, '2030-01-01T09:30:00Z')).toHaveLength(3);
    expect(starts({ type: 1, end_date_time: '2030-01-03T09:29:59Z' }, '2030-01-01T09:30:00Z')).toHaveLength(2);
  });

  it('has DEFAULT_END_TIMES (1) occurrence when neither end is given', () => {
    expect(DEFAULT_END_TIMES).toBe(1);
    expect(starts({ type: 1 }, '2030-01-01T09:30:00Z')).toEqual(['2030-01-01T09:30:00Z']);
  });

  it('never schedules more than 50 occurrences, however late end_date_time is', () => {
    expect(starts({ type: 1, end_date_time: '2040-01-01T00:00:00Z' }, '2030-01-01T09:30:00Z')).toHaveLength(MAX_OCCURRENCES);
  });

  it('is empty when end_date_time is before the start', () => {
    expect(starts({ type: 1, end_date_time: '2029-01-01T00:00:00Z' }, '2030-01-01T09:30:00Z')).toEqual([]);
  });

  it('keeps the local time of day across a daylight-saving change', () => {
    // New York moves to daylight time on 2030-03-10: 09:00 local is 14:00Z before, 13:00Z after.
    expect(starts({ type: 1, end_times: 3 }, '2030-03-08T14:00:00Z', 'America/New_York')).toEqual([
      '2030-03-08T14:00:00Z',
      '2030-03-09T14:00:00Z',
      '2030-03-10T13:00:00Z',
    ]);
  });

  it("picks weekdays in the meeting's timezone, not in UTC", () => {
    // Monday 2030-03-11 at 08:00 in Tokyo is Sunday 23:00 UTC.
    expect(starts({ type: 2, weekly_days: '2', end_times: 2 }, '2030-03-10T23:00:00Z', 'Asia/Tokyo')).toEqual([
      '2030-03-10T23:00:00Z',
      '2030-03-17T23:00:00Z',
    ]);
  });
});

describe('start times and timezones', () => {
  it('reads a local start_time in its timezone and a Z one as UTC', () => {
    expect(new Date(startInstant('2030-07-01T09:00:00', 'Europe/Berlin')).toISOString()).toBe('2030-07-01T07:00:00.000Z');
    expect(new Date(startInstant('2030-01-01T09:00:00', 'Europe/Berlin')).toISOString()).toBe('2030-01-01T08:00:00.000Z');
    expect(new Date(startInstant('2030-07-01T09:00:00Z', 'Europe/Berlin')).toISOString()).toBe('2030-07-01T09:00:00.000Z');
  });

  it('round-trips wall times', () => {
    const wall = { year: 2030, month: 10, day: 27, hour: 1, minute: 30, second: 0 };
    expect(wallTimeAt(instantOf(wall, 'America/Los_Angeles'), 'America/Los_Angeles')).toEqual(wall);
  });

  it('rejects dates that do not exist and unknown timezones', () => {
    expect(parseWallTime('2030-02-30T10:00:00Z')).toBeUndefined();
    expect(parseWallTime('2030-01-01T24:00:00')).toBeUndefined();
    expect(parseWallTime('2030-01-01T23:59:59')).toBeDefined();
    expect(isKnownTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isKnownTimeZone('America/Los_Angeles')).toBe(true);
  });
});
