import { readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answer, answerByWalk, type AnswerShape, type AnswerSource } from './answer.js';
import { serialize } from './serialize.js';

/**
 * Each shape's compiled builder against the walk of its field list it stands for: the same keys in
 * the same order, each the same value, and so the same JSON and XML bytes, over generated shapes
 * and sources (names a plain object inherits, list and index spellings, spaced twins, copies of
 * fields given or not, wire types) and over every shape of mappings/.
 */

const NAMES = ['id', 'topic', 'domains', 'domains ', ' x', 'a b', 'a_b', '0', '12', 'constructor', 'toString', 'xml', 'é', 'users', 'q"'];
const name = fc.constantFrom(...NAMES);
const value = fc.oneof(
  fc.constantFrom(undefined, null, '', 0, -0, false, true, '42', '9007199254740993', '-5', 'text', 'a & <b>'),
  fc.string({ maxLength: 8 }),
  fc.double(),
  fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.integer()), { maxLength: 3 }),
  fc.dictionary(name, fc.string({ maxLength: 4 }), { maxKeys: 3 }),
);
const shapeOf = fc.record(
  {
    fields: fc.array(name, { maxLength: 12 }),
    whenAbsent: fc.dictionary(name, value, { maxKeys: 6 }),
    copies: fc.dictionary(name, name, { maxKeys: 3 }),
    wire: fc.dictionary(name, fc.constantFrom('number' as const, 'string' as const), { maxKeys: 4 }),
  },
  { requiredKeys: ['fields'] },
);
const record = fc.dictionary(name, value, { maxKeys: 10 });
const source: fc.Arbitrary<AnswerSource> = fc.oneof(
  record,
  record.map((known) => (field: string) => (Object.hasOwn(known, field) ? known[field] : undefined)),
);
const sources = fc.array(source, { maxLength: 3 });

/** The answer as what can tell two answers apart: its prototype, its keys in order, each value, and its JSON and XML. */
function reading(built: Record<string, unknown>) {
  return {
    prototype: Object.getPrototypeOf(built) as unknown,
    keys: Object.keys(built),
    values: Object.keys(built).map((key) => built[key]),
    json: serialize(built, 'JSON'),
    xml: serialize(built, 'XML'),
  };
}

describe("a shape's compiled builder", () => {
  it('answers what the walk of its fields answers, for generated shapes and sources', () => {
    fc.assert(
      fc.property(shapeOf, sources, (shape: AnswerShape, given) => {
        // A fresh copy of the shape each time: builders are kept by shape, and each of these is new.
        expect(reading(answer({ ...shape }, ...given))).toEqual(reading(answerByWalk(shape, ...given)));
      }),
      { numRuns: 3_000 },
    );
  });

  it('answers what the walk answers for every shape of mappings/', async () => {
    const shapes = await shapesOfMappings();
    expect(shapes.length).toBeGreaterThan(30);
    for (const shape of shapes) {
      fc.assert(
        fc.property(fc.array(fc.dictionary(fc.constantFrom(...shape.fields, 'other'), value), { maxLength: 3 }), (given) => {
          expect(reading(answer(shape, ...given))).toEqual(reading(answerByWalk(shape, ...given)));
        }),
        { numRuns: 50 },
      );
    }
  });
});

/** Every AnswerShape exported by mappings/, directly or as a member of an exported object. */
async function shapesOfMappings(): Promise<AnswerShape[]> {
  const folder = path.join(import.meta.dirname, '../../mappings');
  const shapes: AnswerShape[] = [];
  const isShape = (x: unknown): x is AnswerShape =>
    typeof x === 'object' && x !== null && Array.isArray((x as { fields?: unknown }).fields);
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const module = (await import(path.join(folder, file))) as Record<string, unknown>;
    for (const exported of Object.values(module)) {
      if (isShape(exported)) shapes.push(exported);
      else if (typeof exported === 'object' && exported !== null) shapes.push(...Object.values(exported).filter(isShape));
    }
  }
  return shapes;
}
