import { readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from '../translators/endpoints.js';
import {
  enumCodec,
  negate,
  toV1,
  toV1ByWalk,
  toV2,
  toV2ByWalk,
  toV2WithDefaults,
  withV1Defaults,
  type Codec,
  type FieldRow,
  type FieldTable,
} from './field-map.js';

/**
 * Each table's compiled directions against the walks of its rows they stand for: `toV1` against
 * `toV1ByWalk`, `toV2` against `toV2ByWalk`, and `toV2WithDefaults` against the walk of the params
 * with `withV1Defaults` filled in. The same keys in the same order at every depth, each the same
 * value, or the same error thrown, over every table of mappings/ and of the endpoints, with v2
 * answers and params made of their own names and others, and over generated tables (names a plain
 * object inherits, index spellings, shared v2 paths, a scalar where an object goes, aliases that
 * are other rows' names, several defaults under one name, codecs that drop a value or throw).
 */

/** What tells two results apart: keys in order and values, at every depth; or the error thrown. */
function reading(run: () => unknown): unknown {
  let result: unknown;
  try {
    result = run();
  } catch (error) {
    return { threw: error instanceof Error ? `${error.constructor.name}: ${error.message}` : error };
  }
  return ordered(result);
}

/** Each object by its prototype and keys in order; one met again (a path may nest a given object in itself) by when it was first met. */
function ordered(value: unknown, met = new Map<object, number>()): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const first = met.get(value);
  if (first !== undefined) return { metAgain: first };
  met.set(value, met.size);
  const prototype: unknown = Object.getPrototypeOf(value);
  // An array by its keys too: a path may have written a named field onto one.
  const record = value as Record<string, unknown>;
  return { prototype, array: Array.isArray(value), entries: Object.keys(record).map((key) => [key, ordered(record[key], met)]) };
}

/**
 * Each side is given its own copy of the inputs: a v2 body is built on the values given (a path
 * under a field set to a given object writes into it), so one side's writes must not be read by
 * the other. `copied` makes the table's own copy (its defaults; codecs are kept), for the walk.
 */
function expectSameDirections(table: FieldTable, v2: unknown, params: Record<string, unknown>, copied = table): void {
  const fresh = <T>(x: T): T => structuredClone(x);
  expect(reading(() => toV1(table, fresh(v2)))).toEqual(reading(() => toV1ByWalk(copied, fresh(v2))));
  expect(reading(() => toV2(table, fresh(params)))).toEqual(reading(() => toV2ByWalk(copied, fresh(params))));
  expect(reading(() => toV2WithDefaults(table, fresh(params)))).toEqual(
    reading(() => toV2ByWalk(copied, withV1Defaults(copied, fresh(params)))),
  );
}

const copyOf = (rows: readonly FieldRow[]): FieldTable => rows.map((each) => ({ ...each, v1Default: structuredClone(each.v1Default) }));

const VALUES = [undefined, null, '', 0, -0, 1, 2, 5, false, true, 'both', 'local', 'text', '{"type":1}'];
const value = fc.oneof(
  fc.constantFrom(...VALUES),
  fc.string({ maxLength: 4 }),
  fc.double(),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.constantFrom('a', 'x', 'settings'), fc.integer(), { maxKeys: 2 }),
);

/** An object of `names`, nested `depth` deep, its leaves any value. */
function objectOf(names: readonly string[], depth: number): fc.Arbitrary<unknown> {
  const name = fc.constantFrom(...names);
  const leaf = depth === 0 ? value : fc.oneof(value, objectOf(names, depth - 1));
  return fc.dictionary(name, leaf, { maxKeys: Math.min(names.length, 12) });
}

/** The names a table reads: its v1 names and aliases, and each segment of its v2 paths. */
function namesOf(table: FieldTable): { v1: string[]; v2: string[] } {
  const v1 = table.flatMap((row) => [row.v1, ...(row.aliases ?? [])]);
  const v2 = table.flatMap((row) => row.v2.split('.'));
  return { v1: [...new Set([...v1, 'other', 'toString'])], v2: [...new Set([...v2, 'other', 'constructor'])] };
}

describe("a table's compiled directions", () => {
  it('answer what the walks of its rows answer, for every table of mappings/ and of the endpoints', async () => {
    const tables = await everyTable();
    expect(tables.length).toBeGreaterThan(40);
    for (const table of tables) {
      const names = namesOf(table);
      fc.assert(
        fc.property(objectOf(names.v2, 2), fc.dictionary(fc.constantFrom(...names.v1), value), (v2, params) =>
          expectSameDirections(table, v2, params),
        ),
        { numRuns: 60 },
      );
    }
  });

  it('answer what the walks answer, for generated tables', () => {
    fc.assert(
      fc.property(generatedTable, objectOf(V2_NAMES, 2), fc.dictionary(fc.constantFrom(...V1_NAMES), value), (rows, v2, params) =>
        // A fresh table each time: compiled directions are kept by table, and each of these is new.
        expectSameDirections(copyOf(rows), v2, params, copyOf(rows)),
      ),
      { numRuns: 3_000 },
    );
  });
});

/**
 * No `__proto__`: a table naming it is not compiled (its walk serves), and the walk of a v2 path
 * through it would write onto Object.prototype for the rest of the run. No table names it.
 */
const V1_NAMES = ['topic', 'type', 'a', 'b', 'a b', '0', '12', 'constructor', 'toString', 'valueOf', 'é', 'q"'];
const V2_NAMES = ['topic', 'settings', 'x', 'y', '0', 'constructor', 'toString', 'a b', 'q"'];

/** Codecs of every kind a row has: the same value, a changed one, a table's (throws outside it), one that drops values. */
const CODECS: readonly (Codec | undefined)[] = [
  undefined,
  negate,
  enumCodec([
    [1, 'one'],
    [2, 'two'],
  ]),
  { name: 'drops blanks', toV2: (v) => (v === '' ? undefined : v), toV1: (v) => (v === '' ? undefined : v) },
  { name: 'text', toV2: (v) => String(v), toV1: (v) => `${typeof v}` },
];

const v2Path = fc.array(fc.constantFrom(...V2_NAMES), { minLength: 1, maxLength: 3 }).map((keys) => keys.join('.'));
const row: fc.Arbitrary<FieldRow> = fc.record(
  {
    v1: fc.constantFrom(...V1_NAMES),
    v2: v2Path,
    codec: fc.constantFrom(...CODECS),
    aliases: fc.array(fc.constantFrom(...V1_NAMES), { maxLength: 2 }),
    v1Default: value,
    direction: fc.constantFrom('both' as const, 'in' as const, 'out' as const),
  },
  { requiredKeys: ['v1', 'v2'] },
);
const generatedTable = fc.array(row, { maxLength: 10 });

/** Every FieldTable exported by mappings/ (directly or as a member of an exported object), and every endpoint's tables. */
async function everyTable(): Promise<FieldTable[]> {
  const folder = path.join(import.meta.dirname, '../../mappings');
  const isRow = (x: unknown) =>
    typeof x === 'object' && x !== null && typeof (x as FieldRow).v1 === 'string' && typeof (x as FieldRow).v2 === 'string';
  const isTable = (x: unknown): x is FieldTable => Array.isArray(x) && x.length > 0 && x.every(isRow);
  const tables = new Set<FieldTable>(ALL_ENDPOINTS.flatMap((endpoint) => endpoint.tables ?? []));
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const module = (await import(path.join(folder, file))) as Record<string, unknown>;
    for (const exported of Object.values(module)) {
      if (isTable(exported)) tables.add(exported);
      else if (typeof exported === 'object' && exported !== null)
        for (const member of Object.values(exported)) if (isTable(member)) tables.add(member);
    }
  }
  return [...tables];
}
