import { z } from 'zod';
import { looseFields } from '../answer-shape.js';

/** The v2 webinar report answers the webinar report translators read. */

/** A row of GET /report/webinars/{id}/participants: one join. `leave_time` is null while the attendee is in. */
export const V2_WEBINAR_PARTICIPANT = looseFields({
  /** The user id of a signed-in user of the account; an opaque id otherwise. */
  id: z.string(),
  name: z.string(),
  user_email: z.string(),
  join_time: z.string(),
  leave_time: z.string().nullable(),
  /** Seconds in the session. */
  duration: z.number(),
  // Beyond the v2 reference: how an attendee is tied to their registration, when they registered.
  registrant_id: z.string().optional(),
});
export type V2WebinarParticipant = z.output<typeof V2_WEBINAR_PARTICIPANT>;

/** GET /report/webinars/{id}/participants, by token, read to the end. */
export const V2_WEBINAR_PARTICIPANT_PAGE = looseFields({
  next_page_token: z.string().optional(),
  participants: z.array(V2_WEBINAR_PARTICIPANT),
});

/** GET /report/webinars/{id}/polls and /qa answer the same shape, which is v1's too. */
export const V2_SURVEY = looseFields({
  id: z.union([z.number(), z.string()]),
  uuid: z.string(),
  start_time: z.string(),
  questions: z.array(
    looseFields({
      name: z.string(),
      email: z.string(),
      question_details: z.array(looseFields({ question: z.string(), answer: z.string() })),
    }),
  ),
});

/** An ended webinar instance, as GET /past_webinars/{id}/instances lists it. */
export const V2_INSTANCE = looseFields({ uuid: z.string(), start_time: z.string() });
export type V2Instance = z.output<typeof V2_INSTANCE>;

/** GET /past_webinars/{id}/instances. */
export const V2_INSTANCES = looseFields({ webinars: z.array(V2_INSTANCE) });
