import { describe, expect, it } from 'vitest';
import { diffAnswers } from './diff.js';
import { builtInNoise, noiseReason } from './noise.js';

describe('diffAnswers', () => {
  it('names each field that differs, with its kind', () => {
    const a = { id: 1, topic: 'Standup', duration: 30, settings: { host_video: true }, gone: 1 };
    const b = { id: 1, topic: 'Stand-up', duration: '30', settings: { host_video: true }, added: 2 };
    expect(diffAnswers(a, b)).toEqual([
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
    expect(diffAnswers(a, b)).toEqual([
      { field: 'users[].email', kind: 'value', a: 'a@x', b: 'A@x' },
      { field: 'users[]', kind: 'extra', a: undefined, b: { id: 'u3', email: 'c@x' } },
    ]);
  });

  it('matches list items by position when they carry no id', () => {
    expect(diffAnswers({ days: [1, 2, 3] }, { days: [1, 3] })).toEqual([
      { field: 'days[]', kind: 'value', a: 2, b: 3 },
      { field: 'days[]', kind: 'missing', a: 3, b: undefined },
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
