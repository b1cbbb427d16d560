import { z } from 'zod';
import { compiledToV1, compiledToV2, type ToV1, type ToV2 } from './table-compiled.js';
import {
  getKeys,
  setKeys,
  v1ByWalk,
  v2ByWalk,
  withDefaultsOf,
  withParamsOver,
  type CompiledInputRow,
  type CompiledOutputRow,
} from './table-walks.js';

/**
 * The engine behind the mapping tables in mappings/: each row says where one v1 field lives in
 * v2 and how its value changes on the way, and the engine reads the table in both directions —
 * v1 input → v2 body, v2 answer → v1 output, v2 error path → v1 field name (field-naming.ts) — and
 * renders it into docs/coverage.md. When a field moves, one row changes.
 */

/**
 * How a value changes between v1 and v2, one direction each: a row used on input needs `toV2`, a
 * row used on output needs `toV1` (FieldRow below), so a codec that only reads v2 answers cannot be
 * put on a row that writes v2 bodies: the compiler refuses it.
 */
export interface InputCodec<V1 = unknown, V2 = unknown> {
  readonly name: string;
  toV2(value: V1): V2;
}

export interface OutputCodec<V1 = unknown, V2 = unknown> {
  readonly name: string;
  toV1(value: V2): V1;
}

/** Both directions (a row used on input and output); `toV1` must undo `toV2`. */
export interface Codec<V1 = unknown, V2 = unknown> extends InputCodec<V1, V2>, OutputCodec<V1, V2> {}

export const same: Codec = { name: 'same', toV2: (v) => v, toV1: (v) => v };

/** v1 `disable_x` ↔ v2 `x`. */
export const negate: Codec<boolean, boolean> = { name: 'negated', toV2: (v) => !v, toV1: (v) => !v };

/** A fixed table of values (v1 value → v2 value), read both ways. */
export function enumCodec<const V1 extends string | number | boolean, const V2 extends string | number | boolean>(
  pairs: readonly (readonly [V1, V2])[],
): Codec<V1, V2> {
  const forward = new Map(pairs.map(([a, b]) => [a, b]));
  const backward = new Map(pairs.map(([a, b]) => [b, a]));
  return {
    name: `enum ${pairs.map(([a, b]) => `${String(a)}↔${String(b)}`).join(', ')}`,
    toV2(value) {
      if (!forward.has(value)) throw new Error(`No v2 value for v1 value ${String(value)}`);
      return forward.get(value)!;
    },
    toV1(value) {
      if (!backward.has(value)) throw new Error(`No v1 value for v2 value ${String(value)}`);
      return backward.get(value)!;
    },
  };
}

/**
 * A codec written as data: a table each way, and what a value the table does not hold becomes
 * (`same`: passes unchanged; `refuse`: an error, as an enum's; or a fixed value). The way-out recipe
 * carries the tables as they are (src/recipe/plan-values.ts), so its rule is this codec's own.
 */
export interface LookupTable {
  readonly toV2: readonly (readonly [unknown, unknown])[];
  readonly toV2Else: 'same' | 'refuse';
  readonly toV1: readonly (readonly [unknown, unknown])[];
  readonly toV1Else: 'same' | 'refuse' | { readonly value: unknown };
}

export type LookupCodec<V1, V2> = Codec<V1, V2> & { readonly lookup: LookupTable };

export function lookupCodec<V1, V2>(name: string, lookup: LookupTable): LookupCodec<V1, V2> {
  const apply = (pairs: LookupTable['toV2'], otherwise: LookupTable['toV1Else'], value: unknown) => {
    const pair = pairs.find(([from]) => from === value);
    if (pair) return pair[1];
    if (otherwise === 'same') return value;
    if (otherwise === 'refuse') throw new Error(`${name}: no value for ${String(value)}`);
    return otherwise.value;
  };
  return {
    name,
    lookup,
    toV2: (value) => apply(lookup.toV2, lookup.toV2Else, value) as V2,
    toV1: (value) => apply(lookup.toV1, lookup.toV1Else, value) as V1,
  };
}

/**
 * The rule of a codec of a JSON object sent in a v1 form field (`recurrence`), written as data: the
 * object's fields, each read as v2 takes it (`number`: digits in a string become the number;
 * `text`: a number becomes its text, spaces taken out; `string`: as it is); fields not named are
 * left out, as the v1 schema leaves them. The codec keeps its own functions, and a test holds the
 * rule to them (src/recipe/codec-rules.test.ts), so the recipe applies what the translator does.
 */
export interface JsonFieldsRule {
  readonly fields: Readonly<Record<string, 'number' | 'text' | 'string'>>;
}

/**
 * The v2 path of a row whose v1 field has no home in v2: a dropped input (below), or an output the
 * translator fills in itself (rendered as such in docs/coverage.md).
 */
export const NO_V2_FIELD = '(none)';

/** The codec of a dropped input: it answers undefined, which `toV2` leaves out of the v2 body. */
export const dropped: InputCodec<unknown, undefined> = { name: 'accepted and dropped', toV2: () => undefined };

/** How a row is used: `both` (input and output), `in` (v1 input only), `out` (v1 output only). */
export type Direction = 'both' | 'in' | 'out';

interface RowFields {
  /** The v1 field name. */
  v1: string;
  /** Dotted path of the v2 field (relative to the v2 object the table describes). */
  v2: string;
  /** The v1 parameter type (parses the form text); required for rows used on input. */
  type?: z.ZodType;
  /** The v1 default, applied when a v1 create omits the field (v1 and v2 defaults differ). */
  v1Default?: unknown;
  /** Other v1 spellings accepted on input (e.g. the branded names of old clients). */
  aliases?: readonly string[];
  /** Shown in docs/coverage.md: what is approximated, and why. */
  note?: string;
}

// A table mixes codecs of every value type; each row's codec is only ever applied to its own field's values.
/* eslint-disable @typescript-eslint/no-explicit-any */
/** One v1 field and where it lives in v2; its codec has the directions the row is used in (default both). */
export type FieldRow =
  | (RowFields & { direction?: 'both'; codec?: Codec<any, any> })
  | (RowFields & { direction: 'in'; codec?: InputCodec<any, any> })
  | (RowFields & { direction: 'out'; codec?: OutputCodec<any, any> });
/* eslint-enable @typescript-eslint/no-explicit-any */

export type FieldTable = readonly FieldRow[];

/** The kind of FieldRow a literal row is, by its direction. */
type RowKindOf<R> = R extends { direction: 'in' }
  ? Extract<FieldRow, { direction: 'in' }>
  : R extends { direction: 'out' }
    ? Extract<FieldRow, { direction: 'out' }>
    : Extract<FieldRow, { direction?: 'both' }>;

/** A literal row with the optional fields it leaves unset readable too (its own fields keep their literal types). */
export type LiteralRow<R> = R & { readonly [K in Exclude<keyof RowKindOf<R>, keyof R>]?: RowKindOf<R>[K] };

/**
 * A table that keeps each row's literal v1 name, parameter type, v2 path and codec (so `inputShape`
 * types the params it builds field by field, and `toV2` the body), each row still read as a FieldRow.
 */
export function fieldTable<const T extends FieldTable>(rows: T): { readonly [K in keyof T]: LiteralRow<T[K]> } {
  // Each row already is a FieldRow (the constraint); the added keys are the optional ones it leaves unset.
  return rows as { readonly [K in keyof T]: LiteralRow<T[K]> };
}

/**
 * "Accepted and dropped": a v1 input with no v2 home, kept so old clients keep working. It is
 * parsed (a bad value is still a v1 300 naming the field), then dropped — never written to v2,
 * never answered. `note` says why v2 has no place for it. Keeps the row's name and type literal.
 */
export function droppedField<const V1 extends string, T extends z.ZodType>(row: { v1: V1; type: T; note: string }) {
  return { v1: row.v1, v2: NO_V2_FIELD, type: row.type, codec: dropped, direction: 'in', note: row.note } as const satisfies FieldRow;
}

type InputRow = Exclude<FieldRow, { direction: 'out' }>;
type OutputRow = Exclude<FieldRow, { direction: 'in' }>;
const usedOnInput = (row: FieldRow): row is InputRow => row.direction !== 'out';
const usedOnOutput = (row: FieldRow): row is OutputRow => row.direction !== 'in';

/** What `withV1Defaults`, `toV2` and `toV1` read of a table: its input rows, output rows, input rows with a v1 default, and its compiled directions. */
interface CompiledTable {
  input: readonly CompiledInputRow[];
  output: readonly CompiledOutputRow[];
  defaults: readonly CompiledInputRow[];
  toV1: ToV1;
  toV2: ToV2;
  toV2WithDefaults: ToV2;
}

/**
 * Each table compiled on its first use and kept while the table lives: the tables are constants
 * read on every call, and filtering their rows and splitting their paths per call was a third of a
 * /meeting/create's translation (~20 µs of the 60-row meeting table, `npm run bench -- --only meeting-create`).
 * Each direction is then written out as code of its own (table-compiled.ts), else walked.
 * A table must not change after its first use (none does: they are module constants).
 */
const compiled = new WeakMap<FieldTable, CompiledTable>();

function compiledTable(table: FieldTable): CompiledTable {
  let plan = compiled.get(table);
  if (!plan) {
    const input = table.filter(usedOnInput).map((row): CompiledInputRow => ({
      v1: row.v1,
      aliases: row.aliases ?? [],
      codec: row.codec ?? same,
      v2Keys: segmentsOfPath(row.v2),
      v1Default: row.v1Default,
    }));
    const output = table
      .filter(usedOnOutput)
      .map((row): CompiledOutputRow => ({ v1: row.v1, codec: row.codec ?? same, v2Keys: segmentsOfPath(row.v2) }));
    const defaults = input.filter((row) => row.v1Default !== undefined);
    plan = {
      input,
      output,
      defaults,
      toV1: compiledToV1(output, same) ?? ((v2) => v1ByWalk(output, v2)),
      toV2: compiledToV2(input, false, same) ?? ((params) => v2ByWalk(input, params)),
      toV2WithDefaults: compiledToV2(input, true, same) ?? ((params) => v2ByWalk(input, withDefaultsOf(defaults, params))),
    };
    compiled.set(table, plan);
  }
  return plan;
}

/** The rows of a table a v1 call sends, with their parameter types. */
type InputRowOf<T extends FieldTable> = Extract<Exclude<T[number], { direction: 'out' }>, { type: z.ZodType }>;
type AliasesOf<R> = R extends { aliases: infer L extends readonly string[] } ? L[number] : never;

/**
 * The zod shape `inputShape` builds from a table: each input row's v1 name (and its aliases) with
 * the row's type, optional. A table declared `as const satisfies FieldTable` keeps its rows' names
 * and types, so params built from it are typed field by field; a table typed only `FieldTable`
 * gives a shape of any names.
 */
export type InputShape<T extends FieldTable> = string extends T[number]['v1']
  ? Record<string, z.ZodType>
  : { [R in InputRowOf<T> as R['v1'] | AliasesOf<R>]: z.ZodOptional<R['type']> };

/** The zod shape of a table's input fields, all optional (defaults are applied separately). */
export function inputShape<const T extends FieldTable>(table: T): InputShape<T> {
  const shape: Record<string, z.ZodType> = {};
  for (const row of table.filter(usedOnInput)) {
    if (!row.type) throw new Error(`Mapping row ${row.v1} is used on input but has no type`);
    shape[row.v1] = row.type.optional();
    for (const alias of row.aliases ?? []) shape[alias] = row.type.optional();
  }
  // Built field by field from the rows, which is what InputShape<T> says of them.
  return shape as InputShape<T>;
}

/** The params a table's v1 defaults leave given: each input row with a default, by its v1 name. */
type DefaultedOf<T extends FieldTable> = string extends T[number]['v1']
  ? unknown
  : { [R in Extract<InputRowOf<T>, { v1Default: NonNullable<unknown> }> as R['v1']]-?: Exclude<z.output<R['type']>, undefined> };

/** Fill in the v1 defaults of the rows the call omitted (v1 create semantics). */
export function withV1Defaults<T extends FieldTable, P extends Record<string, unknown>>(table: T, params: P): P & DefaultedOf<T> {
  // The params, and a value for every row with a default: what DefaultedOf says.
  return withDefaultsOf(compiledTable(table).defaults, params) as P & DefaultedOf<T>;
}

/** What a row writes into the v2 body: what its codec answers (undefined leaves the field out), else its parsed v1 value. */
type V2ValueOf<R> = R extends { codec: { toV2(value: never): infer O } }
  ? Exclude<O, undefined>
  : R extends { type: infer T extends z.ZodType }
    ? z.output<T>
    : unknown;

/** One field `toV2` may write: its dotted v2 path, its value, and whether the params always give it. */
interface V2Entry {
  path: string;
  given: boolean;
  value: unknown;
}

type IsGiven<P, Name> = Name extends keyof P ? (undefined extends P[Name] ? false : true) : false;
type EntryOf<R, P> = R extends { v1: infer Name; v2: infer Path extends string }
  ? { path: Path; given: IsGiven<P, Name>; value: V2ValueOf<R> }
  : never;
/** The rows `toV2` writes: those used on input that have a v2 home. */
type V2EntriesOf<T extends FieldTable, P> = EntryOf<Exclude<T[number], { direction: 'out' } | { v2: typeof NO_V2_FIELD }>, P>;

type HeadOf<Path> = Path extends `${infer Head}.${string}` ? Head : Path;
type EntriesUnder<E, Head extends string> = E extends { path: `${Head}.${infer Rest}`; given: infer G; value: infer V }
  ? { path: Rest; given: G; value: V }
  : never;
type NodeAt<E extends V2Entry, Head extends string> = [Extract<E, { path: Head }>] extends [never]
  ? V2Object<EntriesUnder<E, Head>>
  : Extract<E, { path: Head }>['value'];
type GivenHeads<E extends V2Entry> = HeadOf<Extract<E, { given: true }>['path']>;

/** The nested object of some entries: a key the params always give is required, the others optional. */
type V2Object<E extends V2Entry> = { [Head in GivenHeads<E>]: NodeAt<E, Head> } & {
  [Head in Exclude<HeadOf<E['path']>, GivenHeads<E>>]?: NodeAt<E, Head>;
};

/**
 * The v2 object `toV2` builds from a table and params: each input row's literal v2 path, nested,
 * with the value its codec gives (or its parsed v1 value); a field is required where the params
 * always hold its v1 field (a required param, or one `withV1Defaults` filled in), else optional. A
 * table typed only `FieldTable` gives a record of any keys.
 */
export type V2Body<T extends FieldTable, P = Record<string, unknown>> = string extends T[number]['v2']
  ? Record<string, unknown>
  : V2Object<V2EntriesOf<T, P>>;

/** v1 params → the nested v2 object, with only the fields the call gave (PATCH semantics). */
export function toV2<T extends FieldTable, P extends Record<string, unknown>>(table: T, params: P): V2Body<T, P> {
  // Built row by row from the table's paths, which is what V2Body says of them.
  return compiledTable(table).toV2(params) as V2Body<T, P>;
}

/** `toV2(table, withV1Defaults(table, params))`, without the copy of the params: a v1 create's v2 body. */
export function toV2WithDefaults<T extends FieldTable, P extends Record<string, unknown>>(
  table: T,
  params: P,
): V2Body<T, P & DefaultedOf<T>> {
  return compiledTable(table).toV2WithDefaults(params) as V2Body<T, P & DefaultedOf<T>>;
}

/** What `toV2` answers, by walking the table's rows: what its compiled form must answer. */
export function toV2ByWalk(table: FieldTable, params: Record<string, unknown>): Record<string, unknown> {
  return v2ByWalk(compiledTable(table).input, params);
}

/** A v2 object → the flat v1 fields of the table's output rows (fields v2 lacks are left out). */
export function toV1(table: FieldTable, v2: unknown): Record<string, unknown> {
  return compiledTable(table).toV1(v2);
}

/** What `toV1` answers, by walking the table's rows: what its compiled form must answer. */
export function toV1ByWalk(table: FieldTable, v2: unknown): Record<string, unknown> {
  return v1ByWalk(compiledTable(table).output, v2);
}

/**
 * Dotted paths split once: tables are read on every answer, and their paths never change. Bounded,
 * so a caller passing paths from data can never grow it without limit.
 */
const segmentsOf = new Map<string, readonly string[]>();
const MAX_CACHED_PATHS = 4096;

function segmentsOfPath(path: string): readonly string[] {
  let segments = segmentsOf.get(path);
  if (!segments) {
    segments = path.split('.');
    if (segmentsOf.size < MAX_CACHED_PATHS) segmentsOf.set(path, segments);
  }
  return segments;
}

export function getPath(object: unknown, path: string): unknown {
  return getKeys(object, segmentsOfPath(path));
}

export function setPath(object: Record<string, unknown>, path: string, value: unknown): void {
  setKeys(object, segmentsOfPath(path), value);
}

/**
 * Several v1 fields that together are one v2 field (v1 `enable_auto_recording` +
 * `enable_cloud_auto_recording` ↔ v2 `recording.auto_recording`). Declared as data: every
 * combination of v1 values with the v2 value it becomes. Read backwards, the FIRST combination
 * holding a v2 value gives its v1 values, so list the canonical combination first.
 */
export interface CompositeMapping {
  /** Named in docs and tests. */
  name: string;
  /** The v1 fields, with the parameter type and the v1 default of each. */
  fields: Readonly<Record<string, { type: z.ZodType; v1Default?: unknown }>>;
  /** Dotted path of the one v2 field. */
  v2: string;
  combinations: readonly { readonly v1: Readonly<Record<string, unknown>>; readonly v2: unknown }[];
  /** Shown in docs/coverage.md: what is approximated, and why. */
  note?: string;
}

const givenFields = (composite: CompositeMapping, params: Record<string, unknown>) =>
  Object.keys(composite.fields).filter((field) => params[field] !== undefined);

/** The zod shape of the composites' v1 fields, all optional. */
export function compositeInputShape(composites: readonly CompositeMapping[]): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const composite of composites) for (const [field, { type }] of Object.entries(composite.fields)) shape[field] = type.optional();
  return shape;
}

/** Fill in the v1 defaults of the composites' fields the call omitted (v1 create semantics). */
export function withCompositeDefaults(composites: readonly CompositeMapping[], params: Record<string, unknown>): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const composite of composites) {
    for (const [field, { v1Default }] of Object.entries(composite.fields))
      if (v1Default !== undefined && params[field] === undefined && !Object.hasOwn(defaults, field)) defaults[field] = v1Default;
  }
  return withParamsOver(defaults, params);
}

/** Whether the call gives some but not all fields of a composite: the current v2 value then supplies the others. */
export function compositesNeedCurrent(composites: readonly CompositeMapping[], params: Record<string, unknown>): boolean {
  return composites.some((composite) => {
    const given = givenFields(composite, params).length;
    return given > 0 && given < Object.keys(composite.fields).length;
  });
}

/** The v2 value of one composite for complete v1 values. */
export function compositeToV2(composite: CompositeMapping, values: Record<string, unknown>): unknown {
  const found = composite.combinations.find((c) => Object.entries(c.v1).every(([field, value]) => values[field] === value));
  if (!found) throw new Error(`${composite.name}: no v2 value for ${JSON.stringify(values)}`);
  return found.v2;
}

/** The v1 values of one composite for a v2 value. */
export function compositeToV1(composite: CompositeMapping, v2Value: unknown): Record<string, unknown> {
  const found = composite.combinations.find((c) => c.v2 === v2Value);
  if (!found) throw new Error(`${composite.name}: no v1 values for v2 value ${String(v2Value)}`);
  return { ...found.v1 };
}

/**
 * v1 params → the nested v2 object for the composites the call names. A call that gives only
 * some fields of a composite needs `current` (the v2 object as it is) for the others.
 */
export function compositesToV2(
  composites: readonly CompositeMapping[],
  params: Record<string, unknown>,
  current?: unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const composite of composites) {
    const given = givenFields(composite, params);
    if (given.length === 0) continue;
    let values: Record<string, unknown> = {};
    if (given.length < Object.keys(composite.fields).length) {
      if (current === undefined) throw new Error(`${composite.name}: a partial update needs the current v2 value`);
      values = compositeToV1(composite, getPath(current, composite.v2));
    }
    for (const field of given) values[field] = params[field];
    setPath(out, composite.v2, compositeToV2(composite, values));
  }
  return out;
}

/** A v2 object → the flat v1 fields of the composites (composites whose v2 field is absent are left out). */
export function compositesToV1(composites: readonly CompositeMapping[], v2: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const composite of composites) {
    const value = getPath(v2, composite.v2);
    if (value !== undefined) Object.assign(out, compositeToV1(composite, value));
  }
  return out;
}
