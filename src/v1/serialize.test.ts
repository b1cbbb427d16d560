import fc from 'fast-check';
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { hostilePieces } from '../../test/support/hostile-texts.js';
import { serialize } from './serialize.js';

/** XML answers are always well-formed, whatever the data holds. */
describe('XML answers', () => {
  const parse = (xml: string) => new XMLParser({ parseTagValue: false, trimValues: false }).parse(xml).response;

  it('drop the characters XML 1.0 forbids, keep everything else', () => {
    const xml = serialize({ topic: 'a\u0001b\u0008c\td\ne\u001ff\uFFFEg & <h> \u{1F600} \uD800' }, 'XML');
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(parse(xml).topic).toBe('abc\td\nefg & <h> \u{1F600} ');
  });

  it('make valid, distinct element names from keys made of data', () => {
    const xml = serialize(
      { answers: { 'What is your role?': 'dev', What_is_your_role_: 'x', '2nd question': 'y', xmlish: 'z', 'a b': '1', a_b: '2' } },
      'XML',
    );
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(parse(xml).answers).toEqual({
      What_is_your_role_: 'dev',
      What_is_your_role__2: 'x',
      _2nd_question: 'y',
      _xmlish: 'z',
      a_b: '1',
      a_b_2: '2',
    });
  });

  it('leave out a JSON-only spelling with surrounding spaces beside its trimmed twin', () => {
    const xml = serialize({ option_enforce_login_domains: 'a.com', 'option_enforce_login_domains ': 'a.com', 'lonely ': 'kept' }, 'XML');
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(parse(xml)).toEqual({ option_enforce_login_domains: 'a.com', lonely_: 'kept' });
  });

  it('keep JSON answers exactly as the object (control characters escaped by JSON itself)', () => {
    expect(serialize({ topic: 'a\u0001b' }, 'JSON')).toBe('{"topic":"a\\u0001b"}');
  });
});

/**
 * The XML writer against what answers were before it: the answer reshaped, then built by
 * fast-xml-parser's XMLBuilder (kept here as the reference), over random answers of every shape
 * v1 answers have: nested objects, lists of records, of values and of lists, empty lists, nulls,
 * numbers, booleans, text with markup and forbidden characters, keys made of data.
 */
describe('XML writer', () => {
  const builder = new XMLBuilder({ ignoreAttributes: true, suppressEmptyNode: false, format: false });
  const reference = (body: unknown) => `<?xml version="1.0" encoding="UTF-8"?>${builder.build({ response: shape(body, 'response') })}`;
  const SINGULAR: Record<string, string> = { occurrences: 'occurrence', attendees: 'attendee', recording_files: 'recording_file' };
  const singular = (key: string) => SINGULAR[key] ?? (key.endsWith('s') && key.length > 1 ? key.slice(0, -1) : 'item');
  // eslint-disable-next-line no-control-regex
  const NOT_XML_CHAR = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
  const safeName = (key: string) => {
    const cleaned = key.replace(/[^A-Za-z0-9_.-]/g, '_');
    return /^[A-Za-z_]/.test(cleaned) && !/^xml/i.test(cleaned) ? cleaned : `_${cleaned}`;
  };
  function shape(value: unknown, key: string): unknown {
    if (Array.isArray(value)) return { [singular(key)]: value.map((item) => shape(item, singular(key))) };
    if (value === null || value === undefined) return '';
    if (typeof value === 'string') return value.replace(NOT_XML_CHAR, '');
    if (typeof value === 'object') {
      const record = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(record)) {
        if (k !== k.trim() && k.trim() in record) continue;
        let name = safeName(k);
        if (name in out) {
          let n = 2;
          while (`${name}_${n}` in out) n++;
          name = `${name}_${n}`;
        }
        out[name] = shape(v, k);
      }
      return out;
    }
    return value;
  }

  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const KEYS = [
    'XMLx',
    'Xml',
    '_x',
    'a.b-c',
    'é',
    'id',
    'topic',
    'occurrences',
    'attendees',
    'recording_files',
    'users',
    'status',
    'a b',
    'a_b',
    '2nd',
    'xmlish',
    'q?',
    'name ',
    'name',
    's',
  ];
  const TEXTS = [
    '',
    'plain',
    'a & b <c> "d" \'e\'',
    'x\u0001y\uFFFEz',
    'line\nbreak\ttab',
    '\u{1F600} smile',
    '&amp; already',
    'say "hi"',
    "it's",
    'XmlFoo',
    '\uD83D alone',
  ];
  function answer(depth: number): unknown {
    const kind = depth > 3 ? pick(['text', 'number', 'bool', 'null']) : pick(['text', 'number', 'bool', 'null', 'object', 'list', 'list']);
    if (kind === 'text') return pick(TEXTS);
    if (kind === 'number') return pick([0, 1, 42, -7, 1.5, 1e21, 123_456_789]);
    if (kind === 'bool') return random() < 0.5;
    if (kind === 'null') return null;
    if (kind === 'list') return Array.from({ length: Math.floor(random() * 4) }, () => answer(depth + 1));
    const record: Record<string, unknown> = {};
    for (let i = Math.floor(random() * 6); i > 0; i--) record[pick(KEYS)] = answer(depth + 1);
    return record;
  }

  it('writes the bytes the builder wrote for generated answers, their records of XML names and spaced twins included', () => {
    const key = fc.constantFrom(...KEYS, 'option_enforce_login_domains', 'option_enforce_login_domains ', ' lead');
    // Texts from the shared hostile pieces: each alone and run together, so the writer's one scan for text to escape or drop meets them all.
    const pieces = hostilePieces({ redacted: '[REDACTED]', configured: 'sEcReT', own: ['o&wn<secret>'] });
    const text = fc.oneof(
      fc.constantFrom(...TEXTS),
      fc.array(fc.constantFrom(...pieces, 'plain'), { maxLength: 4 }).map((each) => each.join('')),
    );
    const { node } = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        text,
        fc.constantFrom(null, undefined, 0, -7, 1.5, 1e21, true, false),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(key, tie('node'), { maxKeys: 6 }),
      ),
    }));
    fc.assert(
      fc.property(fc.dictionary(key, node, { maxKeys: 8 }), (body) => {
        expect(serialize(body, 'XML')).toBe(reference(body));
      }),
      { numRuns: 2_000 },
    );
  });

  it('writes the bytes the builder wrote past the bound of the tag names it keeps', () => {
    // More distinct names than the writer keeps tags for (keys made of data): those past the bound are spelt out each time.
    const body = Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`field_${i}`, i % 2 === 0 ? `a & ${i}` : i]));
    expect(serialize(body, 'XML')).toBe(reference(body));
    expect(serialize(body, 'XML')).toBe(reference(body));
  });

  it('writes the bytes the builder wrote, for 2 000 random answers', () => {
    for (let i = 0; i < 2_000; i++) {
      const body = { [pick(KEYS)]: answer(0), [pick(KEYS)]: answer(0) };
      expect(serialize(body, 'XML')).toBe(reference(body));
    }
  });
});
