import type { z } from 'zod';
import type { InputCodec, JsonFieldsRule, LookupCodec, OutputCodec } from '../v1/field-map.js';
import type { Codec, ValueType } from './plan-schema.js';

/**
 * The value rules a recipe carries as data: how a v1 parameter's text is read (probed from its
 * declared zod type) and a codec as data (same, negated, an enum's pairs, each pair checked against
 * the codec itself), or named as code where only the translator holds it.
 */

/** How the declared type reads v1 text: probed with the texts v1 clients send. */
export function valueTypeOf(type: z.ZodType | undefined, recorded: readonly (string | string[])[] = []): ValueType {
  if (!type) return 'string';
  const read = (text: unknown) => {
    const parsed = type.safeParse(text);
    return parsed.success ? parsed.data : undefined;
  };
  // What the type made of a value the integration sent is the surest; else the texts v1 clients send.
  for (const value of [...recorded, 'a,b', '1', 'true', '2024-05-01']) {
    const data = read(value);
    if (isCalendarDate(data)) return 'date';
    if (Array.isArray(data)) return 'list';
    if (typeof data === 'number') return 'number';
    if (typeof data === 'boolean') return 'boolean';
    if (typeof data === 'string' && recorded.includes(value)) return 'string';
  }
  return 'string';
}

/** A v1 value as its type reads it: what a recipe sends where the translator would send the parsed parameter. */
export function readValue(value: string | string[], as: ValueType | undefined): unknown {
  const text = Array.isArray(value) ? (value.at(-1) ?? '') : value;
  switch (as) {
    case 'list':
      return Array.isArray(value) ? value : value.split(',').filter((item) => item !== '');
    case 'number':
      return Number(text.trim());
    case 'boolean':
      // As v1.bool() reads it: true/false/1/0, in any case, spaces around ignored.
      return ['true', '1'].includes(text.trim().toLowerCase());
    case 'date':
      return dateText(text);
    default:
      return text;
  }
}

const isCalendarDate = (data: unknown) => typeof data === 'object' && data !== null && ['year', 'month', 'day'].every((key) => key in data);

const pad2 = (n: string) => n.padStart(2, '0');

/**
 * A v1 date as v2 takes it, `yyyy-mm-dd`: v1 took `yyyy-m-d`, `MM/dd/yyyy`, or a date-time, which
 * names the date written in it (whatever its time and offset); anything else is sent as it came.
 */
function dateText(text: string): string {
  const trimmed = text.trim();
  const dashed = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:T.*)?$/.exec(trimmed);
  if (dashed) return `${dashed[1]}-${pad2(dashed[2]!)}-${pad2(dashed[3]!)}`;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(trimmed);
  return us ? `${us[3]}-${pad2(us[1]!)}-${pad2(us[2]!)}` : trimmed;
}

const literal = (text: string): unknown[] => {
  const candidates: unknown[] = [text];
  if (text === 'true' || text === 'false') candidates.unshift(text === 'true');
  else if (text !== '' && !Number.isNaN(Number(text))) candidates.unshift(Number(text));
  return candidates;
};

/** The pairs of an enum codec, read from its name and each held to the codec's own answer. */
function enumPairs(codec: InputCodec | OutputCodec): [unknown, unknown][] | undefined {
  const match = /^enum (.+)$/.exec(codec.name);
  if (!match) return undefined;
  const pairs: [unknown, unknown][] = [];
  for (const text of match[1]!.split(', ')) {
    const [v1Text, v2Text] = text.split('↔');
    if (v1Text === undefined || v2Text === undefined) return undefined;
    const pair = pairOf(codec, literal(v1Text), literal(v2Text));
    if (!pair) return undefined;
    pairs.push(pair);
  }
  return pairs;
}

function pairOf(codec: InputCodec | OutputCodec, v1s: unknown[], v2s: unknown[]): [unknown, unknown] | undefined {
  for (const v1 of v1s)
    for (const v2 of v2s) {
      try {
        if ('toV2' in codec && codec.toV2(v1) !== v2) continue;
        if ('toV1' in codec && codec.toV1(v2) !== v1) continue;
        return [v1, v2];
      } catch {
        continue;
      }
    }
  return undefined;
}

export function codecOf(codec: InputCodec | OutputCodec | undefined): Codec {
  if (!codec || codec.name === 'same') return { kind: 'same' };
  // A codec written as its tables (lookupCodec): the recipe carries them as they are.
  if ('lookup' in codec) {
    const { toV2, toV2Else, toV1, toV1Else } = (codec as LookupCodec<unknown, unknown>).lookup;
    return { kind: 'lookup', toV2: toV2.map(([a, b]) => [a, b]), toV2Else, toV1: toV1.map(([a, b]) => [a, b]), toV1Else };
  }
  if (codec.name === 'negated') return { kind: 'negated' };
  if ('jsonFields' in codec) return { kind: 'json-fields', fields: { ...(codec as { jsonFields: JsonFieldsRule }).jsonFields.fields } };
  const pairs = enumPairs(codec);
  return pairs ? { kind: 'enum', pairs } : { kind: 'code', name: codec.name };
}

/** A codec applied as data, one way; undefined where the value has no pair (the translator refuses it). */
export function applyCodec(codec: Codec, value: unknown, direction: 'toV2' | 'toV1'): unknown {
  switch (codec.kind) {
    case 'same':
      return value;
    case 'negated':
      return typeof value === 'boolean' ? !value : value;
    case 'lookup': {
      const [pairs, otherwise] = direction === 'toV2' ? [codec.toV2, codec.toV2Else] : [codec.toV1, codec.toV1Else];
      const pair = pairs.find((p) => p[0] === value);
      if (pair) return pair[1];
      return otherwise === 'same' ? value : otherwise === 'refuse' ? undefined : otherwise.value;
    }
    case 'json-fields':
      return jsonFields(codec.fields, value);
    case 'enum': {
      const pair = codec.pairs.find((p) => (direction === 'toV2' ? p[0] : p[1]) === value);
      return pair ? (direction === 'toV2' ? pair[1] : pair[0]) : undefined;
    }
    default:
      return undefined;
  }
}

/** A JSON object (or its text) with each named field read as v2 takes it, the rest left out; undefined for text that is no JSON object. */
function jsonFields(fields: JsonFieldsRule['fields'], value: unknown): Record<string, unknown> | undefined {
  let object = value;
  if (typeof value === 'string') {
    try {
      object = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (object === null || typeof object !== 'object' || Array.isArray(object)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [name, kind] of Object.entries(fields)) {
    const field = (object as Record<string, unknown>)[name];
    if (field === undefined || field === null) continue;
    if (kind === 'number') out[name] = typeof field === 'string' && /^\s*-?\d+\s*$/.test(field) ? Number(field) : field;
    else if (kind === 'text') out[name] = (typeof field === 'string' ? field : JSON.stringify(field)).replace(/\s+/g, '');
    else out[name] = field;
  }
  return out;
}
