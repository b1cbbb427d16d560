import type { Context } from 'hono';
import { z } from 'zod';
import { badRequest, validationFailed, type V2FieldError } from './errors.js';

/**
 * Request validation the way v2 answers it: a body that is not a JSON object is
 * `400 {code:300, message:"Request Body should be a valid JSON object."}`; a body or query that breaks a
 * rule is `400 {code:300, message:"Validation Failed.", errors:[{field, message}]}` with dotted paths.
 */

export const INVALID_JSON_MESSAGE = 'Request Body should be a valid JSON object.';

export function fieldErrors(error: z.ZodError): V2FieldError[] {
  return error.issues.flatMap((issue) => {
    // A strict object reports its unknown keys once, on the parent; v2 names each offending field.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: [...issue.path, key].map(String).join('.'), message: 'Unknown field.' }));
    }
    return [{ field: issue.path.map(String).join('.') || '(body)', message: issue.message }];
  });
}

/** Parse `data` with `schema`, or throw the v2 400 naming every invalid field. */
export function check<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw validationFailed(fieldErrors(result.error));
  return result.data;
}

/** Read the JSON object body; an empty body counts as `{}` when `allowEmpty` (every PATCH field is optional). */
export async function readJsonObject(c: Context, { allowEmpty = false } = {}): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === '') {
    if (allowEmpty) return {};
    throw badRequest(INVALID_JSON_MESSAGE);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest(INVALID_JSON_MESSAGE);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest(INVALID_JSON_MESSAGE);
  return parsed as Record<string, unknown>;
}

/** Read and validate the JSON body in one step. */
export async function readBody<S extends z.ZodType>(c: Context, schema: S, opts?: { allowEmpty?: boolean }): Promise<z.output<S>> {
  return check(schema, await readJsonObject(c, opts));
}

/** Validate the query string (all values are strings; use `z.coerce` or the helpers below for numbers). */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  return check(schema, c.req.query());
}

/** Query integer: a decimal string within [min, max]. */
export const queryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d+$/, 'Must be an integer.')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/** Meeting and webinar password rule: a-z A-Z 0-9 @ - _ *, at most 10 characters. */
export const meetingPassword = z
  .string()
  .max(10, 'Password must be at most 10 characters.')
  .regex(/^[a-zA-Z0-9@\-_*]*$/, 'Password may only contain a-z A-Z 0-9 @ - _ *.');

/** ISO 8601 date-time as the service accepts it: `yyyy-MM-ddTHH:mm:ss` with an optional `Z`. */
export const dateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z?$/, 'Must be a date-time such as 2012-11-25T12:00:00Z.');
