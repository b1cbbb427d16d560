import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from '../translators/endpoints.js';
import { NOT_READ } from './param-types.js';
import { paramsReaderOf } from './params-reader.js';

/**
 * Each endpoint's compiled params reader against zod's parse of its params schema, over params
 * made of its own fields and others, with the values v1 clients send and get wrong: where the
 * zod accepts, the reader reads the same object (keys in the same order, each value the same);
 * where zod refuses, the reader never reads.
 */

const TEXTS = [
  '',
  ' ',
  'abc',
  ' padded ',
  '0',
  '1',
  '-0',
  '+7',
  '42',
  ' 15 ',
  '1.5',
  '99999999999999999999',
  '9007199254740993',
  'true',
  'FALSE',
  'True ',
  'yes',
  'constructor',
  'a@b.c',
  'a b@c',
  '2030-07-01T15:00:00Z',
  '2030-07-01T15:00',
  '2030-07-01',
  'a,b, c',
  ',,',
  'x'.repeat(129),
  'x'.repeat(2049),
  '[{"title":"q"}]',
  '{"type":1}',
  'JSON',
  'xml',
  'America/New_York',
  '2',
  '3',
  '8',
  '300',
  '301',
];
const text = fc.oneof(fc.constantFrom(...TEXTS), fc.string({ maxLength: 6 }));
const value = fc.oneof({ weight: 5, arbitrary: text }, { weight: 1, arbitrary: fc.array(text, { maxLength: 3 }) }, fc.constant(undefined));

describe("an endpoint's compiled params reader", () => {
  const compiled = ALL_ENDPOINTS.filter((endpoint) => paramsReaderOf(endpoint.params) !== null);

  it('is built for nearly every endpoint', () => {
    expect(compiled.length).toBeGreaterThan(ALL_ENDPOINTS.length * 0.9);
  });

  it.each(compiled.map((endpoint) => [endpoint.path, endpoint] as const))(
    '%s: reads what zod reads, as zod reads it',
    (_path, endpoint) => {
      const reader = paramsReaderOf(endpoint.params)!;
      const names = Object.keys((endpoint.params as unknown as { shape: Record<string, unknown> }).shape);
      const params = fc.dictionary(fc.constantFrom(...names, 'api_key', 'other', 'toString'), value, { maxKeys: names.length + 2 });
      fc.assert(
        fc.property(params, (given) => {
          const parsed = endpoint.params.safeParse(given);
          const read = reader(given);
          if (!parsed.success) expect(read).toBe(NOT_READ);
          else {
            expect(read).not.toBe(NOT_READ);
            expect(Object.keys(read)).toEqual(Object.keys(parsed.data as object));
            expect(isDeepStrictEqual(read, parsed.data)).toBe(true);
          }
        }),
        { numRuns: 200 },
      );
    },
  );
});
