import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { startTestGateway, type TestGateway } from './gateway.js';
import { LIVE_TYPES } from './live-types.js';

/**
 * What a v1 answer must look like, for the gateway tests of every area: the v1 reference's
 * example answers (`spec/reference/v1-swagger.json`, one real 200 answer per v1 path), the
 * exact-shape assertion built on them, the v1 error assertion and the v1 timestamp; and the
 * fixtures several areas make the same way (gateway options, unique emails, a v2 user).
 */

const swaggerPath = fileURLToPath(new URL('../../spec/reference/v1-swagger.json', import.meta.url));
const swagger = JSON.parse(readFileSync(swaggerPath, 'utf8')) as {
  paths: Record<string, { post: { responses: { '200': { examples: { 'application/json': any } } } } }>;
};

/** The v1 reference's example answer of a v1 path. */
export function v1Example(path: string): any {
  const entry = swagger.paths[path];
  if (!entry) throw new Error(`The v1 reference has no ${path}`);
  return entry.post.responses['200'].examples['application/json'];
}

/** A JSON value's type, telling arrays and null apart from objects. */
export type JsonType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null';

export const jsonType = (value: unknown): JsonType =>
  Array.isArray(value) ? 'array' : value === null ? 'null' : (typeof value as JsonType);

/** A v1 answer's shape: every field it has, and no other, with its JSON type. */
export type V1Shape = Readonly<Record<string, JsonType>>;

/**
 * The shape of the v1 reference's example for `path`; with `item`, of the first element of a
 * list in it (`'meetings'`, or `'meetings.recording_files'` for a list in a list's items). Six
 * examples spell `option_enforce_login_domains ` with a trailing space: v1gate answers that key
 * right after the unspaced one, so the shape has both there. Where the live service answered
 * another type than the example shows (numeric session ids: docs/live-evidence.md), the shape has
 * the live type (./live-types.ts).
 */
export function v1ExampleShape(path: string, item?: string): V1Shape {
  let example = v1Example(path);
  for (const list of item ? item.split('.') : []) {
    example = example?.[list]?.[0];
    if (example === undefined) throw new Error(`The v1 reference's ${path} example has no ${item} item`);
  }
  const live = LIVE_TYPES[path] ?? {};
  const typeOf = (field: string, value: unknown) => live[item ? `${item}.${field}` : field] ?? jsonType(value);
  return Object.fromEntries(
    Object.entries(example as object).flatMap(([field, value]) =>
      field === field.trim()
        ? [[field, typeOf(field, value)]]
        : [
            [field.trim(), typeOf(field.trim(), value)],
            [field, typeOf(field.trim(), value)],
          ],
    ),
  );
}

/**
 * The answer is a v1 success with exactly the fields of `shape`, each of its JSON type.
 * `inOrder`: the fields also come in the shape's order.
 */
export function expectV1Shape(answer: any, shape: V1Shape, options: { inOrder?: boolean } = {}): void {
  expect(answer?.error, JSON.stringify(answer)).toBeUndefined();
  const fields = Object.keys(shape);
  if (options.inOrder) expect(Object.keys(answer)).toEqual(fields);
  else expect(Object.keys(answer).sort()).toEqual([...fields].sort());
  for (const [field, type] of Object.entries(shape)) expect(jsonType(answer[field]), `${field} in ${JSON.stringify(answer)}`).toBe(type);
}

/**
 * The answer has exactly the fields of the v1 reference's example for `path` (or of its `item`,
 * see v1ExampleShape), each of the example's JSON type. `fields` names the expected fields where
 * our spec answers other fields than the example; each must still be one the example types.
 */
export function expectExampleShape(
  answer: any,
  path: string,
  options: { item?: string; fields?: readonly string[]; inOrder?: boolean } = {},
): void {
  const example = v1ExampleShape(path, options.item);
  expectV1Shape(answer, options.fields ? pickShape(example, options.fields, path) : example, options);
}

/** The types `shape` gives `fields`, in the order of `fields`; each must be one `shape` types. */
export function pickShape(shape: V1Shape, fields: readonly string[], source = 'the reference'): V1Shape {
  for (const field of fields) expect(shape[field], `${source} types ${field}`).toBeDefined();
  return Object.fromEntries(fields.map((field) => [field, shape[field]!]));
}

/** v1 answers a v1 error with this code (and a message equal to a string, or matching a RegExp, when given). */
export function expectV1Error(answer: any, code: number, message?: RegExp | string): void {
  expect(answer?.error, JSON.stringify(answer)).toBeDefined();
  expect(answer.error.code, JSON.stringify(answer)).toBe(code);
  if (typeof message === 'string') expect(answer.error.message).toBe(message);
  else if (message) expect(answer.error.message).toMatch(message);
}

/** A v1 timestamp (`2012-11-25T12:00:00Z`). */
export const V1_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** Functional tests: the v1 and v2 limits have tests of their own and would only pace these. */
export const NO_LIMITS = { V1_RATE_LIMITS: 'off', V2_RATE_LIMITS: 'off' };

/** A start time safely in the future, for meetings and webinars. */
export const FUTURE = '2035-06-03T15:00:00Z';

let counter = 0;
/** An email no other test uses. */
export const uniqueEmail = (tag = 'user') => `${tag}.${process.pid}.${Date.now()}.${++counter}@example.com`;

/**
 * A fresh active user made directly in v2 (the fixture side of side-by-side tests): a unique
 * email, type 2, Ada Lovelace, unless `info` says otherwise.
 */
export async function v2User(
  gw: TestGateway,
  info: Record<string, unknown> = {},
  action = 'custCreate',
): Promise<{ id: string; email: string }> {
  const answer = await gw.v2('POST', '/users', {
    body: { action, user_info: { email: uniqueEmail(), type: 2, first_name: 'Ada', last_name: 'Lovelace', ...info } },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

/**
 * A gateway without limits over a fresh sandbox, with two hosts of its account: the owner, and
 * another user (`otherEmail`) for the "another host's session" errors.
 */
export async function gatewayWithTwoHosts(otherEmail: string): Promise<{ gw: TestGateway; ownerId: string; otherId: string }> {
  const gw = await startTestGateway(NO_LIMITS);
  const ownerId = (await gw.v2('GET', '/users/me')).body.id as string;
  const otherId = (await v2User(gw, { email: otherEmail })).id;
  return { gw, ownerId, otherId };
}
