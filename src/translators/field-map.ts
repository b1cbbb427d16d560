import { z } from 'zod';

/**
 * The engine behind the mapping tables in mappings/: each row says where one v1 field lives in
 * v2 and how its value changes on the way, and the engine reads the table in both directions —
 * v1 input → v2 body, v2 answer → v1 output, v2 error path → v1 field name — and renders it into
 * docs/coverage.md. When a field moves, one row changes.
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

/** How a row is used: `both` (input and output), `in` (v1 input only), `out` (v1 output only). */
export type Direction = 'both' | 'in' | 'out';

export interface FieldRow {
  /** The v1 field name. */
  v1: string;
  /** Dotted path of the v2 field (relative to the v2 object the table describes). */
  v2: string;
  /** The v1 parameter type (parses the form text); required for rows used on input. */
  type?: z.ZodType;
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

const usedOnInput = (row: FieldRow) => row.direction !== 'out';
const usedOnOutput = (row: FieldRow) => row.direction !== 'in';

/** The zod shape of a table's input fields, all optional (defaults are applied separately). */
export function inputShape(table: FieldTable): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const row of table.filter(usedOnInput)) {
    if (!row.type) throw new Error(`Mapping row ${row.v1} is used on input but has no type`);
    shape[row.v1] = row.type.optional();
    for (const alias of row.aliases ?? []) shape[alias] = row.type.optional();
  }
  return shape;
}

/** The v1 value of a row in parsed params, looking at its aliases too (the canonical name wins). */
function v1ValueOf(row: FieldRow, params: Record<string, unknown>): unknown {
  if (params[row.v1] !== undefined) return params[row.v1];
  for (const alias of row.aliases ?? []) if (params[alias] !== undefined) return params[alias];
  return undefined;
}

/** Fill in the v1 defaults of the rows the call omitted (v1 create semantics). */
export function withV1Defaults(table: FieldTable, params: Record<string, unknown>): Record<string, unknown> {
  const out = { ...params };
  for (const row of table.filter(usedOnInput)) {
    if (row.v1Default !== undefined && v1ValueOf(row, params) === undefined) out[row.v1] = row.v1Default;
  }
  return out;
}

/** v1 params → the nested v2 object, with only the fields the call gave (PATCH semantics). */
export function toV2(table: FieldTable, params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const row of table.filter(usedOnInput)) {
    const value = v1ValueOf(row, params);
    if (value === undefined) continue;
    setPath(out, row.v2, (row.codec ?? same).toV2(value));
  }
  return out;
}

/** A v2 object → the flat v1 fields of the table's output rows (fields v2 lacks are left out). */
export function toV1(table: FieldTable, v2: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const row of table.filter(usedOnOutput)) {
    const value = getPath(v2, row.v2);
    if (value === undefined) continue;
    out[row.v1] = (row.codec ?? same).toV1(value);
  }
  return out;
}

/** Which v1 field a v2 error path names (`settings.audio` → `option_audio`). */
export function v1FieldFor(table: FieldTable, v2Path: string): string | undefined {
  return table.find((row) => row.v2 === v2Path && usedOnInput(row))?.v1;
}

export function getPath(object: unknown, path: string): unknown {
  let current = object;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

export function setPath(object: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let current = object;
  for (const key of keys.slice(0, -1)) {
    const next = current[key];
    if (next === null || typeof next !== 'object') current[key] = {};
    current = current[key] as Record<string, unknown>;
  }
  current[keys[keys.length - 1]!] = value;
}
