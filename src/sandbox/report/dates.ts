import { z } from 'zod';
import { dateOf } from './time.js';

function isCalendarDate(value: string): boolean {
  const ms = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(value);
}

/** A `from` / `to` query date: `yyyy-mm-dd`, a real calendar date. */
export const queryDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Must be a date such as 2017-11-25.', abort: true })
  .refine(isCalendarDate, 'Must be a real calendar date.');

/** The rule both date-ranged lists share: `to` may not come before `from` (such dates compare as strings). */
export function rangeIssue(from: string | undefined, to: string | undefined, ctx: z.RefinementCtx): void {
  if (from && to && to < from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before from.' });
}

/** Whether a service time falls on a UTC date from `from` to `to`, both included. */
export const onDateWithin = (iso: string, from: string, to: string) => dateOf(iso) >= from && dateOf(iso) <= to;
