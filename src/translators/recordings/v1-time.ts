import { z } from 'zod';
import { instantOfLocalMs, isKnownTimeZone } from '../../shared/time-zone.js';
import { v1 } from '../../v1/param-types.js';
import { isCalendarDate } from '../../shared/calendar.js';

/**
 * v1 /recording/list takes `from` and `to` as `MM/dd/yyyy hh:mm a` (`11/05/2014 09:05 pm`) in the
 * host's timezone (GMT when the host has none). Also accepted: `MM/dd/yyyy`, `yyyy-mm-dd` (the
 * host's midnight; as `to`, the end of that day) and `yyyy-mm-ddThh:mm[:ss]Z` (UTC).
 */

/** A time as v1 gave it: a wall-clock time in the host's timezone, or an instant. */
export type V1Time =
  | { kind: 'wall'; year: number; month: number; day: number; hour: number; minute: number; dateOnly: boolean }
  | { kind: 'instant'; ms: number };

const US_FORMAT = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})\s*([ap])\.?m\.?)?$/i;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?Z$/;

export function parseV1Time(text: string): V1Time | undefined {
  const value = text.trim();
  if (ISO_UTC.test(value)) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : { kind: 'instant', ms };
  }
  const iso = ISO_DATE.exec(value);
  if (iso) return wall(Number(iso[1]), Number(iso[2]), Number(iso[3]), 0, 0, true);
  const us = US_FORMAT.exec(value);
  if (!us) return undefined;
  if (us[4] === undefined) return wall(Number(us[3]), Number(us[1]), Number(us[2]), 0, 0, true);
  const hour12 = Number(us[4]);
  if (hour12 < 1 || hour12 > 12) return undefined;
  const hour = (hour12 % 12) + (us[6]!.toLowerCase() === 'p' ? 12 : 0);
  return wall(Number(us[3]), Number(us[1]), Number(us[2]), hour, Number(us[5]), false);
}

function wall(year: number, month: number, day: number, hour: number, minute: number, dateOnly: boolean): V1Time | undefined {
  const real = isCalendarDate(year, month, day) && hour < 24 && minute < 60;
  return real ? { kind: 'wall', year, month, day, hour, minute, dateOnly } : undefined;
}

export const v1TimeParam = () =>
  v1.string().transform((text, ctx) => {
    const parsed = parseV1Time(text);
    if (!parsed) {
      ctx.addIssue({ code: 'custom', message: 'Must be a time such as 11/05/2014 09:05 pm (or 2014-11-05).' });
      return z.NEVER;
    }
    return parsed;
  });

/** The instant of a v1 time, reading wall-clock times in `timezone`; `endOfDay` stretches a date to its last second. */
export function instantOf(time: V1Time, timezone: string, endOfDay = false): number {
  if (time.kind === 'instant') return time.ms;
  const localMs = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute) + (endOfDay && time.dateOnly ? 86_399_000 : 0);
  // An unknown or empty timezone counts as GMT.
  return instantOfLocalMs(localMs, isKnownTimeZone(timezone) ? timezone : 'UTC');
}

/** The UTC date (`yyyy-mm-dd`) `days` away from an instant: v2 filters recordings by UTC dates. */
export const utcDate = (ms: number, days = 0) => new Date(ms + days * 86_400_000).toISOString().slice(0, 10);
