/**
 * A mapping table's rows walked in each direction, as field-map.ts reads them: the generic form
 * of what table-compiled.ts writes out as code per table, and the reference a compiled table is
 * held to (src/v1/table-compiled.test.ts). A table compiles where code can be made from text; the
 * walks serve where it cannot.
 */

/** A row used on input as the engine reads it on every call: its v1 spellings, codec and v2 path split into keys once. */
export interface CompiledInputRow {
  v1: string;
  aliases: readonly string[];
  codec: { toV2(value: unknown): unknown };
  v2Keys: readonly string[];
  v1Default: unknown;
}

/** A row used on output, likewise. */
export interface CompiledOutputRow {
  v1: string;
  codec: { toV1(value: unknown): unknown };
  v2Keys: readonly string[];
}

/** The v1 value of a row in parsed params, looking at its aliases too (the canonical name wins). */
export function v1ValueOf(row: CompiledInputRow, params: Record<string, unknown>): unknown {
  const value = params[row.v1];
  if (value !== undefined) return value;
  for (const alias of row.aliases) if (params[alias] !== undefined) return params[alias];
  return undefined;
}

/** The params with the v1 defaults of `rows` the call left out (by name and aliases) filled in, as a copy. */
export function withDefaultsOf(rows: readonly CompiledInputRow[], params: Record<string, unknown>): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const row of rows) {
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
export function withParamsOver(defaults: Record<string, unknown>, params: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(params)) if (!Object.hasOwn(defaults, key)) defaults[key] = params[key];
  return defaults;
}

/** v1 params → the nested v2 object of the input rows, row by row. */
export function v2ByWalk(rows: readonly CompiledInputRow[], params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const row of rows) {
    const value = v1ValueOf(row, params);
    if (value === undefined) continue;
    const converted: unknown = row.codec.toV2(value);
    // A codec answers undefined for a v1 value that asks v2 to keep what it has (v1 capacity 0 = "inherit").
    if (converted === undefined) continue;
    setKeys(out, row.v2Keys, converted);
  }
  return out;
}

/** A v2 object → the flat v1 fields of the output rows, row by row. */
export function v1ByWalk(rows: readonly CompiledOutputRow[], v2: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const row of rows) {
    const value = getKeys(v2, row.v2Keys);
    if (value === undefined) continue;
    out[row.v1] = row.codec.toV1(value);
  }
  return out;
}

/** The value at `keys` under `object`; undefined as soon as a step is not an object. */
export function getKeys(object: unknown, keys: readonly string[]): unknown {
  let current = object;
  for (const key of keys) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** `value` stored at `keys` under `object`, an object made at each step where none is. */
export function setKeys(object: Record<string, unknown>, keys: readonly string[], value: unknown): void {
  // A path through `__proto__` would write onto Object.prototype: no v2 field is named so, and a
  // path that names it is refused, whoever made it. Each step reads an own field only, so that
  // `constructor` or `toString` on the way is a field made here, not Object's function.
  if (keys.includes('__proto__')) throw new TypeError(`No v2 field is named __proto__: ${keys.join('.')}`);
  let current = object;
  const last = keys.length - 1;
  for (let i = 0; i < last; i++) {
    const key = keys[i]!;
    const next = Object.hasOwn(current, key) ? current[key] : undefined;
    if (next === null || typeof next !== 'object') current[key] = {};
    current = current[key] as Record<string, unknown>;
  }
  current[keys[last]!] = value;
}
