import { describe, expect, it } from 'vitest';
import { copyOfAnswer } from './answer-copies.js';

describe('answer copies', () => {
  it('copies an answer from its text, as v2 sent it, even after the first caller changed its own', () => {
    const text = '{"id":1,"settings":{"audio":"both"},"tags":["a"]}';
    const first = JSON.parse(text) as { settings: { audio: string }; tags: string[] };
    first.settings.audio = 'changed';
    first.tags.push('b');
    const copy = copyOfAnswer(first, text);
    expect(copy).toEqual({ id: 1, settings: { audio: 'both' }, tags: ['a'] });
    expect(copy).not.toBe(first);
  });

  it('copies an answer without its text with structuredClone, and passes non-objects through', () => {
    const made = { id: 2, nested: { a: [1] } };
    const copy = copyOfAnswer(made, undefined);
    expect(copy).toEqual(made);
    expect(copy.nested).not.toBe(made.nested);
    expect(copyOfAnswer(undefined, undefined)).toBeUndefined();
  });
});
