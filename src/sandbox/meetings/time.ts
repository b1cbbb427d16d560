import { instantOf, wallTimeAsUtcMs, type WallTime } from '../../shared/time-zone.js';
import { isoSeconds } from '../clock.js';

export { instantOf, isKnownTimeZone, wallTimeAt, type WallTime } from '../../shared/time-zone.js';

/**
 * Wall-clock time in a named timezone, and the conversions the schedule needs: a start_time
 * without `Z` is local time in the meeting's timezone, and recurring meetings repeat at the same
 * local time (so an occurrence after a daylight-saving change moves in UTC, as it does for the
 * people attending it). The time-zone arithmetic itself is src/shared/time-zone.ts.
 */

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
    back.getUTCFullYear() === year &&
    back.getUTCMonth() === month - 1 &&
    back.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60;
  return real ? wall : undefined;
}

export const isUtcDateTime = (value: string): boolean => value.endsWith('Z');

/** `2012-11-25T12:00:00Z`, the way the service prints every time. */
export const isoUtc = (utcMs: number): string => isoSeconds(new Date(utcMs));

/** A start_time as given (UTC with `Z`, or local in `timeZone`) as the instant it names. */
export function startInstant(value: string, timeZone: string): number {
  const wall = parseWallTime(value);
  if (!wall) throw new Error(`not a date-time: ${value}`);
  return isUtcDateTime(value) ? wallTimeAsUtcMs(wall) : instantOf(wall, timeZone);
}
