import { describe, expect, it } from 'vitest';
import { copyOfAnswer, parseAnswer } from './answer-copies.js';

describe('answer copies', () => {
  it('copies a parsed answer as v2 sent it, even after the first caller changed its own', () => {
    const first = parseAnswer('{"id":1,"settings":{"audio":"both"},"tags":["a"]}') as { settings: { audio: string }; tags: string[] };
    first.settings.audio = 'changed';
    first.tags.push('b');
    const copy = copyOfAnswer(first);
    expect(copy).toEqual({ id: 1, settings: { audio: 'both' }, tags: ['a'] });
    expect(copy).not.toBe(first);
  });

  it('copies an answer it did not parse with structuredClone, and passes non-objects through', () => {
    const made = { id: 2, nested: { a: [1] } };
    const copy = copyOfAnswer(made);
    expect(copy).toEqual(made);
    expect(copy.nested).not.toBe(made.nested);
    expect(copyOfAnswer(undefined)).toBeUndefined();
  });
});
