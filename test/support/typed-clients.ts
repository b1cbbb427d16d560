import { expect } from 'vitest';
import { LIVE_TYPES } from './live-types.js';
import { jsonType, v1Example, type JsonType } from './v1-answers.js';

/**
 * What typed v1 clients decode, per v1 path: the oracle of docs/live-evidence.md. A Go struct with
 * `ID int`, a C# `long Id`, a Java cast fail at the first answer whose field has another JSON type,
 * and a nightly job that parses `duration` as a clock time fails at the first `"20 mins"`.
 *
 * Each path's schema is its reference example's JSON types (the reference was the clients' manual),
 * with the types the live service's own answers settled otherwise (`LIVE_TYPES`, ./live-types.ts), and the formats
 * the clients parse: times as RFC 3339 (`2012-11-25T12:00:00Z`) or `""` where there is none,
 * dashboard durations as clock times, numeric ids as safe integers. Fields a typed client ignores
 * (ones its struct does not name) are not judged; the fields the evidence settles must be there.
 */

/** The fields whose text the clients parse, by format. */
type Format = 'time' | 'clock' | 'safe-integer';

/** `2012-11-25T12:00:00Z`, or `""` for no time (Go's v1 `Time` type reads both). */
const TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)?$/;
/** `MM:SS` or `HH:MM:SS` (hours may pass 23), or `""` for a session still going on. */
const CLOCK = /^((\d{2,}:)?[0-5]\d:[0-5]\d)?$/;

const TIME_FIELDS = new Set([
  'created_at',
  'start_time',
  'end_time',
  'join_time',
  'leave_time',
  'create_time',
  'registration_time',
  'recording_start',
  'recording_end',
  'last_login_time',
  'lastLoginTime',
  'last_message_send_time',
  'date_time',
  'dateTime',
  'updated_at',
  'deleted_at',
  'ended_at',
  'activated_at',
  'deactivated_at',
  'add_at',
  'last_modified_time',
  'subscription_start_time',
  'subscription_end_time',
]);
/** The dashboards' session lists and details print the elapsed time; elsewhere `duration` is minutes. */
const CLOCK_PATHS = new Set([
  '/metrics/meetings',
  '/metrics/webinars',
  '/metrics/meetingdetail',
  '/metrics/webinardetail',
  '/metrics/zoomroomdetail',
]);
const ID_FIELDS = new Set(['id', 'meeting_number', 'number', 'meeting_id']);

/** One field of a typed client's schema. */
export interface FieldSchema {
  readonly type: JsonType;
  readonly format?: Format;
  /** The evidence settles this field: the answer must have it. */
  readonly required: boolean;
}

/** The typed-client schema of a v1 path: dotted field → its schema. */
export function typedClientSchema(path: string): ReadonlyMap<string, FieldSchema> {
  const live = LIVE_TYPES[path] ?? {};
  const schema = new Map<string, FieldSchema>();
  const walk = (value: unknown, prefix: string) => {
    for (const [rawKey, field] of Object.entries(value as object)) {
      // The reference's keys with a stray space (`"option_enforce_login_domains "`) are answered both ways.
      const key = rawKey.trim();
      const name = prefix + key;
      const type = live[name] ?? jsonType(field);
      const format = formatOf(path, key, type, field);
      schema.set(name, { type, required: name in live, ...(format ? { format } : {}) });
      if (type === 'object') walk(field, `${name}.`);
      if (type === 'array' && jsonType((field as unknown[])[0]) === 'object') walk((field as unknown[])[0], `${name}.`);
    }
  };
  walk(v1Example(path), '');
  for (const name of Object.keys(live)) expect(schema.has(name), `${path}: ${name} is a field of the reference's example`).toBe(true);
  return schema;
}

function formatOf(path: string, key: string, type: JsonType, example: unknown): Format | undefined {
  // A date field (crc's `date_time`: `"2015-03-12"`) is no time: the example says which it is.
  if (type === 'string' && TIME_FIELDS.has(key) && (example === '' || String(example).includes('T'))) return 'time';
  if (type === 'string' && key === 'duration' && CLOCK_PATHS.has(path)) return 'clock';
  if (type === 'number' && ID_FIELDS.has(key)) return 'safe-integer';
  return undefined;
}

/** Every field of `answer` a typed client of `path` decodes has the type and format it expects. */
export function expectTypedClientsRead(path: string, answer: unknown): void {
  expect((answer as { error?: unknown })?.error, `${path}: ${JSON.stringify(answer)}`).toBeUndefined();
  const schema = typedClientSchema(path);
  const seen = new Set<string>();
  const check = (value: unknown, prefix: string) => {
    for (const [key, field] of Object.entries(value as object)) {
      const name = prefix + key.trim();
      const expected = schema.get(name);
      if (!expected) continue;
      seen.add(name);
      const where = `${path} ${name} = ${JSON.stringify(field)}`;
      expect(jsonType(field), where).toBe(expected.type);
      if (expected.format === 'time') expect(field, where).toMatch(TIME);
      if (expected.format === 'clock') expect(field, where).toMatch(CLOCK);
      if (expected.format === 'safe-integer') expect(Number.isSafeInteger(field), where).toBe(true);
      if (expected.type === 'object') check(field, `${name}.`);
      if (expected.type === 'array') for (const item of field as unknown[]) if (jsonType(item) === 'object') check(item, `${name}.`);
    }
  };
  check(answer, '');
  for (const [name, field] of schema)
    if (field.required && hasItems(answer, name)) expect(seen.has(name), `${path}: typed clients need ${name}`).toBe(true);
}

/** Whether the lists on the way to a dotted field have items (an empty list settles nothing about its items). */
function hasItems(answer: unknown, name: string): boolean {
  let value: unknown = answer;
  for (const part of name.split('.').slice(0, -1)) {
    value = (value as Record<string, unknown>)?.[part];
    if (Array.isArray(value)) {
      if (value.length === 0) return false;
      value = value[0];
    }
  }
  return true;
}
