import { isoSeconds } from '../clock.js';

/**
 * Wall-clock time in a named timezone, and the conversions the schedule needs: a start_time
 * without `Z` is local time in the meeting's timezone, and recurring meetings repeat at the same
 * local time (so an occurrence after a daylight-saving change moves in UTC, as it does for the
 * people attending it).
 */

export interface WallTime {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z?)$/;

/** The wall time written in an ISO string (its `Z`, if any, is the caller's business). */
export function parseWallTime(value: string): WallTime | undefined {
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const wall = { year, month, day, hour, minute, second };
  // Date.UTC rolls 2024-02-30 over into March; a real date survives the round trip unchanged.
  const back = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  const real =
    back.getUTCFullYear() === year && back.getUTCMonth() === month - 1 && back.getUTCDate() === day && hour < 24 && minute < 60 && second < 60;
  return real ? wall : undefined;
}

export const isUtcDateTime = (value: string): boolean => value.endsWith('Z');

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** A region/city timezone id the runtime knows (`America/Los_Angeles`, `UTC`, ...). */
export function isKnownTimeZone(timeZone: string): boolean {
  if (timeZone.trim() === '') return false;
  try {
    formatFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall time in `timeZone` at the instant `utcMs`. */
export function wallTimeAt(utcMs: number, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const part of formatFor(timeZone).formatToParts(new Date(utcMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

const asUtcMs = (w: WallTime) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

/** The instant at which clocks in `timeZone` show `wall` (for a wall time skipped by DST, the instant an hour later). */
export function instantOf(wall: WallTime, timeZone: string): number {
  const guess = asUtcMs(wall);
  const offsetAt = (ms: number) => asUtcMs(wallTimeAt(ms, timeZone)) - ms;
  const first = guess - offsetAt(guess);
  const second = guess - offsetAt(first);
  return second;
}

/** `2012-11-25T12:00:00Z`, the way the service prints every time. */
export const isoUtc = (utcMs: number): string => isoSeconds(new Date(utcMs));

/** A start_time as given (UTC with `Z`, or local in `timeZone`) as the instant it names. */
export function startInstant(value: string, timeZone: string): number {
  const wall = parseWallTime(value);
  if (!wall) throw new Error(`not a date-time: ${value}`);
  return isUtcDateTime(value) ? asUtcMs(wall) : instantOf(wall, timeZone);
}
