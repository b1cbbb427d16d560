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
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[safeName(k)] = xmlShape(v, k);
    return out;
  }
  return value;
}

/** Element names must be XML names; v1 field names are, but map keys (custom questions) may not be. */
function safeName(key: string): string {
  const cleaned = key.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

function toXml(body: unknown): string {
  return `<?xml version="1.0" encoding="UTF-8"?>${builder.build({ response: xmlShape(body, 'response') })}`;
}
