import { z } from 'zod';
import { isKnownTimeZone } from '../../shared/time-zone.js';

/**
 * Request schemas of the users area, built from one set of field rules so that POST /users,
 * PATCH /users/{userId} and the other writes enforce each limit of the v2 spec the same way.
 * Bodies are strict: an unknown field is a 400 naming it, so a client's misspelt field (a v1gate
 * translator bug, say) is caught here instead of being silently dropped.
 */

/** zod `error` option: "Required." for a missing value, `message` for a wrong one. */
export const orRequired = (message: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'Required.' : message),
});

const hanCharacters = (text: string) => text.match(/\p{Script=Han}/gu)?.length ?? 0;

/** First and last names: max 64 characters, of which at most 5 Chinese ones. */
export const userName = z
  .string(orRequired('Must be a string.'))
  .max(64, 'Must be at most 64 characters.')
  .refine((name) => hanCharacters(name) <= 5, 'Must not contain more than 5 Chinese characters.');

export const userEmail = z.email(orRequired('Invalid email address.')).max(128, 'Must be at most 128 characters.');

/** Today's user types: 1 basic, 2 licensed, 4 unassigned without Meetings Basic, 99 none (3, corp, is gone). */
export const userType = z.literal(
  [1, 2, 4, 99],
  orRequired('Must be 1 (basic), 2 (licensed), 4 (unassigned without Meetings Basic) or 99 (none).'),
);

/** The spec says below 32 characters; the reference's minimum is 8. */
export const userPassword = z
  .string(orRequired('Must be a string.'))
  .min(8, 'Must be at least 8 characters.')
  .max(31, 'Must be fewer than 32 characters.');

/** Personal meeting ids are meeting numbers: exactly 10 digits, and no meeting number starts with 0. */
/** Today a number, as the documents type it (`integer`); its digits as text are taken too, as before. Kept as text. */
export const pmi = z
  .union([z.number().int(), z.string()], orRequired('Must be a number.'))
  .transform(String)
  .pipe(z.string().regex(/^[1-9]\d{9}$/, 'Must be exactly 10 digits, not starting with 0.'));

export const hostKey = z.string(orRequired('Must be a string.')).regex(/^\d{6}$/, 'Must be a 6-digit number.');

/**
 * The personal meeting room name ends up in a url path (`/my/{vanity_name}`): a letter, then letters,
 * digits, `.`, `_` or `-`, at most 40 in all. The empty string removes it.
 */
export const VANITY_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9._-]{0,39}$/;
export const vanityName = z
  .string(orRequired('Must be a string.'))
  .refine(
    (name) => name === '' || VANITY_NAME_PATTERN.test(name),
    'Must start with a letter and hold at most 40 letters, digits, ".", "_" or "-".',
  );

/** A timezone id, region/city style (`America/Los_Angeles`), as the runtime's time zone database knows them. */
export const timezone = z
  .string(orRequired('Must be a string.'))
  .refine(isKnownTimeZone, 'Must be a timezone id such as America/Los_Angeles.');

/** Query booleans arrive as text. */
export const queryBoolean = z.enum(['true', 'false'], orRequired('Must be true or false.')).transform((v) => v === 'true');

/** `login_type` of GET /users/{userId} and its settings: validated, and otherwise without effect here. */
export const loginTypeQuery = z.object({
  login_type: z.enum(['0', '1', '99', '100', '101'], orRequired('Must be 0, 1, 99, 100 or 101.')).optional(),
});

export const listUsersQuery = z.object({
  status: z.enum(['active', 'inactive', 'pending'], 'Must be active, inactive or pending.').optional(),
});

export const createActions = ['create', 'autoCreate', 'custCreate', 'ssoCreate'] as const;

export const createUserBody = z
  .strictObject({
    action: z.enum(createActions, orRequired('Must be create, autoCreate, custCreate or ssoCreate.')),
    user_info: z.strictObject(
      {
        email: userEmail,
        type: userType,
        first_name: userName.optional(),
        last_name: userName.optional(),
        password: userPassword.optional(),
      },
      orRequired('Must be an object.'),
    ),
  })
  .superRefine((body, ctx) => {
    if (body.user_info.password !== undefined && body.action !== 'autoCreate') {
      ctx.addIssue({ code: 'custom', path: ['user_info', 'password'], message: 'Only allowed with action autoCreate.' });
    }
  });

export const updateUserBody = z.strictObject({
  first_name: userName.optional(),
  last_name: userName.optional(),
  type: userType.optional(),
  pmi: pmi.optional(),
  use_pmi: z.boolean('Must be a boolean.').optional(),
  timezone: timezone.optional(),
  language: z
    .string('Must be a string.')
    .regex(/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/, 'Must be a language tag such as en-US.')
    .optional(),
  dept: z.string('Must be a string.').optional(),
  vanity_name: vanityName.optional(),
  host_key: hostKey.optional(),
  cms_user_id: z.string('Must be a string.').optional(),
});
export type UserUpdate = z.output<typeof updateUserBody>;

export const deleteUserQuery = z.object({
  action: z.enum(['disassociate', 'delete'], 'Must be disassociate or delete.').optional(),
  transfer_email: userEmail.optional(),
  transfer_meeting: queryBoolean.optional(),
  transfer_webinar: queryBoolean.optional(),
  transfer_recording: queryBoolean.optional(),
});

/** A user named by id or email in a list body (assistants); with an id, the email is ignored. */
const userRef = z
  .strictObject({
    id: z.string('Must be a string.').min(1, 'Must not be empty.').optional(),
    email: z.string('Must be a string.').optional(),
  })
  .refine((ref) => ref.id !== undefined || ref.email !== undefined, 'Give the id or the email of a user.');

export const assistantsBody = z.strictObject({
  assistants: z
    .array(userRef, orRequired('Must be an array.'))
    .min(1, 'Give at least one assistant.')
    .max(30, 'At most 30 assistants per request.'),
});

export const statusBody = z.strictObject({
  action: z.enum(['activate', 'deactivate'], orRequired('Must be activate or deactivate.')),
});

export const passwordBody = z.strictObject({ password: userPassword });

export const tokenQuery = z.object({
  type: z.enum(['token', 'zpk', 'zak', 'onbehalf'], 'Must be token, zpk, zak or onbehalf.').optional(),
});

const requiredText = z.string(orRequired('Must be a string.')).min(1, 'Required.');
export const emailLookupQuery = z.object({ email: requiredText });
export const vanityLookupQuery = z.object({ vanity_name: requiredText });
export const zpkLookupQuery = z.object({ zpk: requiredText });
