import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  droppedField,
  enumCodec,
  fieldTable,
  inputShape,
  negate,
  setPath,
  toV1,
  toV2,
  withV1Defaults,
  type FieldRow,
  type FieldTable,
  type InputCodec,
  type OutputCodec,
} from './field-map.js';
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

/** A codec that only reads v2 answers (v2 prints `HH:MM:SS`; the v1 field is whole minutes). */
const MINUTES: OutputCodec<number, string> = {
  name: 'HH:MM:SS → minutes',
  toV1: (clock) =>
    clock
      .split(':')
      .map(Number)
      .reduce((total, part, i) => (i < 2 ? total * 60 + part : total + part / 60), 0),
};
/** A codec that only writes v2 bodies. */
const TRIMMED: InputCodec<string, string> = { name: 'trimmed', toV2: (text) => text.trim() };

describe('codecs typed by direction', () => {
  it('lets a one-way codec sit only on a row used in its direction', () => {
    const rows = [
      { v1: 'duration', v2: 'duration', codec: MINUTES, direction: 'out' },
      { v1: 'topic', v2: 'topic', type: z.string(), codec: TRIMMED, direction: 'in' },
      { v1: 'mute', v2: 'settings.mute_upon_entry', type: z.boolean(), codec: negate },
    ] as const satisfies FieldTable;
    expect(toV1(rows, { duration: '01:30:30' })).toEqual({ duration: 90.5 });
    expect(toV2(rows, { topic: ' t ', mute: true })).toEqual({ topic: 't', settings: { mute_upon_entry: false } });
  });

  it('refuses, at compile time, a one-way codec on a row used the other way or both ways', () => {
    // @ts-expect-error An output-only codec cannot write a v2 body.
    const readBothWays: FieldRow = { v1: 'duration', v2: 'duration', codec: MINUTES };
    // @ts-expect-error An output-only codec cannot write a v2 body.
    const writes: FieldRow = { v1: 'duration', v2: 'duration', type: z.number(), codec: MINUTES, direction: 'in' };
    // @ts-expect-error An input-only codec cannot read a v2 answer.
    const reads: FieldRow = { v1: 'topic', v2: 'topic', codec: TRIMMED, direction: 'out' };
    expect([readBothWays, writes, reads]).toHaveLength(3);
  });
});

const BODY_TABLE = fieldTable([
  { v1: 'topic', v2: 'topic', type: z.string() },
  {
    v1: 'type',
    v2: 'type',
    type: z.union([z.literal(1), z.literal(2)]),
    codec: enumCodec([
      [1, 'instant'],
      [2, 'scheduled'],
    ]),
    v1Default: 2,
  },
  { v1: 'mute', v2: 'settings.mute_upon_entry', type: z.boolean(), codec: negate },
  { v1: 'hd', v2: 'settings.video.hd', type: z.boolean() },
  { v1: 'created_at', v2: 'created_at', direction: 'out' },
  droppedField({ v1: 'language', type: z.string(), note: 'no v2 home' }),
]);

describe('toV2', () => {
  it("types the v2 body from the table's literal paths: nested, the codecs' values, each field optional", () => {
    const params = v1Params(inputShape(BODY_TABLE)).parse({ topic: 'Standup', mute: false, language: 'fr' });
    const body = toV2(BODY_TABLE, params);
    expectTypeOf(body.topic).toEqualTypeOf<string | undefined>();
    expectTypeOf(body.type).toEqualTypeOf<'instant' | 'scheduled' | undefined>();
    expectTypeOf(body.settings?.mute_upon_entry).toEqualTypeOf<boolean | undefined>();
    expectTypeOf(body.settings?.video?.hd).toEqualTypeOf<boolean | undefined>();
    expectTypeOf(body).not.toHaveProperty('created_at');
    expectTypeOf(body).not.toHaveProperty('language');
    expect(body).toEqual({ topic: 'Standup', settings: { mute_upon_entry: true } });
  });

  it('makes a field required where the params always give it (a default filled in, a required param)', () => {
    const params: { topic: string; mute?: boolean } = { topic: 'Standup' };
    const body = toV2(BODY_TABLE, withV1Defaults(BODY_TABLE, params));
    expectTypeOf(body.topic).toEqualTypeOf<string>();
    expectTypeOf(body.type).toEqualTypeOf<'instant' | 'scheduled'>();
    expect(body).toEqual({ topic: 'Standup', type: 'scheduled' });
  });

  it('gives a record of any keys for a table typed only FieldTable', () => {
    const wide: FieldTable = BODY_TABLE;
    expectTypeOf(toV2(wide, { topic: 't' })).toEqualTypeOf<Record<string, unknown>>();
  });
});

describe('setPath', () => {
  it('refuses a path through __proto__, makes constructor a field of its own, and leaves Object.prototype alone', () => {
    for (const path of ['__proto__.polluted', 'settings.__proto__.polluted', '__proto__']) {
      expect(() => setPath({}, path, 'yes'), path).toThrow(TypeError);
    }
    // `constructor` on the way is a field of the body, not Object's own function.
    const odd: Record<string, unknown> = {};
    setPath(odd, 'constructor.prototype.polluted', 'yes');
    expect(odd).toEqual({ constructor: { prototype: { polluted: 'yes' } } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object as unknown as Record<string, unknown>).prototype).toBe(Object.prototype);
    const body: Record<string, unknown> = {};
    setPath(body, 'settings.alternative_hosts', 'a@example.com');
    expect(body).toEqual({ settings: { alternative_hosts: 'a@example.com' } });
  });
});
