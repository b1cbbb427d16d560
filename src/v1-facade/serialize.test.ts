import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
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
