import type { FieldTable } from './field-map.js';

/**
 * The one way a v1 answer object is built: a shape (data, in mappings/) lists its fields in the
 * order of the v1 reference's example and what v1 answered for a field with no value; `answer`
 * fills each field from the first source that has a value for it.
 */
export interface AnswerShape {
  /** The v1 fields, in the order of the v1 reference's example. */
  readonly fields: readonly string[];
  /**
   * What v1 answered for a field no source has a value for (`""`, `0`, `false`). A field not
   * listed here is left out of the answer when it has no value.
   */
  readonly whenAbsent?: Readonly<Record<string, unknown>>;
  /**
   * Fields v1 answered twice, under a second key with the same value (a misspelt key clients read):
   * second key → the field it repeats, which comes before it in `fields`.
   */
  readonly copies?: Readonly<Record<string, string>>;
  /**
   * The JSON type of fields whose type the live service's answers settle where the v2 value's type
   * or the reference's example says otherwise (docs/live-evidence.md): the one place a field's wire
   * type is decided. A field not listed is answered with the type its source gives it.
   */
  readonly wire?: Readonly<Record<string, WireType>>;
}

/** A v1 answer field's JSON type, as the live service answered it. */
export type WireType = 'number' | 'string';

/**
 * Where field values come from: an object read by field name (a v2 object, a table's `toV1`), or
 * a function of the field name (fields the translator computes; it answers undefined for others).
 */
export type AnswerSource = object | FieldLookup;
type FieldLookup = (field: string) => unknown;

const isLookup = (source: AnswerSource): source is FieldLookup => typeof source === 'function';

/**
 * The v1 answer of `shape`: each field from the first source with a value for it, else the shape's
 * value when absent. undefined and null are no value: v1 never answered null. Resolved field by
 * field, never by merging the sources into one object first: this is on the hot path of every read
 * (a ~40-key spread of three objects cost six times as much as the lookups).
 */
export function answer(shape: AnswerShape, ...sources: readonly AnswerSource[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const { whenAbsent, copies, wire } = shape;
  for (const field of shape.fields) {
    const copyOf = copies?.[field];
    if (copyOf !== undefined) {
      if (out[copyOf] !== undefined) out[field] = out[copyOf];
      continue;
    }
    const value = firstValue(field, sources) ?? whenAbsent?.[field];
    if (value === undefined) continue;
    const type = wire?.[field];
    out[field] = type === undefined ? value : onWire(value, type);
  }
  return out;
}

/**
 * A value in its wire type. Decimal digits become a number only while they are a safe integer: a
 * session number past 2^53 (none exists; they have 9 to 11 digits) stays the exact string rather
 * than be rounded. What is neither a number nor digits (`""` for a missing value) is left as it is.
 */
export function onWire(value: unknown, type: WireType): unknown {
  if (type === 'string') return typeof value === 'number' ? String(value) : value;
  if (typeof value !== 'string' || !DIGITS.test(value)) return value;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : value;
}

const DIGITS = /^\d+$/;

function firstValue(field: string, sources: readonly AnswerSource[]): unknown {
  for (const source of sources) {
    // A source object is read by field name; its declared type need not have an index signature.
    const value = isLookup(source) ? source(field) : (source as Record<string, unknown>)[field];
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
}

/** The v1 fields a table answers (its output rows), in the table's order: the fields of a shape built on it. */
export function outputFieldsOf(table: FieldTable): string[] {
  return table.filter((row) => row.direction !== 'in').map((row) => row.v1);
}

/** The fields of a table answered in the table's order, with `fallback` (else `""`) for what v2 lacks. */
export function everyFieldOf(table: FieldTable, fallback: Readonly<Record<string, unknown>> = {}): AnswerShape {
  const fields = outputFieldsOf(table);
  return { fields, whenAbsent: Object.fromEntries(fields.map((field) => [field, fallback[field] ?? ''])) };
}
