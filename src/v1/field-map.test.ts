import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { droppedField, fieldTable, inputShape, type FieldTable } from './field-map.js';
import { v1Params } from './param-types.js';

const TABLE = fieldTable([
  { v1: 'topic', v2: 'topic', type: z.string() },
  { v1: 'duration', v2: 'duration', type: z.number(), aliases: ['length'] },
  { v1: 'created_at', v2: 'created_at', direction: 'out' },
  droppedField({ v1: 'language', type: z.enum(['en', 'fr']), note: 'no v2 home' }),
]);

describe('inputShape', () => {
  it("types params built from a literal table field by field: each input row's name and aliases with its type, optional", () => {
    const params = v1Params(inputShape(TABLE));
    expectTypeOf<z.output<typeof params>>().toEqualTypeOf<{
      topic?: string | undefined;
      duration?: number | undefined;
      length?: number | undefined;
      language?: 'en' | 'fr' | undefined;
    }>();
    expect(params.parse({ topic: 't', length: 5, language: 'fr' })).toEqual({ topic: 't', length: 5, language: 'fr' });
    expect(Object.keys(inputShape(TABLE))).toEqual(['topic', 'duration', 'length', 'language']);
  });

  it('gives a shape of any names for a table typed only FieldTable', () => {
    const wide: FieldTable = TABLE;
    expectTypeOf(inputShape(wide)).toEqualTypeOf<Record<string, z.ZodType>>();
  });
});
