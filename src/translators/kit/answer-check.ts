import type { z } from 'zod';
import { compiledFrom, literal } from '../../v1/compile.js';

/**
 * A v2 answer schema's check compiled once into a plain predicate, the way a schema compiler
 * builds a validator from a schema: built from the zod schema's own structure (its `def`), so the
 * schema stays the one source. A predicate allocates nothing and reports nothing: it says only
 * whether zod would accept the value. `checkedAnswer` (answer-shape.ts) asks it first and hands an
 * accepted answer on as it came; an answer it refuses is parsed by zod, which names the misfit.
 *
 * Only what the answer schemas are made of is compiled: the fields of `looseFields`, an object
 * read by key, strings, finite numbers and booleans without further checks, and optional,
 * nullable, union and array of those. A schema with anything else (a check such as `.max()`, a
 * literal, a transform) has no predicate and is parsed by zod as before.
 */
export type Predicate = (value: unknown) => boolean;

/** Any zod schema, as zod's core sees it (a raw shape's fields are typed so). */
type Schema = z.core.$ZodType;

/**
 * Schemas whose structure zod cannot show: `looseFields` (a custom schema refined by an object of
 * its fields) says which fields it checks, and a custom schema of a plain predicate says which.
 */
const declaredFields = new WeakMap<Schema, z.ZodRawShape>();
const declaredPredicates = new WeakMap<Schema, Predicate>();

/** `schema` accepts what an object of `fields` accepts, and answers the value as it came. */
export function declareLooseFields(schema: Schema, fields: z.ZodRawShape): void {
  declaredFields.set(schema, fields);
}

/** The fields a `looseFields` schema checks; undefined for any other schema. */
export function declaredFieldsOf(schema: Schema): Readonly<z.ZodRawShape> | undefined {
  return declaredFields.get(schema);
}

/** `schema` accepts exactly what `accepts` says yes to, and answers the value as it came. */
export function declareCheckedBy(schema: Schema, accepts: Predicate): void {
  declaredPredicates.set(schema, accepts);
}

const compiled = new WeakMap<Schema, Predicate | null>();

/**
 * The predicate of a schema that answers a value it accepts as it came (a declared one, or one
 * that accepts anything): of it, what the predicate accepts needs no parse at all. Null for any
 * other schema (a z.object answers a copy), which zod parses.
 */
export function answeringAsGiven(schema: Schema): Predicate | null {
  const { type } = schema._zod.def;
  return declaredFields.has(schema) || declaredPredicates.has(schema) || type === 'unknown' || type === 'any' ? predicateOf(schema) : null;
}

/** The schema's predicate, compiled on first use and kept while the schema lives; null where the schema has parts not compiled. */
export function predicateOf(schema: Schema): Predicate | null {
  let predicate = compiled.get(schema);
  if (predicate === undefined) {
    predicate = compile(schema);
    compiled.set(schema, predicate);
  }
  return predicate;
}

const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The structure zod keeps of a schema: its kind and the parts of the kinds compiled here. */
interface Def {
  type: string;
  checks?: readonly unknown[];
  coerce?: boolean;
  innerType?: Schema;
  element?: Schema;
  options?: readonly Schema[];
  shape?: Readonly<z.core.$ZodShape>;
  catchall?: Schema;
}

function compile(schema: Schema): Predicate | null {
  const accepts = declaredPredicates.get(schema);
  if (accepts) return accepts;
  const fields = declaredFields.get(schema);
  if (fields) return objectOf(fields);
  // The schema's structure as zod keeps it (`_zod.def`, what zod 4 gives libraries to read).
  const def = schema._zod.def as Def;
  if ((def.checks !== undefined && def.checks.length > 0) || def.coerce) return null;
  switch (def.type) {
    case 'unknown':
    case 'any':
      return () => true;
    case 'string':
      return (value) => typeof value === 'string';
    case 'number':
      return (value) => typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return (value) => typeof value === 'boolean';
    case 'optional':
      return orWhen(undefined, def.innerType);
    case 'nullable':
      return orWhen(null, def.innerType);
    case 'union':
      return anyOf(def.options ?? []);
    case 'array':
      return arrayOf(def.element);
    case 'object':
      return def.catchall === undefined ? objectOf(def.shape ?? {}) : null;
    default:
      return null;
  }
}

/** `optional` and `nullable`: the one value they add, or what their inner schema accepts. */
function orWhen(given: undefined | null, inner: Schema | undefined): Predicate | null {
  const accepts = inner && predicateOf(inner);
  return accepts ? (value) => value === given || accepts(value) : null;
}

function anyOf(options: readonly Schema[]): Predicate | null {
  const predicates = options.map(predicateOf);
  if (predicates.length === 0 || predicates.includes(null)) return null;
  const each = predicates as Predicate[];
  return (value) => each.some((accepts) => accepts(value));
}

function arrayOf(element: Schema | undefined): Predicate | null {
  const accepts = element && predicateOf(element);
  if (!accepts) return null;
  return (value) => {
    if (!Array.isArray(value)) return false;
    // Every index, holes included, as zod reads them.
    for (let i = 0; i < value.length; i++) if (!accepts(value[i])) return false;
    return true;
  };
}

/** An object with each field of `shape` read as zod reads it (`value[key]`, inherited members included). Keys outside the shape are not looked at. */
function objectOf(shape: Readonly<z.core.$ZodShape>): Predicate | null {
  const keys = Object.keys(shape);
  const predicates = keys.map((key) => predicateOf(shape[key]!));
  if (predicates.includes(null)) return null;
  const each = predicates as Predicate[];
  return (
    compiledObjectCheck(keys, each) ??
    ((value) => {
      if (!isObject(value)) return false;
      const record = value as Record<string, unknown>;
      for (let i = 0; i < keys.length; i++) if (!each[i]!(record[keys[i]!])) return false;
      return true;
    })
  );
}

/**
 * The object's check written out (src/v1/compile.ts): each field read by its name written in, so
 * each read site sees the objects of its own field, where the loop read every field of every
 * schema at one site. What it accepts is what the loop accepts; undefined where code cannot be made.
 */
function compiledObjectCheck(keys: readonly string[], each: readonly Predicate[]): Predicate | undefined {
  if (keys.includes('__proto__')) return undefined;
  const fields = keys.map((key, i) => ` && each[${i}](value[${literal(key)}])`).join('');
  const body = `return function check(value) { return typeof value === 'object' && value !== null && !Array.isArray(value)${fields}; };`;
  return compiledFrom<Predicate>(`answer-check/${keys.slice(0, 3).join('-')}`, { each }, body, 'translators');
}
