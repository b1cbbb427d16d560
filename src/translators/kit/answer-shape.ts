import type { V2Route } from '../../v2-contract/v2-route.js';
import { z } from 'zod';
import { UpstreamUnavailable } from '../../upstream/errors.js';
import { answeringAsGiven, declareCheckedBy, declaredFieldsOf, declareLooseFields } from './answer-check.js';

/**
 * The shape check of a v2 answer: each call that reads its answer names a zod schema of the fields
 * the translator reads, and the answer is parsed against it before the translator sees it. A 2xx
 * that does not fit (a `[]`, a `{}`, a field of the wrong type) is the upstream's fault, answered as
 * a bad upstream answer, never as a v1 success with fields missing.
 */

/** The answer of a POST or GET whose answer is not read: any answer will do, and the call says so. */
export const NOT_READ = z.unknown();

/** What a PATCH, PUT or DELETE answers: v2's 204, nothing to read (the answer table names it for each). */
export const NO_CONTENT = 'no content';

/**
 * An object the translator reads by key (through a mapping table, or a few keys by name): checked to
 * be an object and no deeper, and not copied (a `looseObject` copies every key, and a settings object
 * has dozens), so a v1 call pays for the shape of what it reads and no more.
 */
const isRecord = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
export const OBJECT_READ_BY_KEY = z.custom<Record<string, unknown>>(isRecord, { params: { expected: 'object' } });
declareCheckedBy(OBJECT_READ_BY_KEY, isRecord);

/**
 * The schema of a v2 object of which the translator reads `fields`: those are checked (with
 * z.object's compiled fast path), and the answer itself is handed on as it came, unknown keys and
 * all (the mapping tables read fields by name). What `z.looseObject(fields)` checks and types, without
 * its cost: it copies every key of every object, 3.4 µs for one v2 user of 23 keys and over a
 * millisecond for a page of 300, against 0.25 µs and 46 µs here.
 */
export function looseFields<Fields extends z.ZodRawShape>(fields: Fields) {
  const check = z.object(fields);
  const schema = z.custom<z.output<z.ZodObject<Fields, z.core.$loose>>>().superRefine((value, ctx) => {
    const result = check.safeParse(value);
    // A copy: an issue literal, as addIssue takes, rather than the interface zod reports it as.
    if (!result.success) for (const issue of result.error.issues) ctx.addIssue({ ...issue });
  });
  // Kept for the compiled check (answer-check.ts) and for readers of the declarations (the way-out recipe reads a list's items).
  declareLooseFields(schema, fields);
  return schema;
}

/** The fields a v2 answer schema declares (a `looseFields` schema's); undefined for any other schema. */
export const fieldsOf = (schema: unknown): Readonly<z.ZodRawShape> | undefined =>
  typeof schema === 'object' && schema !== null ? declaredFieldsOf(schema as z.ZodType) : undefined;

/**
 * The answer parsed by `schema`, or the upstream error for "a 2xx that is not a v2 answer" naming
 * the route (`GET /users/{userId}`, never the ids of the path) and the first field that does not
 * fit. The message never carries the answer's values. A call other than a GET may have been
 * applied before its answer turned out wrong, as the client says of any bad answer to a write.
 */
export function checkedAnswer<S extends z.ZodType>(schema: S, answer: unknown, route: V2Route): z.output<S> {
  // The schema's compiled check (answer-check.ts): what it accepts, zod would answer as it came.
  if (answeringAsGiven(schema)?.(answer)) return answer as z.output<S>;
  const result = schema.safeParse(answer);
  if (result.success) return result.data;
  throw new UpstreamUnavailable('bad-response', `The v2 service answered ${route.name} ${misfitOf(result.error.issues[0])}.`, !route.reads);
}

/**
 * The answer, checked further for what one translator cannot do without and its route's one schema
 * leaves optional (a user's `status` for /user/delete): a misfit is the same upstream error as the
 * route's own check gives, and the answer is handed on as it came, typed with the fields checked.
 */
export function answerWith<T, S extends z.ZodType>(answer: T, fields: S, route: V2Route): T & z.output<S> {
  checkedAnswer(fields, answer, route);
  return answer as T & z.output<S>;
}

/** What is wrong, in words that name the field and the expected type, never the value given. */
function misfitOf(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'with an answer that does not fit';
  const field = fieldName(issue.path);
  const expected = expectedTypeOf(issue);
  if (expected) return field ? `without ${expected} \`${field}\`` : `with something other than ${expected}`;
  return field ? `with an unexpected \`${field}\`` : 'with an answer that does not fit';
}

/** `a string`; for a union of types (a session number is a number or a string), `a number or string`. */
function expectedTypeOf(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code === 'invalid_type') return TYPE_NAMES[issue.expected] ?? `a ${issue.expected}`;
  if (issue.code === 'custom' && typeof issue.params?.['expected'] === 'string') return TYPE_NAMES[issue.params['expected']];
  if (issue.code !== 'invalid_union') return undefined;
  const types: string[] = [];
  for (const branch of issue.errors) {
    const first = branch[0];
    if (first?.code !== 'invalid_type' || first.path.length > 0) return undefined;
    types.push(first.expected);
  }
  if (types.length === 0) return undefined;
  return `${/^[aeiou]/.test(types[0]!) ? 'an' : 'a'} ${types.join(' or ')}`;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
};

/** `meetings[0].id`; empty for the answer itself. */
function fieldName(path: readonly PropertyKey[]): string {
  let name = '';
  for (const key of path) {
    if (typeof key === 'number') name += `[${key}]`;
    else name += name ? `.${String(key)}` : String(key);
  }
  return name;
}
