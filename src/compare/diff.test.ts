import { describe, expect, it } from 'vitest';
import { parseAnswer, type Answer } from './answers.js';
import { diffAnswers } from './diff.js';
import { builtInNoise, noiseReason } from './noise.js';

const json = (value: unknown): Answer => ({ format: 'JSON', value });
const xml = (text: string): Answer => parseAnswer(`<?xml version="1.0" encoding="UTF-8"?><response>${text}</response>`, 'application/xml');

describe('diffAnswers', () => {
  it('names each field that differs, with its kind', () => {
    const a = { id: 1, topic: 'Standup', duration: 30, settings: { host_video: true }, gone: 1 };
    const b = { id: 1, topic: 'Stand-up', duration: '30', settings: { host_video: true }, added: 2 };
    expect(diffAnswers(json(a), json(b))).toEqual([
      { field: 'topic', kind: 'value', a: 'Standup', b: 'Stand-up' },
      { field: 'duration', kind: 'type', a: 30, b: '30' },
      { field: 'gone', kind: 'missing', a: 1, b: undefined },
      { field: 'added', kind: 'extra', a: undefined, b: 2 },
    ]);
  });

  it('matches list items by id when every item carries one: another order is no difference', () => {
    const a = {
      users: [
        { id: 'u1', email: 'a@x' },
        { id: 'u2', email: 'b@x' },
      ],
    };
    const b = {
      users: [
        { id: 'u2', email: 'b@x' },
        { id: 'u1', email: 'A@x' },
        { id: 'u3', email: 'c@x' },
      ],
    };
    expect(diffAnswers(json(a), json(b))).toEqual([
      { field: 'users[].email', kind: 'value', a: 'a@x', b: 'A@x' },
      { field: 'users[]', kind: 'extra', a: undefined, b: { id: 'u3', email: 'c@x' } },
    ]);
  });

  it('matches list items by position when they carry no id', () => {
    expect(diffAnswers(json({ days: [1, 2, 3] }), json({ days: [1, 3] }))).toEqual([
      { field: 'days[]', kind: 'value', a: 2, b: 3 },
      { field: 'days[]', kind: 'missing', a: 3, b: undefined },
    ]);
  });
});

describe('XML answers, compared as XML', () => {
  it('compares element text: a number and a numeric string are the same text, never a type difference', () => {
    const recorded = parseAnswer(
      '<?xml version="1.0" encoding="UTF-8"?><response><id>85746065</id><occurrences><occurrence><occurrence_id>1</occurrence_id></occurrence></occurrences></response>',
    );
    expect(recorded).toEqual({ format: 'XML', value: { id: '85746065', occurrences: [{ occurrence_id: '1' }] } });
    expect(
      diffAnswers(recorded, xml('<id>85746065</id><occurrences><occurrence><occurrence_id>1</occurrence_id></occurrence></occurrences>')),
    ).toEqual([]);
    expect(
      diffAnswers(recorded, xml('<id>85746066</id><occurrences><occurrence><occurrence_id>1</occurrence_id></occurrence></occurrences>')),
    ).toEqual([{ field: 'id', kind: 'value', a: '85746065', b: '85746066' }]);
  });

  it("reports fields and items in another order, as the document's order is v1's", () => {
    expect(diffAnswers(xml('<id>1</id><topic>t</topic>'), xml('<topic>t</topic><id>1</id>'))).toEqual([
      { field: '(answer)', kind: 'order', a: ['id', 'topic'], b: ['topic', 'id'] },
    ]);
    const users = (ids: string[]) => xml(`<users>${ids.map((id) => `<user><id>${id}</id></user>`).join('')}</users>`);
    expect(diffAnswers(users(['a', 'b']), users(['b', 'a']))).toEqual([{ field: 'users[]', kind: 'order', a: ['a', 'b'], b: ['b', 'a'] }]);
    expect(diffAnswers(users(['a']), users(['a', 'b']))).toEqual([{ field: 'users[]', kind: 'extra', a: undefined, b: { id: 'b' } }]);
  });

  it('refuses to compare a JSON answer with an XML one field by field: one format difference', () => {
    expect(diffAnswers(json({ id: 1 }), xml('<id>1</id>'))).toEqual([{ field: '(answer)', kind: 'format', a: 'JSON', b: 'XML' }]);
    expect(diffAnswers(xml('<id>1</id>'), parseAnswer('<html>oops'))).toEqual([{ field: '(answer)', kind: 'format', a: 'XML', b: 'text' }]);
  });

  it('keeps JSON types: a number and a numeric string differ in type when both answers are JSON', () => {
    expect(diffAnswers(json({ id: 85746065 }), json({ id: '85746065' }))).toEqual([
      { field: 'id', kind: 'type', a: 85746065, b: '85746065' },
    ]);
  });
});

describe('built-in noise', () => {
  const rules = builtInNoise();
  const reason = (field: string, a: unknown, b: unknown, kind: 'value' | 'missing' = 'value') => noiseReason({ field, kind, a, b }, rules);

  it('classes minted ids, links that embed them and times within the tolerance as noise', () => {
    expect(reason('meetings[].uuid', 'x==', 'y==')).toBe('minted identifier');
    expect(reason('host_id', 'h1', 'h2')).toBe('minted identifier');
    expect(reason('join_url', 'https://x/j/1', 'https://x/j/2')).toBe('link embedding an identifier');
    expect(reason('created_at', '2030-01-01T09:00:00Z', '2030-01-01T09:00:40Z')).toBe('time within 60 s');
  });

  it('never classes a changed value of another field, a time past the tolerance or a missing id as noise', () => {
    expect(reason('topic', 'a', 'b')).toBeUndefined();
    expect(reason('updated_at', '2030-01-01T09:00:00Z', '2030-01-01T09:02:00Z')).toBeUndefined();
    expect(reason('id', 'u1', undefined, 'missing')).toBeUndefined();
  });
});
