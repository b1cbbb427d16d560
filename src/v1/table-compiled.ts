import { compiledFrom, literal, madeByConstructor } from './compile.js';
import type { CompiledInputRow, CompiledOutputRow } from './table-walks.js';

/**
 * A mapping table's two directions compiled into functions of their own, once per table (the way
 * `answer` compiles a shape): v2 answer → v1 fields (`toV1`) and v1 params → v2 body (`toV2`, with
 * or without v1's create defaults). The walks in field-map.ts read each row's names and paths from
 * a list on every call, so every read and store went by a name held in a variable: one read site
 * saw every table's objects, and an answer of more than a dozen fields stored that way became a
 * hash table in V8. Written out, each row's v1 name and v2 path are literals, each site sees the
 * few objects of its own row, and the objects built keep a fast layout. What each function does
 * is what the walk does, row by row in the table's order (src/v1/table-compiled.test.ts holds
 * each to its walk over every table of mappings/ and generated ones).
 */

export type ToV1 = (v2: unknown) => Record<string, unknown>;
export type ToV2 = (params: Readonly<Record<string, unknown>>) => Record<string, unknown>;

/**
 * Names compiled code does not take: a default the walk stores under `__proto__` sets its copy's
 * prototype, which no variable standing for the copy can do. No v1 field or v2 path has the name;
 * a table that did would keep its walk.
 */
const unsafe = (names: readonly string[]) => names.includes('__proto__');

/** The v2 value at `keys`, as the walk's getKeys reads it: undefined as soon as a step is not an object. */
function readPathCode(from: string, keys: readonly string[]): string {
  let code = `value = ${from};`;
  for (const key of keys) code += ` value = value === null || typeof value !== 'object' ? undefined : value[${literal(key)}];`;
  return code;
}

/** v2 → v1 of the output rows, or undefined where code cannot be made (the caller keeps the walk). A codec that is `identity` is not called. */
export function compiledToV1(rows: readonly CompiledOutputRow[], identity: object): ToV1 | undefined {
  if (unsafe(rows.flatMap((row) => [row.v1, ...row.v2Keys]))) return undefined;
  const codecs = rows.map((row) => row.codec);
  const statements = rows.map((row, i) => {
    const converted = row.codec === identity ? 'value' : `codecs[${i}].toV1(value)`;
    return `${readPathCode('v2', row.v2Keys)} if (value !== undefined) this[${literal(row.v1)}] = ${converted};`;
  });
  const body = madeByConstructor('v2', `let value; ${statements.join(' ')}`);
  return compiledFrom<ToV1>(`to-v1/${rows[0]?.v1 ?? 'empty'}`, { codecs }, body);
}

/** The value stored at `keys` under `out`, each object on the way made where none is, as the walk's setKeys does. */
function storePathCode(keys: readonly string[]): string {
  let code = 'node = out;';
  for (const key of keys.slice(0, -1)) {
    const name = literal(key);
    code += ` next = node[${name}]; if (next === null || typeof next !== 'object') node[${name}] = {}; node = node[${name}];`;
  }
  return `${code} node[${literal(keys.at(-1) ?? '')}] = value;`;
}

/**
 * v1 → v2 of the input rows (`toV2`), or of the params with v1's create defaults filled in first
 * (`toV2(withV1Defaults(params))`) when `withDefaults`; undefined where code cannot be made.
 *
 * With defaults, the walk reads a copy of the params: each row with a default whose value the
 * call left out (by its name and aliases) stores its default under its name, and the params' own
 * keys fill the rest. Written out, each such name is a variable (`defaulted[k]`, NONE until a
 * default is stored), and a name is read from it before the params; nothing is copied. The params
 * are a plain object (the params reader's or zod's output), so a name they do not hold reads what
 * the copy, a plain object too, would read.
 */
export function compiledToV2(rows: readonly CompiledInputRow[], withDefaults: boolean, identity: object): ToV2 | undefined {
  if (unsafe(rows.flatMap((row) => [row.v1, ...row.aliases, ...row.v2Keys]))) return undefined;
  const codecs = rows.map((row) => row.codec);
  const defaults = rows.map((row) => row.v1Default);
  const defaultRows = withDefaults ? rows.flatMap((row, i) => (row.v1Default === undefined ? [] : [i])) : [];
  const defaulted = [...new Set(defaultRows.map((i) => rows[i]!.v1))];
  const fromParams = (name: string) => `params[${literal(name)}]`;
  const given = (name: string) => {
    const k = defaulted.indexOf(name);
    return k === -1 ? fromParams(name) : `(d${k} !== NONE ? d${k} : ${fromParams(name)})`;
  };
  const v1ValueCode = (row: CompiledInputRow, read: (name: string) => string) =>
    `value = ${read(row.v1)};${row.aliases.map((alias) => ` if (value === undefined) value = ${read(alias)};`).join('')}`;
  const phase1 = defaultRows.map((i) => {
    const row = rows[i]!;
    return `${v1ValueCode(row, fromParams)} if (value === undefined) d${defaulted.indexOf(row.v1)} = defaults[${i}];`;
  });
  const phase2 = rows.map((row, i) => {
    const converted = row.codec === identity ? '' : ` value = codecs[${i}].toV2(value);`;
    return `${v1ValueCode(row, given)} if (value !== undefined) {${converted} if (value !== undefined) { ${storePathCode(row.v2Keys)} } }`;
  });
  const declared = defaulted.map((_, k) => `let d${k} = NONE;`).join(' ');
  const body =
    `return function toV2(params) { const out = {}; let value, node, next; ${declared} ` +
    `${phase1.join(' ')} ${phase2.join(' ')} return out; };`;
  return compiledFrom<ToV2>(`to-v2/${rows[0]?.v1 ?? 'empty'}`, { codecs, defaults, NONE }, body);
}

/** What no default is: a value no caller can hand in. */
const NONE = Symbol('no default');
