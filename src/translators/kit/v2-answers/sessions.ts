import { z } from 'zod';
import { V2_NUMBERED_PAGE } from '../v2-paging.js';
import { looseFields, OBJECT_READ_BY_KEY } from '../answer-shape.js';

/**
 * The v2 meeting / webinar answers the session translators read. The renderer reads the other
 * fields by name (through the kind's option table and v1 fields of the same name), each with v1's
 * value when absent, so only what the code reads directly is checked here. The v2 OpenAPI types a
 * session `id` as a string and the service answers a number: either is a session number.
 */
const SESSION_NUMBER = z.union([z.number(), z.string()]);

/** The occurrence object of the v2 spec: all four fields are always there. */
const V2_OCCURRENCE = looseFields({
  occurrence_id: SESSION_NUMBER,
  start_time: z.string(),
  duration: z.number(),
  status: z.string(),
});

/** GET /meetings/{id}, GET /webinars/{id}, POST /users/{userId}/meetings|webinars: the full object. */
export const V2_SESSION = looseFields({
  id: SESSION_NUMBER,
  host_id: z.string(),
  type: z.number(),
  // Absent for a recurring session with no fixed time.
  start_time: z.string().optional(),
  join_url: z.string(),
  occurrences: z.array(V2_OCCURRENCE).optional(),
  // Only `approval_type` is read, by name.
  settings: OBJECT_READ_BY_KEY.optional(),
});
export type V2Session = z.output<typeof V2_SESSION>;

/** A v2 list item (GET /users/{userId}/meetings|webinars, GET /metrics/meetings): only the id is used, to read the full object. */
export const V2_SESSION_LIST_ITEM = looseFields({ id: SESSION_NUMBER });
export type V2SessionListItem = z.output<typeof V2_SESSION_LIST_ITEM>;

/** GET /users/{userId}/meetings and /webinars: the paging fields and the items under the kind's collection. */
export const V2_SESSION_PAGES = {
  meetings: looseFields({ ...V2_NUMBERED_PAGE, meetings: z.array(V2_SESSION_LIST_ITEM) }),
  webinars: looseFields({ ...V2_NUMBERED_PAGE, webinars: z.array(V2_SESSION_LIST_ITEM) }),
} as const;
