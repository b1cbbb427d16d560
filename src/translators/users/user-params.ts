import type { z } from 'zod';
import { USER_FIELDS, USER_MEMBERSHIPS } from '../../../mappings/user-fields.js';
import { USER_OPTIONS, USER_OPTION_COMPOSITES, USER_RECORDING_VIEWS } from '../../../mappings/user-options.js';
import { missingParameter } from '../../v1/errors.js';
import { compositeInputShape, inputShape, type FieldTable } from '../../v1/field-map.js';
import { v1 } from '../../v1/param-types.js';

/** The v1 parameters the user endpoints share, built from the mapping tables. */

/** A v1 user id (v2 takes it, or an email, as `{userId}`). */
export const userId = () => v1.id();

const userFieldShape = inputShape(USER_FIELDS);

/** Some of the user-object fields (`first_name`, `dept`, ...), by v1 name. */
export function userFields<K extends keyof typeof userFieldShape>(...names: K[]): Pick<typeof userFieldShape, K> {
  return Object.fromEntries(names.map((name) => [name, userFieldShape[name]])) as Pick<typeof userFieldShape, K>;
}

/** The user `type` the creates require: the table's type, not optional. */
export const requiredUserType = () => userFieldShape.type.unwrap();

const optionShape = inputShape(USER_OPTIONS);

/** Some of the option-set fields, by v1 name (ssocreate takes only the capacities). */
export function optionFields<K extends keyof typeof optionShape>(...names: K[]): Pick<typeof optionShape, K> {
  return Object.fromEntries(names.map((name) => [name, optionShape[name]])) as Pick<typeof optionShape, K>;
}

/** `group_id` and `imgroup_id`. */
export const membershipShape: Record<string, z.ZodType> = Object.fromEntries(USER_MEMBERSHIPS.map((row) => [row.v1, row.type.optional()]));

/**
 * The v1 "shared user option set" (inputs of the create variants and of update): the settings
 * table (with the dropped `track_id`), its composites, the memberships, `dept`, `first_name`, `last_name`.
 */
export const sharedOptionSet = {
  ...optionShape,
  ...compositeInputShape(USER_OPTION_COMPOSITES),
  ...membershipShape,
  ...userFields('first_name', 'last_name', 'dept'),
};

/** /user/update also takes the recording views and the rest of the user object's fields. */
export const updateOptionSet = {
  ...sharedOptionSet,
  ...inputShape(USER_RECORDING_VIEWS),
  ...userFieldShape,
};

/** The tables that say where each user field goes (for v2 field errors and the docs). */
export const USER_TABLES = [USER_FIELDS, USER_OPTIONS, USER_RECORDING_VIEWS] as const;

/**
 * The rows of the user tables an endpoint uses: those of the params it reads and of the fields it
 * answers (so docs/coverage.md lists, per endpoint, exactly the fields it moves).
 */
export function tablesFor(params: Record<string, z.ZodType>, answer: readonly string[] = []): FieldTable[] {
  const used = new Set([...Object.keys(params), ...answer]);
  return USER_TABLES.map((table) => table.filter((row) => used.has(row.v1))).filter((table) => table.length > 0);
}

/** v2 field paths that are not table rows: POST /users sends the names, type and password in `user_info`. */
export const USER_V2_NAMING = {
  overrides: {
    'user_info.email': 'email',
    'user_info.type': 'type',
    'user_info.first_name': 'first_name',
    'user_info.last_name': 'last_name',
    'user_info.password': 'password',
  },
};

/**
 * "id or email, id wins": the v2 `{userId}` to use. v2 takes either in the path; with neither,
 * the v1 error names both fields.
 */
export function idOrEmail(id: string | undefined, email: string | undefined, emailField: string): string {
  const ref = id ?? email;
  if (ref === undefined) throw missingParameter(`id or ${emailField}`);
  return ref;
}
