import { XMLBuilder } from 'fast-xml-parser';

/**
 * v1 answers in the format the caller asked for with `data_type` (any letter case): JSON by
 * default, XML on request. The XML layout (documented in docs/decisions.md): a `<response>` root;
 * each field an element; an array a wrapper element named like the field holding one element per
 * item, named by the field's singular (`<users><user>…</user></users>`); booleans `true`/`false`;
 * null an empty element. An error is `<response><error><code>…</code><message>…</message></error></response>`,
 * the same path as in JSON.
 */

export type DataType = 'JSON' | 'XML';

export function dataTypeOf(value: unknown): DataType | undefined {
  if (value === undefined) return 'JSON';
  if (typeof value !== 'string') return undefined;
  const upper = value.trim().toUpperCase();
  if (upper === '' || upper === 'JSON') return 'JSON';
  if (upper === 'XML') return 'XML';
  return undefined;
}

export const CONTENT_TYPE: Record<DataType, string> = {
  JSON: 'application/json; charset=UTF-8',
  XML: 'application/xml; charset=UTF-8',
};

export function serialize(body: unknown, dataType: DataType): string {
  return dataType === 'XML' ? toXml(body) : JSON.stringify(body);
}

const builder = new XMLBuilder({ ignoreAttributes: true, suppressEmptyNode: false, format: false });

/** Singular element names of list fields; anything else drops a final `s`, or is `item`. */
const SINGULAR: Record<string, string> = {
  subAccounts: 'subAccount',
  attendees: 'attendee',
  occurrences: 'occurrence',
  question_details: 'question_detail',
  custom_questions: 'custom_question',
  plan_large_meeting: 'plan',
  plan_webinar: 'plan',
  group_ids: 'group_id',
  im_group_ids: 'im_group_id',
  recording_files: 'recording_file',
};

function singular(key: string): string {
  return SINGULAR[key] ?? (key.endsWith('s') && key.length > 1 ? key.slice(0, -1) : 'item');
}

function xmlShape(value: unknown, key: string): unknown {
  if (Array.isArray(value)) return { [singular(key)]: value.map((item) => xmlShape(item, singular(key))) };
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return xmlText(value);
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record)) {
      // A JSON-only spelling (a key with surrounding spaces beside its trimmed twin) has no XML form.
      if (k !== k.trim() && k.trim() in record) continue;
      out[uniqueName(safeName(k), out)] = xmlShape(v, k);
    }
    return out;
  }
  return value;
}

/**
 * XML 1.0 forbids most control characters, U+FFFE/U+FFFF and unpaired surrogates even escaped: a
 * topic with `%01` in it would make the whole document unreadable. They are dropped.
 */
// The control characters are the point of this pattern.
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function xmlText(text: string): string {
  return text.replace(NOT_XML_CHAR, '');
}

/**
 * Element names must be XML names; v1 field names are, but keys made from data (custom question
 * titles) may not be: other characters become `_`, a name that cannot start one gets a `_` in
 * front, and one reserved for XML (`xml...`) too.
 */
function safeName(key: string): string {
  const cleaned = key.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) && !/^xml/i.test(cleaned) ? cleaned : `_${cleaned}`;
}

/** Two keys that clean to one name (`a b`, `a_b`) must not overwrite each other: the later gets `_2`, `_3`... */
function uniqueName(name: string, taken: Record<string, unknown>): string {
  if (!(name in taken)) return name;
  let n = 2;
  while (`${name}_${n}` in taken) n++;
  return `${name}_${n}`;
}

function toXml(body: unknown): string {
  return `<?xml version="1.0" encoding="UTF-8"?>${builder.build({ response: xmlShape(body, 'response') })}`;
}
