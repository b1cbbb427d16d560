import type { Occurrence, Recurrence } from '../model/meeting.js';
import { instantOf, isoUtc, wallTimeAt, type WallTime } from './time.js';

/**
 * The occurrences of a recurring meeting or webinar with a fixed time (types 8 and 9), computed
 * from its recurrence the way the service schedules them: every occurrence at the start's local
 * time of day in the meeting's timezone, on the days the recurrence names, from the start's date on.
 */

/**
 * With neither `end_times` nor `end_date_time`, the series has one occurrence: the reference spec
 * (and the service's published recurrence documentation) gives `end_times` the default 1.
 */
export const DEFAULT_END_TIMES = 1;

/**
 * The service never schedules more than 50 occurrences, also when `end_date_time` would allow
 * more (50 is the `end_times` maximum; a later end date is cut off there).
 */
export const MAX_OCCURRENCES = 50;

/** The largest `repeat_interval` per recurrence type: days, weeks, months. */
export const MAX_REPEAT_INTERVAL: Record<Recurrence['type'], number> = { 1: 90, 2: 12, 3: 3 };

/** Weekly recurrences without `weekly_days` repeat on Sunday, the documented default (1). */
export const DEFAULT_WEEKLY_DAYS = '1';

const DAY_MS = 86_400_000;

/** A calendar date as days since 1970-01-01 (timezone-free arithmetic on local dates). */
type DayNumber = number;

const dayNumber = (year: number, month: number, day: number): DayNumber => Date.UTC(year, month - 1, day) / DAY_MS;
const dateOf = (n: DayNumber) => {
  const d = new Date(n * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};
/** 1 Sunday ... 7 Saturday, the service's weekday numbering. */
const weekdayOf = (n: DayNumber) => new Date(n * DAY_MS).getUTCDay() + 1;
const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The candidate dates of the series, in order, from the start's week or month on (possibly before the start). */
function* candidateDays(recurrence: Recurrence, start: DayNumber): Generator<DayNumber> {
  const interval = recurrence.repeat_interval ?? 1;
  if (recurrence.type === 1) {
    for (let k = 0; ; k += interval) yield start + k;
  }
  if (recurrence.type === 2) {
    const days = weeklyDays(recurrence.weekly_days ?? DEFAULT_WEEKLY_DAYS);
    const weekStart = start - (weekdayOf(start) - 1);
    for (let week = 0; ; week += interval) for (const d of days) yield weekStart + week * 7 + (d - 1);
  }
  const { year, month, day } = dateOf(start);
  for (let k = 0; ; k += interval) {
    const y = year + Math.floor((month - 1 + k) / 12);
    const m = ((month - 1 + k) % 12) + 1;
    yield recurrence.monthly_week !== undefined && recurrence.monthly_week_day !== undefined
      ? nthWeekday(y, m, recurrence.monthly_week, recurrence.monthly_week_day)
      : // A monthly day the month lacks (31 in April) falls on the month's last day, so no month is skipped.
        dayNumber(y, m, Math.min(recurrence.monthly_day ?? day, daysInMonth(y, m)));
  }
}

/** The `week`-th (1 to 4, or -1 for the last) `weekday` of a month. */
function nthWeekday(year: number, month: number, week: number, weekday: number): DayNumber {
  if (week === -1) {
    const last = dayNumber(year, month, daysInMonth(year, month));
    return last - ((weekdayOf(last) - weekday + 7) % 7);
  }
  const first = dayNumber(year, month, 1);
  return first + ((weekday - weekdayOf(first) + 7) % 7) + (week - 1) * 7;
}

/** `"2,4"` → [2, 4]: sorted, without repeats. */
export function weeklyDays(value: string): number[] {
  return [...new Set(value.split(',').map((d) => Number(d.trim())))].sort((a, b) => a - b);
}

/**
 * The occurrences of a series starting at `startMs` in `timeZone`. Each `occurrence_id` is the
 * occurrence's start in epoch milliseconds, as the service's ids are.
 */
export function computeOccurrences(recurrence: Recurrence, startMs: number, timeZone: string, duration: number): Occurrence[] {
  const startWall = wallTimeAt(startMs, timeZone);
  const startDay = dayNumber(startWall.year, startWall.month, startWall.day);
  const limit = Math.min(recurrence.end_times ?? (recurrence.end_date_time ? MAX_OCCURRENCES : DEFAULT_END_TIMES), MAX_OCCURRENCES);
  const endMs = recurrence.end_date_time ? Date.parse(recurrence.end_date_time) : Infinity;
  const occurrences: Occurrence[] = [];
  for (const day of candidateDays(recurrence, startDay)) {
    if (occurrences.length >= limit) break;
    if (day < startDay) continue;
    const wall: WallTime = { ...dateOf(day), hour: startWall.hour, minute: startWall.minute, second: startWall.second };
    const at = instantOf(wall, timeZone);
    if (at > endMs) break;
    occurrences.push({ occurrence_id: String(at), start_time: isoUtc(at), duration, status: 'available' });
  }
  return occurrences;
}
