import { z } from 'zod';
import { pagingQuery, tokenPagingQuery } from '../paging.js';
import { dateTime, meetingPassword } from '../validation.js';
import { MAX_REPEAT_INTERVAL, weeklyDays } from './recurrence.js';
import { isKnownTimeZone, isUtcDateTime, parseWallTime } from './time.js';

/** Request bodies and queries of the meetings and webinars area, with the v2 rules. */

/** An integer out of a fixed set (meeting types, approval types, ...). */
export const intEnum = <const T extends number>(values: readonly T[]) =>
  z
    .number()
    .int()
    .refine((v): v is T => (values as readonly number[]).includes(v), `Must be one of ${values.join(', ')}.`)
    .transform((v) => v);

export const startTime = dateTime.refine((v) => parseWallTime(v) !== undefined, 'Not a valid date-time.');

export const timeZone = z.string().refine(isKnownTimeZone, 'Invalid timezone: use a timezone id such as America/Los_Angeles.');

/** `weekly_days` comes as `"2,4"` (the service's own examples) or as one integer (the reference's type). */
const weeklyDaysField = z
  .union([z.number().int(), z.string()])
  .transform(String)
  .refine((v) => /^\s*[1-7]\s*(,\s*[1-7]\s*)*$/.test(v), 'Must be day numbers 1 (Sunday) to 7 (Saturday), separated by commas.')
  .transform((v) => weeklyDays(v).join(','));

export const recurrenceSchema = z
  .object({
    type: intEnum([1, 2, 3] as const),
    repeat_interval: z.number().int().min(1).optional(),
    weekly_days: weeklyDaysField.optional(),
    monthly_day: z.number().int().min(1).max(31).optional(),
    monthly_week: intEnum([-1, 1, 2, 3, 4] as const).optional(),
    monthly_week_day: z.number().int().min(1).max(7).optional(),
    end_times: z.number().int().min(1).max(50).optional(),
    end_date_time: startTime.refine(isUtcDateTime, 'Must be UTC time ending in Z, such as 2017-11-25T12:00:00Z.').optional(),
  })
  .superRefine((r, ctx) => {
    const max = MAX_REPEAT_INTERVAL[r.type];
    if (r.repeat_interval !== undefined && r.repeat_interval > max) {
      ctx.addIssue({ code: 'custom', path: ['repeat_interval'], message: `Must be at most ${max} for this recurrence type.` });
    }
    if (r.end_times !== undefined && r.end_date_time !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['end_date_time'], message: 'Cannot be used together with end_times.' });
    }
    if ((r.monthly_week === undefined) !== (r.monthly_week_day === undefined)) {
      const missing = r.monthly_week === undefined ? 'monthly_week' : 'monthly_week_day';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'monthly_week and monthly_week_day go together.' });
    }
  });

const bool = z.boolean().optional();
const approvalType = intEnum([0, 1, 2] as const).optional();
const registrationType = intEnum([1, 2, 3] as const).optional();
const audio = z.enum(['both', 'telephony', 'voip']).optional();
const autoRecording = z.enum(['local', 'cloud', 'none']).optional();

/**
 * Who may join: today's authentication settings. A meeting no longer takes `enforce_login` or
 * `enforce_login_domains` (its create and update drop them as any unknown field); its answers
 * still carry them, deprecated, as copies of these.
 */
const authentication = {
  meeting_authentication: bool,
  authentication_option: z.string().optional(),
  authentication_domains: z.string().optional(),
};

export const meetingSettingsSchema = z.object({
  host_video: bool,
  participant_video: bool,
  cn_meeting: bool,
  in_meeting: bool,
  join_before_host: bool,
  mute_upon_entry: bool,
  watermark: bool,
  use_pmi: bool,
  approval_type: approvalType,
  registration_type: registrationType,
  audio,
  auto_recording: autoRecording,
  ...authentication,
  alternative_hosts: z.string().optional(),
});

export const webinarSettingsSchema = z.object({
  host_video: bool,
  panelists_video: bool,
  practice_session: bool,
  hd_video: bool,
  approval_type: approvalType,
  registration_type: registrationType,
  audio,
  auto_recording: autoRecording,
  ...authentication,
  // Webinars still take the deprecated pair (today's documents mark them so); read as the above.
  enforce_login: bool,
  enforce_login_domains: z.string().optional(),
  alternative_hosts: z.string().optional(),
  close_registration: bool,
  show_share_button: bool,
  allow_multiple_devices: bool,
});

/**
 * `registrants_confirmation_email` is an update-only setting; on create it is dropped like any
 * field the service does not know (the service ignores unknown fields rather than refusing them).
 */
export const onUpdate = <S extends z.ZodObject>(settings: S) => settings.extend({ registrants_confirmation_email: bool });

/** The schedulable fields of a meeting or webinar; every one optional, on create and on update. */
export const sessionSchema = <S extends z.ZodType>(types: readonly number[], settings: S) =>
  z.object({
    topic: z.string().optional(),
    type: intEnum(types).optional(),
    start_time: startTime.optional(),
    duration: z.number().int().min(0).optional(),
    timezone: timeZone.optional(),
    password: meetingPassword.optional(),
    agenda: z.string().optional(),
    recurrence: recurrenceSchema.optional(),
    settings: settings.optional(),
  });

export type RecurrenceInput = z.output<typeof recurrenceSchema>;

/** Enumerated registrant answers; `''` means not answered (what the service stores for them). */
const answer = (values: readonly [string, ...string[]]) => z.enum(['', ...values]).optional();

const email = z.email('Must be a valid email address.').max(128, 'Must be at most 128 characters.');

export const registrantSchema = z.object({
  email,
  first_name: z.string().min(1, 'Required.').max(64),
  last_name: z.string().min(1, 'Required.').max(64),
  address: z.string().optional(),
  city: z.string().optional(),
  country: z.string().optional(),
  zip: z.string().optional(),
  state: z.string().optional(),
  phone: z.string().optional(),
  industry: z.string().optional(),
  org: z.string().optional(),
  job_title: z.string().optional(),
  purchasing_time_frame: answer(['Within a month', '1-3 months', '4-6 months', 'More than 6 months', 'No timeframe']),
  role_in_purchase_process: answer(['Decision Maker', 'Evaluator/Recommender', 'Influencer', 'Not involved']),
  no_of_employees: answer(['1-20', '21-50', '51-100', '101-500', '500-1,000', '1,001-5,000', '5,001-10,000', 'More than 10,000']),
  comments: z.string().optional(),
  custom_questions: z.array(z.object({ title: z.string(), value: z.string() })).optional(),
});

export type RegistrantInput = z.output<typeof registrantSchema>;

/** Registrants and members arrays carry at most 30 entries (v2 Limits). */
export const MAX_BATCH = 30;

export const registrantStatusSchema = z.object({
  action: z.enum(['approve', 'cancel', 'deny']),
  registrants: z
    .array(
      z
        .object({ id: z.string().optional(), email: z.string().optional() })
        .refine((r) => Boolean(r.id || r.email), 'Each registrant needs an id or an email.'),
    )
    .max(MAX_BATCH, `At most ${MAX_BATCH} registrants per call.`)
    .optional(),
});

export const panelistsSchema = z.object({
  panelists: z
    .array(z.object({ name: z.string().min(1, 'Required.').max(64), email }))
    .min(1, 'At least one panelist.')
    .max(MAX_BATCH, `At most ${MAX_BATCH} panelists per call.`),
});

/** `occurrence_id` of a query, when given. */
export const occurrenceQuery = z.object({ occurrence_id: z.string().optional() });

export const registrantListQuery = z.object({
  occurrence_id: z.string().optional(),
  status: z.enum(['pending', 'approved', 'denied']).default('approved'),
  ...pagingQuery.shape,
  ...tokenPagingQuery,
});

export const registerQuery = z.object({
  occurrence_ids: z.string().optional(),
});
