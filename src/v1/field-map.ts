import { z } from 'zod';

/**
 * The engine behind the mapping tables in mappings/: each row says where one v1 field lives in
 * v2 and how its value changes on the way, and the engine reads the table in both directions —
 * v1 input → v2 body, v2 answer → v1 output, v2 error path → v1 field name (field-naming.ts) — and
 * renders it into docs/coverage.md. When a field moves, one row changes.
 */

/** How a value changes between v1 and v2; `toV1` must undo `toV2`. */
export interface Codec<V1 = unknown, V2 = unknown> {
  readonly name: string;
  toV2(value: V1): V2;
  toV1(value: V2): V1;
}

export const same: Codec = { name: 'same', toV2: (v) => v, toV1: (v) => v };

/** v1 `disable_x` ↔ v2 `x`. */
export const negate: Codec<boolean, boolean> = { name: 'negated', toV2: (v) => !v, toV1: (v) => !v };

/** A fixed table of values (v1 value → v2 value), read both ways. */
export function enumCodec<V1 extends string | number | boolean, V2 extends string | number | boolean>(
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
 * The v2 path of a row whose v1 field has no home in v2: a dropped input (below), or an output the
 * translator fills in itself (rendered as such in docs/coverage.md).
 */
export const NO_V2_FIELD = '(none)';

/**
 * The codec of a dropped input: it answers undefined, which `toV2` leaves out of the v2 body. A
 * dropped row is input only, so nothing reads it back.
 */
export const dropped: Codec<unknown, undefined> = {
  name: 'accepted and dropped',
  toV2: () => undefined,
  toV1: () => {
    throw new Error('A dropped v1 field has no v2 value to read back');
  },
};

/** How a row is used: `both` (input and output), `in` (v1 input only), `out` (v1 output only). */
export type Direction = 'both' | 'in' | 'out';

export interface FieldRow {
  /** The v1 field name. */
  v1: string;
  /** Dotted path of the v2 field (relative to the v2 object the table describes). */
  v2: string;
  /** The v1 parameter type (parses the form text); required for rows used on input. */
  type?: z.ZodType;
  // A table mixes codecs of every value type; each row's codec is only ever applied to its own field's values.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  codec?: Codec<any, any>;
  /** The v1 default, applied when a v1 create omits the field (v1 and v2 defaults differ). */
  v1Default?: unknown;
  direction?: Direction;
  /** Other v1 spellings accepted on input (e.g. the branded names of old clients). */
  aliases?: readonly string[];
  /** Shown in docs/coverage.md: what is approximated, and why. */
  note?: string;
}

export type FieldTable = readonly FieldRow[];

/**
 * A table that keeps each row's literal v1 name and parameter type (so `inputShape` types the
 * params it builds field by field), each row still read as a FieldRow.
 */
export function fieldTable<const T extends FieldTable>(rows: T): { readonly [K in keyof T]: T[K] & FieldRow } {
  // Each row already is a FieldRow (the constraint): the intersection only lets its unset optional fields be read.
  return rows as { readonly [K in keyof T]: T[K] & FieldRow };
}

/**
 * "Accepted and dropped": a v1 input with no v2 home, kept so old clients keep working. It is
 * parsed (a bad value is still a v1 300 naming the field), then dropped — never written to v2,
 * never answered. `note` says why v2 has no place for it. Keeps the row's name and type literal.
 */
export function droppedField<const V1 extends string, T extends z.ZodType>(row: { v1: V1; type: T; note: string }) {
  return { v1: row.v1, v2: NO_V2_FIELD, type: row.type, codec: dropped, direction: 'in', note: row.note } as const satisfies FieldRow;
}

const usedOnInput = (row: FieldRow) => row.direction !== 'out';
const usedOnOutput = (row: FieldRow) => row.direction !== 'in';

/** One row as the engine reads it on every call: its v1 spellings, codec and v2 path split into keys once. */
interface CompiledRow {
  v1: string;
  aliases: readonly string[];
  codec: Codec;
  v2Keys: readonly string[];
  v1Default: unknown;
}

/** What `withV1Defaults`, `toV2` and `toV1` read of a table: its input rows, output rows, and input rows with a v1 default. */
interface CompiledTable {
  input: readonly CompiledRow[];
  output: readonly CompiledRow[];
  defaults: readonly CompiledRow[];
}

/**
 * Each table compiled on its first use and kept while the table lives: the tables are constants
 * read on every call, and filtering their rows and splitting their paths per call was a third of a
 * /meeting/create's translation (~20 µs of the 60-row meeting table, `npm run bench -- --only meeting-create`).
 * A table must not change after its first use (none does: they are module constants).
 */
const compiled = new WeakMap<FieldTable, CompiledTable>();

function compiledTable(table: FieldTable): CompiledTable {
  let plan = compiled.get(table);
  if (!plan) {
    const rows = new Map<FieldRow, CompiledRow>();
    const compile = (row: FieldRow): CompiledRow => {
      let done = rows.get(row);
      if (!done) {
        done = {
          v1: row.v1,
          aliases: row.aliases ?? [],
          codec: row.codec ?? same,
          v2Keys: segmentsOfPath(row.v2),
          v1Default: row.v1Default,
        };
        rows.set(row, done);
      }
      return done;
    };
    const input = table.filter(usedOnInput).map(compile);
    plan = { input, output: table.filter(usedOnOutput).map(compile), defaults: input.filter((row) => row.v1Default !== undefined) };
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

/** The v1 value of a row in parsed params, looking at its aliases too (the canonical name wins). */
function v1ValueOf(row: CompiledRow, params: Record<string, unknown>): unknown {
  const value = params[row.v1];
  if (value !== undefined) return value;
  for (const alias of row.aliases) if (params[alias] !== undefined) return params[alias];
  return undefined;
}

/** Fill in the v1 defaults of the rows the call omitted (v1 create semantics). */
export function withV1Defaults(table: FieldTable, params: Record<string, unknown>): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const row of compiledTable(table).defaults) {
    if (v1ValueOf(row, params) === undefined) defaults[row.v1] = row.v1Default;
  }
  return withParamsOver(defaults, params);
}

/**
 * `defaults` with the params copied over it, except where a default stands for a param that is
 * absent or undefined: what `{ ...params }` then one key added per default gives, built the other
 * way round. Adding keys to a spread copy made V8 build a new hidden class per key on every call:
 * the 11 defaults of a meeting create cost ~17 µs that way, under 1 µs this way.
 */
function withParamsOver(defaults: Record<string, unknown>, params: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(params)) if (!Object.hasOwn(defaults, key)) defaults[key] = params[key];
  return defaults;
}

/** v1 params → the nested v2 object, with only the fields the call gave (PATCH semantics). */
export function toV2(table: FieldTable, params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const row of compiledTable(table).input) {
    const value = v1ValueOf(row, params);
    if (value === undefined) continue;
    const converted: unknown = row.codec.toV2(value);
    // A codec answers undefined for a v1 value that asks v2 to keep what it has (v1 capacity 0 = "inherit").
    if (converted === undefined) continue;
    setKeys(out, row.v2Keys, converted);
  }
  return out;
}

/** A v2 object → the flat v1 fields of the table's output rows (fields v2 lacks are left out). */
export function toV1(table: FieldTable, v2: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const row of compiledTable(table).output) {
    const value = getKeys(v2, row.v2Keys);
    if (value === undefined) continue;
    out[row.v1] = row.codec.toV1(value);
  }
  return out;
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

function getKeys(object: unknown, keys: readonly string[]): unknown {
  let current = object;
  for (const key of keys) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

export function setPath(object: Record<string, unknown>, path: string, value: unknown): void {
  setKeys(object, segmentsOfPath(path), value);
}

function setKeys(object: Record<string, unknown>, keys: readonly string[], value: unknown): void {
  let current = object;
  const last = keys.length - 1;
  for (let i = 0; i < last; i++) {
    const key = keys[i]!;
    const next = current[key];
    if (next === null || typeof next !== 'object') current[key] = {};
    current = current[key] as Record<string, unknown>;
  }
  current[keys[last]!] = value;
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
