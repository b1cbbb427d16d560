import type { z } from 'zod';
import { compiledFrom, literal, madeByConstructor } from './compile.js';
import { NOT_READ, readerOf, type ParamReader } from './param-types.js';

/**
 * An endpoint's params schema (a `v1Params` object) compiled once into a reader of its fields: each
 * field read by its v1 type's own reader (param-types.ts), and the output built as zod builds it
 * (the shape's keys in order; an optional field left out when it was not sent, kept as undefined
 * when it was sent and read as nothing). A field of a type with no reader is parsed by its own
 * schema. Where any field is not read for sure (missing, invalid, or a reader unsure), the reader
 * answers NOT_READ and the whole schema is parsed by zod, which names the field at fault: it never
 * accepts what zod refuses, and what it answers is zod's answer.
 */
export type ParamsReader = (params: Readonly<Record<string, unknown>>) => Record<string, unknown> | typeof NOT_READ;

interface Field {
  key: string;
  optional: boolean;
  read: ParamReader;
}

/** What zod keeps of a schema that the compiling reads. */
interface Def {
  type: string;
  shape?: Readonly<z.core.$ZodShape>;
  catchall?: unknown;
  innerType?: z.core.$ZodType;
}

const compiled = new WeakMap<z.core.$ZodType, ParamsReader | null>();

/** The schema's reader, compiled on first use and kept while the schema lives; null for a schema that is not a plain object of fields. */
export function paramsReaderOf(schema: z.core.$ZodType): ParamsReader | null {
  let reader = compiled.get(schema);
  if (reader === undefined) {
    reader = compile(schema);
    compiled.set(schema, reader);
  }
  return reader;
}

function compile(schema: z.core.$ZodType): ParamsReader | null {
  const def = schema._zod.def as Def;
  if (def.type !== 'object' || def.catchall !== undefined || !def.shape) return null;
  const fields: Field[] = [];
  for (const key of Object.keys(def.shape)) {
    // zod skips a field of this name; so would the reader, but no v1 param has it.
    if (key === '__proto__') return null;
    const field = fieldOf(key, def.shape[key]!);
    if (!field) return null;
    fields.push(field);
  }
  return compiledReader(fields) ?? ((params) => readFields(fields, params));
}

/**
 * A field, or one made optional by `.optional()` that zod leaves out when it is not sent (not one
 * with a default, which zod fills in: that schema is left to zod). A field not made optional and
 * not sent is never read here, whatever its schema makes of nothing: zod parses it.
 */
function fieldOf(key: string, schema: z.core.$ZodType): Field | undefined {
  const def = schema._zod.def as Def;
  const optional = def.type === 'optional';
  if (optional && (schema._zod.optin !== 'optional' || schema._zod.optout !== 'optional')) return undefined;
  const inner = optional ? def.innerType : schema;
  if (!inner) return undefined;
  return { key, optional, read: readerOf(inner) ?? bySchema(inner) };
}

/** A field of a type with no reader of its own: its schema's parse, NOT_READ where it fails. */
function bySchema(schema: z.core.$ZodType): ParamReader {
  const zod = schema as z.ZodType;
  return (value) => {
    const result = zod.safeParse(value);
    return result.success ? result.data : NOT_READ;
  };
}

function readFields(fields: readonly Field[], params: Readonly<Record<string, unknown>>): Record<string, unknown> | typeof NOT_READ {
  const out: Record<string, unknown> = {};
  for (const { key, optional, read } of fields) {
    // As zod reads presence: `in`, and the value by key.
    if (!(key in params)) {
      if (optional) continue;
      return NOT_READ;
    }
    const given = params[key];
    if (given === undefined && optional) {
      out[key] = undefined;
      continue;
    }
    const value = read(given);
    if (value === NOT_READ) return NOT_READ;
    out[key] = value;
  }
  return out;
}

/**
 * `readFields` over these fields written out as code (compile.ts): each field's presence and value
 * read by its name written in, where the walk read every field of every endpoint at one site by a
 * name in a variable, and the output made by a constructor. A field not read for sure makes the
 * constructor answer FAILED (an object a constructor may answer in place of its own), which the
 * reader answers as NOT_READ. Undefined where code cannot be made from text.
 */
function compiledReader(fields: readonly Field[]): ParamsReader | undefined {
  const reads = fields.map((field) => field.read);
  const statements = fields.map(({ key, optional }, i) => {
    const name = literal(key);
    const read = `value = reads[${i}](given); if (value === NOT_READ) return FAILED; this[${name}] = value;`;
    const given = optional ? `if (given === undefined) this[${name}] = undefined; else { ${read} }` : read;
    return `if (${name} in params) { given = params[${name}]; ${given} }${optional ? '' : ' else return FAILED;'}`;
  });
  const made = madeByConstructor('params', `let given, value; ${statements.join(' ')}`);
  // The made function is wrapped: what the constructor answers as FAILED, the reader answers as NOT_READ.
  const body = `const make = (function () { ${made} })(); return function read(params) { const out = make(params); return out === FAILED ? NOT_READ : out; };`;
  return compiledFrom<ParamsReader>(`params/${fields[0]?.key ?? 'none'}`, { reads, NOT_READ, FAILED }, body);
}

/** What a compiled reader's constructor answers for params it does not read for sure. */
const FAILED = Object.freeze({});
