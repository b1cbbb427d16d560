import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { answeringAsGiven, declaredFieldsOf, predicateOf } from './answer-check.js';
import { looseFields, NO_CONTENT, OBJECT_READ_BY_KEY } from './answer-shape.js';
import { V2_ANSWERS } from './v2-answers/table.js';

/**
 * Each v2 answer schema's compiled check against zod's parse of the same schema: the same yes or
 * no, and an accepted answer handed on as zod hands it on, over answers generated from the schema
 * itself, the same with one field mutated anywhere in them, and anything at all.
 */

type Schema = z.core.$ZodType;

/** Answers that fit `schema`, mostly: its numbers may be NaN or infinite, and its objects carry keys of their own. */
function fitting(schema: Schema): fc.Arbitrary<unknown> {
  const fields = declaredFieldsOf(schema);
  if (fields) return objectOf(fields);
  if (schema === OBJECT_READ_BY_KEY)
    return fc.oneof(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }), fc.constant([]), fc.constant(null));
  const def = schema._zod.def as { type: string; innerType?: Schema; element?: Schema; options?: Schema[]; shape?: z.core.$ZodShape };
  switch (def.type) {
    case 'string':
      return fc.string({ maxLength: 6 });
    case 'number':
      return fc.oneof(fc.integer(), fc.double());
    case 'boolean':
      return fc.boolean();
    case 'optional':
      return fc.oneof(fc.constant(undefined), fitting(def.innerType!));
    case 'nullable':
      return fc.oneof(fc.constant(null), fitting(def.innerType!));
    case 'union':
      return fc.oneof(...def.options!.map(fitting));
    case 'array':
      return fc.array(fitting(def.element!), { maxLength: 3 });
    case 'object':
      return objectOf(def.shape!);
    default:
      return fc.anything();
  }
}

function objectOf(shape: Readonly<z.core.$ZodShape>): fc.Arbitrary<unknown> {
  const fields = Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, fitting(field)]));
  return fc
    .tuple(fc.record(fields, { requiredKeys: [] }), fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue(), { maxKeys: 2 }))
    .map(([known, extra]) => ({ ...extra, ...known }));
}

/** One value somewhere in `value` (a field, an item, or the whole) replaced by anything. */
function mutated(value: unknown): fc.Arbitrary<unknown> {
  const inner: fc.Arbitrary<unknown>[] = [];
  if (Array.isArray(value) && value.length > 0)
    inner.push(fc.nat(value.length - 1).chain((i) => mutated(value[i]).map((item) => value.map((v, j) => (j === i ? item : v)))));
  else if (typeof value === 'object' && value !== null && Object.keys(value).length > 0) {
    const record = value as Record<string, unknown>;
    inner.push(fc.constantFrom(...Object.keys(record)).chain((key) => mutated(record[key]).map((field) => ({ ...record, [key]: field }))));
    inner.push(fc.constantFrom(...Object.keys(record)).map((key) => Object.fromEntries(Object.entries(record).filter(([k]) => k !== key))));
  }
  return fc.oneof(fc.anything(), fc.constantFrom(undefined, null, Number.NaN, Number.POSITIVE_INFINITY, -0, '', [], {}), ...inner);
}

const ROUTES = Object.entries(V2_ANSWERS as Readonly<Record<string, z.ZodType | typeof NO_CONTENT>>).filter(
  (row): row is [string, z.ZodType] => row[1] !== NO_CONTENT,
);

describe('the compiled check of each v2 answer schema', () => {
  it('is built for every route that reads its answer', () => {
    expect(ROUTES.filter(([, schema]) => answeringAsGiven(schema) === null).map(([name]) => name)).toEqual([]);
  });

  it.each(ROUTES)('%s: accepts what zod accepts, and hands it on as zod does', (_name, schema) => {
    const accepts = answeringAsGiven(schema)!;
    const answers = fitting(schema);
    fc.assert(
      fc.property(fc.oneof(answers, answers.chain(mutated), fc.anything()), (value) => {
        const parsed = schema.safeParse(value);
        expect(accepts(value)).toBe(parsed.success);
        if (parsed.success) expect(parsed.data).toBe(value);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves to zod what it does not compile: a check, a literal, a transform', () => {
    for (const schema of [z.string().max(3), z.literal('a'), z.string().transform(Number), looseFields({ n: z.number().int() })])
      expect(predicateOf(schema)).toBeNull();
    expect(answeringAsGiven(z.object({ a: z.string() }))).toBeNull();
  });
});
