import { z } from 'zod';
import { looseFields } from '../answer-shape.js';
import { V2_NUMBERED_PAGE } from '../v2-paging.js';

/** The v2 registration answers the registration translators (and the webinar attendee report) read. */

/** A registrant as v2 lists it (GET /meetings|webinars/{id}/registrants): the input fields, and the listed registrant's four. */
export const V2_REGISTRANT = looseFields({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  status: z.string(),
  create_time: z.string(),
  join_url: z.string(),
  custom_questions: z.array(looseFields({ title: z.string(), value: z.string() })).optional(),
});
export type V2Registrant = z.output<typeof V2_REGISTRANT>;

/** GET /webinars/{id}/registrants: today without `page_count` or `page_number`, paged by token. */
export const V2_REGISTRANT_PAGE = looseFields({ ...V2_NUMBERED_PAGE, registrants: z.array(V2_REGISTRANT) });
export type V2RegistrantPage = z.output<typeof V2_REGISTRANT_PAGE>;

/** POST /meetings|webinars/{id}/registrants. */
export const V2_REGISTERED = looseFields({
  registrant_id: z.string(),
  id: z.union([z.number(), z.string()]),
  topic: z.string(),
  // Absent for a recurring session with no fixed time.
  start_time: z.string().optional(),
  join_url: z.string(),
});

/** GET /webinars/{id}/panelists: each panelist is read through the PANELIST table by name; the attendee report matches emails. */
export const V2_PANELISTS = looseFields({
  total_records: z.number(),
  panelists: z.array(looseFields({ email: z.string() })),
});
