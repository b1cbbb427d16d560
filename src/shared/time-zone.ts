/**
 * Wall-clock time in IANA time zones (`America/Los_Angeles`, `UTC`, ...), worked out with
 * Intl.DateTimeFormat — one formatter per zone, made once and kept. Used by the sandbox's
 * schedule (local start times, recurring meetings that keep their local time across a DST change)
 * and by the gateway's /recording/list (v1 `from`/`to` in the host's timezone).
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

const formats = new Map<string, Intl.DateTimeFormat>();

/** The cached formatter of a zone; throws a RangeError for a zone the runtime does not know. */
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

/** The wall time in `timeZone` at the instant `utcMs` (to the second). */
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

/** A wall time written as if it were UTC: the "local milliseconds" the offset arithmetic works in. */
export const wallTimeAsUtcMs = (w: WallTime): number => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

/** How far `timeZone` is ahead of UTC at the instant `utcMs`, in milliseconds. */
export function offsetAt(utcMs: number, timeZone: string): number {
  return wallTimeAsUtcMs(wallTimeAt(utcMs, timeZone)) - Math.floor(utcMs / 1000) * 1000;
}

/**
 * The instant at which clocks in `timeZone` show `localMs` (a wall time as `wallTimeAsUtcMs` writes
 * it). The offset at the local time read as UTC is right except next to a DST change; a second
 * look settles it (a wall time skipped by DST gives the instant an hour later).
 */
export function instantOfLocalMs(localMs: number, timeZone: string): number {
  const first = localMs - offsetAt(localMs, timeZone);
  return localMs - offsetAt(first, timeZone);
}

/** The instant at which clocks in `timeZone` show `wall`. */
export const instantOf = (wall: WallTime, timeZone: string): number => instantOfLocalMs(wallTimeAsUtcMs(wall), timeZone);
