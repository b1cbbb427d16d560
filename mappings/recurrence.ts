import { z } from 'zod';
import type { Codec, JsonFieldsRule } from '../src/v1/field-map.js';
import { v1 } from '../src/v1/param-types.js';

/**
 * The v1 `recurrence` form field: a JSON text holding the recurrence object (fixed-time recurring
 * meetings, type 8, and webinars, type 9). Its field names are the v2 ones already; only the
 * types are looser in v1 (numbers and `weekly_days` sent as text, as v1 clients did), so the
 * schema coerces them and the codec is near the identity. Bad JSON or a bad field is a v1 300
 * naming `recurrence` (the facade's "Invalid parameter: recurrence. ..."), before any v2 call.
 */

/** A JSON number, or digits in a JSON string (`"repeat_interval": "2"`, as many v1 clients sent). */
const int = (min: number, max: number) =>
  z
    .union([
      z.number(),
      z
        .string()
        .regex(/^\s*-?\d+\s*$/, 'Must be an integer.')
        .transform(Number),
    ])
    .pipe(z.number().int('Must be an integer.').min(min, `Must be at least ${min}.`).max(max, `Must be at most ${max}.`));

/** `weekly_days`: `"2,4"` or one day number. */
const weeklyDays = z
  .union([z.number().int(), z.string()])
  .transform((v) => String(v).replace(/\s+/g, ''))
  .refine((v) => /^[1-7](,[1-7])*$/.test(v), 'Must be day numbers 1 (Sunday) to 7 (Saturday), separated by commas.');

/** Repeat interval maximum per recurrence type (v1 and v2 agree): 90 days, 12 weeks, 3 months. */
const MAX_REPEAT_INTERVAL: Record<number, number> = { 1: 90, 2: 12, 3: 3 };

export const v1RecurrenceSchema = z
  .object({
    type: int(1, 3),
    repeat_interval: int(1, 90).optional(),
    weekly_days: weeklyDays.optional(),
    monthly_day: int(1, 31).optional(),
    monthly_week: int(-1, 4)
      .refine((w) => w !== 0, 'Must be -1, 1, 2, 3 or 4.')
      .optional(),
    monthly_week_day: int(1, 7).optional(),
    end_times: int(1, 50).optional(),
    end_date_time: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, 'Must be UTC time such as 2012-11-25T12:00:00Z.')
      .optional(),
  })
  .superRefine((r, ctx) => {
    const max = MAX_REPEAT_INTERVAL[r.type]!;
    if (r.repeat_interval !== undefined && r.repeat_interval > max) {
      ctx.addIssue({ code: 'custom', path: ['repeat_interval'], message: `Must be at most ${max} for this recurrence type.` });
    }
    if (r.end_times !== undefined && r.end_date_time !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['end_date_time'], message: 'Cannot be used together with end_times.' });
    }
  });

export type V1Recurrence = z.output<typeof v1RecurrenceSchema>;

/** The `recurrence` form field's type. */
export const recurrenceParam = () => v1.json(v1RecurrenceSchema);

/** The v2 recurrence object has the same fields; v2 reads `weekly_days` as the same comma text. */
export const recurrenceCodec: Codec<V1Recurrence, Record<string, unknown>> & { jsonFields: JsonFieldsRule } = {
  name: 'recurrence JSON text ↔ recurrence object (same fields)',
  // What the schema above does to each field, as a rule the way-out recipe applies (held to it by a test).
  jsonFields: {
    fields: {
      type: 'number',
      repeat_interval: 'number',
      weekly_days: 'text',
      monthly_day: 'number',
      monthly_week: 'number',
      monthly_week_day: 'number',
      end_times: 'number',
      end_date_time: 'string',
    },
  },
  toV2: (value) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)),
  toV1: (value) => v1RecurrenceSchema.parse(value),
};
