import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnswerShape } from '../../v1/answer.js';
import { MEETING, WEBINAR } from './kinds.js';
import { computedFields, computedFieldsByWalk } from './render.js';
import type { V2Session } from '../kit/v2-answers/sessions.js';

/**
 * A shape's maker of the fields v1gate computes against the walk it stands for: the same keys in
 * the same order, each the same value, the same prototype, for every answer shape of both kinds
 * and generated shapes, over generated sessions (numbers as numbers and as text, with and without
 * occurrences and settings, every approval type), live or not.
 */

const reading = (made: Record<string, unknown>) => ({
  prototype: Object.getPrototypeOf(made) as unknown,
  keys: Object.keys(made),
  values: Object.keys(made).map((key) => made[key]),
});

const sessionNumber = fc.oneof(fc.integer({ min: 1, max: 99_999_999_999 }), fc.stringMatching(/^\d{9,11}$/));
const occurrence = fc.record({
  occurrence_id: sessionNumber,
  start_time: fc.constantFrom('2030-07-01T15:00:00Z', ''),
  duration: fc.integer({ min: 0, max: 600 }),
  status: fc.constantFrom('available', 'deleted'),
});
const session = fc.record(
  {
    id: sessionNumber,
    host_id: fc.constantFrom('t5WKjch20i87HzesMHoxjA'),
    type: fc.constantFrom(1, 2, 3, 8),
    join_url: fc.constantFrom('https://sandbox.v1gate.local/j/1?pwd=x', 'https://example.com:8443/j/2'),
    occurrences: fc.array(occurrence, { maxLength: 3 }),
    settings: fc.record({ approval_type: fc.constantFrom(0, 1, 2, 3) }, { requiredKeys: [] }),
  },
  { requiredKeys: ['id', 'host_id', 'type', 'join_url'] },
) as fc.Arbitrary<V2Session>;

const SHAPES: readonly AnswerShape[] = [MEETING, WEBINAR].flatMap((kind) => Object.values(kind.answers));
const FIELDS = ['real_id', 'option_start_type', 'status', 'registration_url', 'occurrences', 'id', 'topic', 'constructor', 'toString'];

describe("a shape's computed fields", () => {
  it('are what the walk of its fields makes, for every shape of both kinds', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SHAPES), session, fc.boolean(), (shape, given, live) => {
        expect(reading(computedFields(shape, given, live))).toEqual(reading(computedFieldsByWalk(shape, given, live)));
      }),
      { numRuns: 1_000 },
    );
  });

  it('are what the walk of its fields makes, for generated shapes (repeated fields, names an object inherits, none computed)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FIELDS), { maxLength: 8 }), session, fc.boolean(), (fields, given, live) => {
        // A new shape each time: makers are kept by shape.
        const shape: AnswerShape = { fields };
        expect(reading(computedFields(shape, given, live))).toEqual(reading(computedFieldsByWalk(shape, given, live)));
      }),
      { numRuns: 1_000 },
    );
  });
});
