import { z } from 'zod';
import { isoSeconds } from '../clock.js';
import { RECORDING_FILE_TYPES } from '../report/recording-files.js';

/** Request bodies of the control API. Times are UTC (`...Z`), stored the way the service prints them. */

export const utcTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/, {
    message: 'Must be a UTC date-time such as 2012-11-25T12:00:00Z.',
    abort: true,
  })
  .refine((value) => !Number.isNaN(Date.parse(value)), 'Must be a real date-time.')
  .transform((value) => isoSeconds(new Date(value)));

const participantName = z.string().trim().min(1, 'Must not be empty.').max(64, 'Must be at most 64 characters.');
const participantEmail = z.email('Invalid email address.').max(128, 'Must be at most 128 characters.');

export const startBody = z.strictObject({ start_time: utcTime.optional() });

export const participantBody = z.strictObject({
  name: participantName,
  email: participantEmail.optional(),
  join_time: utcTime.optional(),
});

/** A poll answer or a Q&A entry: who, and their questions with answers. */
export const surveyEntryBody = z.strictObject({
  name: participantName,
  email: participantEmail.optional().default(''),
  question_details: z
    .array(z.strictObject({ question: z.string().min(1, 'Must not be empty.'), answer: z.string() }))
    .min(1, 'Must hold at least one question.'),
});

const recordingBody = z.union([
  z.boolean(),
  z.strictObject({
    files: z
      .array(
        z.strictObject({
          file_type: z.enum(RECORDING_FILE_TYPES, { error: `Must be one of ${RECORDING_FILE_TYPES.join(', ')}.` }),
          recording_type: z.string().min(1, 'Must not be empty.').optional(),
          file_size: z.number().int().min(0).optional(),
        }),
      )
      .min(1, 'Must hold at least one file; send recording: false for none.')
      .optional(),
  }),
]);

export const endBody = z.strictObject({ recording: recordingBody.optional() });

/** Longest meeting `happen` makes: one day. */
export const MAX_HAPPEN_MINUTES = 24 * 60;

export const happenBody = z
  .strictObject({
    start_time: utcTime.optional(),
    duration_minutes: z.number().int().min(1).max(MAX_HAPPEN_MINUTES).optional(),
    participants: z
      .array(
        z.strictObject({
          name: participantName,
          email: participantEmail.optional(),
          /** Minutes after the start; 0 by default. */
          joined_after_minutes: z.number().int().min(0).optional(),
          /** Minutes after the start; the end of the meeting by default. */
          left_after_minutes: z.number().int().min(1).optional(),
        }),
      )
      .max(1000)
      .default([]),
    recording: recordingBody.optional(),
    polls: z.array(surveyEntryBody).max(1000).default([]),
    questions: z.array(surveyEntryBody).max(1000).default([]),
  })
  .superRefine((body, ctx) => {
    body.participants.forEach((p, i) => {
      if (p.left_after_minutes !== undefined && p.left_after_minutes <= (p.joined_after_minutes ?? 0)) {
        ctx.addIssue({ code: 'custom', path: ['participants', i, 'left_after_minutes'], message: 'Must be after joined_after_minutes.' });
      }
    });
  });

export type HappenBody = z.output<typeof happenBody>;
