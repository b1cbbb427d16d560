import { compiledFrom, literal, madeByConstructor } from './compile.js';
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
 * (a ~40-key spread of three objects cost six times as much as the lookups). Built by the shape's
 * compiled builder (below), which answers what `answerByWalk` answers.
 */
export function answer(shape: AnswerShape, ...sources: readonly AnswerSource[]): Record<string, unknown> {
  return builderOf(shape)(sources);
}

/** The answer built by walking the shape's field list: what a shape's compiled builder must answer, key for key and in order. */
export function answerByWalk(shape: AnswerShape, ...sources: readonly AnswerSource[]): Record<string, unknown> {
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

type Builder = (sources: readonly AnswerSource[]) => Record<string, unknown>;

/**
 * Each shape's builder, compiled on its first use and kept while the shape lives. A shape must not
 * change after its first use (none does: shapes are module constants of mappings/).
 */
const builders = new WeakMap<AnswerShape, Builder>();

function builderOf(shape: AnswerShape): Builder {
  let builder = builders.get(shape);
  if (!builder) builders.set(shape, (builder = compiledBuilder(shape)));
  return builder;
}

/**
 * The shape's builder as a function of its own, one statement per field with the field's name
 * written in (the way a schema compiler builds a serialiser from a schema), and what each field
 * copies, falls back to and is typed as looked up once, here. A walk of the fields stores each
 * by a name read from a list, and V8 turns an object given more than a dozen properties that way
 * into a hash table; stored by names written in the code, an answer keeps its fast layout, which
 * JSON.stringify writes about a third faster and Object.keys reads in a fiftieth of the time (a
 * meeting's 24 fields, bench/RESULTS.md). Each field's sources are read by its name written in
 * too (`firstValueCode`): one read site per field sees the two or three kinds of source of its
 * shape's callers, where `firstValue`'s one site saw every source of every field of every shape.
 * The answer is built by a constructor (`madeByConstructor`), so V8 sizes it for its fields.
 * Names enter the code only as JSON string literals, values only through the arrays handed in.
 * Where code cannot be made from text, the shape is built by walking it.
 */
function compiledBuilder(shape: AnswerShape): Builder {
  const { whenAbsent, copies, wire } = shape;
  const absent = shape.fields.map((field) => whenAbsent?.[field]);
  const types = shape.fields.map((field) => wire?.[field]);
  const copied = shape.fields.map((field) => copies?.[field]);
  const statements = shape.fields.map((field, i) => {
    const key = literal(field);
    const copyOf = copied[i];
    if (copyOf !== undefined) {
      // A copy of a field named by a string is read by that name written in; any other (an inherited member of `copies`) as the walk reads it.
      const from = typeof copyOf === 'string' ? `this[${literal(copyOf)}]` : `this[copied[${i}]]`;
      return `if (${from} !== undefined) this[${key}] = ${from};`;
    }
    const value = `${firstValueCode(key)} if (value === undefined) value = absent[${i}];`;
    return `${value} if (value !== undefined) this[${key}] = ${types[i] === undefined ? 'value' : `onWire(value, types[${i}])`};`;
  });
  const body = madeByConstructor('sources', `const n = sources.length; let value, source, i; ${statements.join(' ')}`);
  const name = `answer/${shape.fields.slice(0, 3).join('-')}`;
  return compiledFrom<Builder>(name, { onWire, absent, types, copied }, body) ?? ((sources) => answerByWalk(shape, ...sources));
}

/**
 * `firstValue` of one field written out: `value` is the first source's value for the field that
 * is neither undefined nor null, else undefined; a function source is called with the name.
 */
function firstValueCode(key: string): string {
  return (
    `value = undefined; for (i = 0; i < n; i++) { source = sources[i]; ` +
    `value = typeof source === 'function' ? source(${key}) : source[${key}]; ` +
    `if (value !== undefined && value !== null) break; value = undefined; }`
  );
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
