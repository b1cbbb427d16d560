import { z } from 'zod';
import { V2_NUMBERED_PAGE } from '../v2-paging.js';
import { looseFields, OBJECT_READ_BY_KEY } from '../answer-shape.js';

/**
 * The v2 user answers the translators read, as zod schemas of the fields they read (the rest
 * are kept: the mapping tables read the user and its settings by name). `id` is required although
 * the v2 OpenAPI marks no field of a user but `email` and `type` required: every v2 user answer
 * names its user, and the translators address the user's further calls by it.
 */

/**
 * GET /users/{userId}, and an item of GET /users: every field a translator reads of a user. The v2
 * OpenAPI promises neither `account_id` nor `status`, so they are optional here; a translator that
 * cannot answer without one checks it with `answerWith` (kit/answer-shape.ts), which fails as this
 * check would. A user may have no time zone.
 */
export const V2_USER = looseFields({
  id: z.string(),
  email: z.string(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  account_id: z.string().optional(),
  status: z.string().optional(),
  timezone: z.string().optional(),
});
export type V2User = z.output<typeof V2_USER>;

/** GET /users/{userId}/settings: read through the settings tables by path, so only its being an object is checked. */
export const V2_SETTINGS = OBJECT_READ_BY_KEY;
export type V2Settings = z.output<typeof V2_SETTINGS>;

/** GET /users/{userId}/token. */
export const V2_TOKEN = looseFields({ token: z.string() });

/** GET /users (paging by number). */
export const V2_USER_PAGE = looseFields({ ...V2_NUMBERED_PAGE, users: z.array(V2_USER) });

/** GET /users/email. */
export const V2_EMAIL_EXISTS = looseFields({ existed_email: z.boolean() });

/** POST /users: the new user's id (the rest is read back with GET /users/{userId}). */
export const V2_CREATED_USER = looseFields({ id: z.string() });

/** GET /users/{userId}/schedulers (and /assistants): the users named, by id. */
export const V2_ASSISTANTS = looseFields({ assistants: z.array(looseFields({ id: z.string() })) });
