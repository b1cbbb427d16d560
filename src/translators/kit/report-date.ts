import { z } from 'zod';
import { v1 } from '../../v1/param-types.js';
import { isCalendarDate } from '../../shared/calendar.js';

/**
 * The dates of v1's usage reports (`from`, `to`): a calendar date, written `yyyy-mm-dd` or, as
 * v1's own answers print it, without leading zeros (`2013-5-19`); `MM/dd/yyyy` is accepted too, as
 * /recording/list takes it. v2's reports take `yyyy-mm-dd` UTC dates, which these are passed as.
 *
 * A date-time names the date written in it (`2013-04-05T15:50:47Z` is 2013-04-05), whatever its
 * time and offset: the Ruby and Python v1 bindings turn the caller's date or local time into
 * `%Y-%m-%dT%H:%M:%SZ` without converting it to UTC, so the written date is the day the caller
 * meant (docs/live-evidence.md, "Requests").
 */

export interface ReportDate {
  year: number;
  month: number;
  day: number;
}

const DASHED = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
/** `yyyy-mm-ddThh:mm[:ss[.fff]]` with `Z`, an offset or neither: the date part is kept. */
const DATE_TIME = /^(\d{4}-\d{1,2}-\d{1,2})T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?$/;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

export function parseReportDate(text: string): ReportDate | undefined {
  const value = DATE_TIME.exec(text.trim())?.[1] ?? text.trim();
  const dashed = DASHED.exec(value);
  const us = dashed ? undefined : US_DATE.exec(value);
  const [year, month, day] = dashed ? [dashed[1], dashed[2], dashed[3]] : us ? [us[3], us[1], us[2]] : [];
  if (year === undefined) return undefined;
  const date = { year: Number(year), month: Number(month), day: Number(day) };
  return isCalendarDate(date.year, date.month, date.day) ? date : undefined;
}

export const reportDateParam = () =>
  v1.string().transform((text, ctx) => {
    const parsed = parseReportDate(text);
    if (!parsed) {
      ctx.addIssue({ code: 'custom', message: 'Must be a date such as 2013-05-19.' });
      return z.NEVER;
    }
    return parsed;
  });

const pad2 = (n: number) => String(n).padStart(2, '0');

/** The date as v2 takes it: `2013-05-19`. */
export const v2Date = (d: ReportDate) => `${d.year}-${pad2(d.month)}-${pad2(d.day)}`;

/** The date as v1's report answers print it: `2013-5-19`. */
export const v1Date = (d: ReportDate) => `${d.year}-${d.month}-${d.day}`;

/** Whether `to` comes before `from` (v2 refuses such a range; v1 answers its own error first). */
export const isBackwards = (from: ReportDate, to: ReportDate) => v2Date(to) < v2Date(from);
