import { describe, expect, it } from 'vitest';
import { answer, everyFieldOf, onWire, outputFieldsOf, type AnswerShape } from './answer.js';
import type { FieldTable } from './field-map.js';

describe('answer', () => {
  const shape: AnswerShape = {
    fields: ['id', 'topic', 'duration', 'domains', 'domains ', 'agenda'],
    whenAbsent: { duration: 0, domains: '' },
    copies: { 'domains ': 'domains' },
  };

  it("answers the shape's fields in its order, each from the first source with a value", () => {
    const out = answer(shape, { topic: 'first' }, { agenda: 'x', topic: 'second', id: 7 });
    expect(Object.keys(out)).toEqual(['id', 'topic', 'duration', 'domains', 'domains ', 'agenda']);
    expect(out).toEqual({ id: 7, topic: 'first', duration: 0, domains: '', 'domains ': '', agenda: 'x' });
  });

  it('takes undefined and null for no value, falling through to the next source, then to the value when absent', () => {
    const out = answer(shape, { topic: null, duration: undefined, domains: null }, { topic: 't' });
    expect(out).toEqual({ topic: 't', duration: 0, domains: '', 'domains ': '' });
  });

  it('leaves out a field with no value and no value when absent, and reads function sources by field name', () => {
    const out = answer(shape, (field) => (field === 'id' ? 'computed' : undefined), { id: 'v2', domains: 'a.com' });
    expect(out).toEqual({ id: 'computed', duration: 0, domains: 'a.com', 'domains ': 'a.com' });
    expect('agenda' in out).toBe(false);
  });

  it('keeps falsy values other than undefined and null', () => {
    expect(answer(shape, { duration: 0, topic: '', id: false })).toEqual({
      id: false,
      topic: '',
      duration: 0,
      domains: '',
      'domains ': '',
    });
  });
});

describe('shapes built on a table', () => {
  const table: FieldTable = [
    { v1: 'name', v2: 'name' },
    { v1: 'secret', v2: 'secret', direction: 'in' },
    { v1: 'total', v2: 'count', direction: 'out' },
  ];

  it("list the table's output fields in its order", () => {
    expect(outputFieldsOf(table)).toEqual(['name', 'total']);
  });

  it('answer every output field, the fallback or "" for what v2 lacks', () => {
    expect(answer(everyFieldOf(table, { total: 0 }), {})).toEqual({ name: '', total: 0 });
  });
});

describe('wire types', () => {
  const shape: AnswerShape = {
    fields: ['id', 'ref', 'start_time'],
    whenAbsent: { start_time: '' },
    wire: { id: 'number', ref: 'string', start_time: 'number' },
  };

  it('answers digits as a number and a number as a string where the shape says so', () => {
    expect(answer(shape, { id: '93256490787', ref: 93256490787 })).toEqual({ id: 93256490787, ref: '93256490787', start_time: '' });
    expect(answer(shape, { id: 494333439, ref: 'abc' })).toEqual({ id: 494333439, ref: 'abc', start_time: '' });
  });

  it('keeps digits past 2^53 as the exact string rather than round them', () => {
    expect(answer(shape, { id: '9007199254740993' })).toMatchObject({ id: '9007199254740993' });
    expect(onWire('9007199254740991', 'number')).toBe(9007199254740991);
  });

  it('leaves what is not digits as it is (an empty value, a signed or decimal text)', () => {
    expect(onWire('', 'number')).toBe('');
    expect(onWire('-5', 'number')).toBe('-5');
    expect(onWire('1.5', 'number')).toBe('1.5');
    expect(onWire(true, 'string')).toBe(true);
  });
});
