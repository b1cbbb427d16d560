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

/** Singular element names of list fields; anything else drops a final `s`, or is `item` (compare reads XML lists by it too). */
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

export function singular(key: string): string {
  return (Object.hasOwn(SINGULAR, key) ? SINGULAR[key] : undefined) ?? (key.endsWith('s') && key.length > 1 ? key.slice(0, -1) : 'item');
}

/**
 * The XML is written directly, in one walk of the answer. (It was an object reshaped for
 * fast-xml-parser's XMLBuilder, then built: ~50 µs for a meeting against ~5 µs for its JSON, the
 * largest part of XML's extra CPU per call; this writes the same bytes in a fraction of that,
 * checked against the builder in serialize.test.ts.)
 */
function toXml(body: unknown): string {
  return `<?xml version="1.0" encoding="UTF-8"?>${element('response', body, 'response')}`;
}

/** `value` as the element `name`; `key` is the field it came from (a list's items are named by its singular). */
function element(name: string, value: unknown, key: string): string {
  return `<${name}>${content(value, key)}</${name}>`;
}

function content(value: unknown, key: string): string {
  if (value === null || value === undefined) return '';
  // Most text has nothing to escape or drop: one scan of one class says so, and it is written as it is.
  if (typeof value === 'string') return MAYBE_NOT_PLAIN.test(value) ? escapeText(xmlText(value)) : value;
  if (Array.isArray(value)) {
    const item = singular(key);
    let out = '';
    for (const each of value) out += element(item, each, item);
    return out;
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    const named = namedContent(record, keys);
    if (named !== undefined) return named;
    const taken = new Set<string>();
    let out = '';
    for (const k of keys) {
      if (isSpacedTwin(k, record)) continue;
      const name = uniqueName(safeName(k), taken);
      taken.add(name);
      out += element(name, record[k], k);
    }
    return out;
  }
  // Numbers and booleans: nothing in their text needs escaping. Nothing else is in a JSON answer.
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

/** A JSON-only spelling (a key with surrounding spaces beside its trimmed twin): it has no XML form. */
function isSpacedTwin(key: string, record: Record<string, unknown>): boolean {
  return key !== key.trim() && key.trim() in record;
}

/**
 * The content of a record whose keys are XML names (or spaced twins, left out), as every v1
 * answer's are: each key is its element's name as it is, and no two can clash, so nothing is
 * cleaned or numbered and no name needs remembering. Undefined for any other record.
 */
function namedContent(record: Record<string, unknown>, keys: readonly string[]): string | undefined {
  let out = '';
  for (const k of keys) {
    const tags = TAGS.get(k) ?? (XML_NAME.test(k) ? tagsOf(k) : undefined);
    if (tags !== undefined) out += tags[0] + content(record[k], k) + tags[1];
    else if (!isSpacedTwin(k, record)) return undefined;
  }
  return out;
}

/**
 * The open and close tags of a key that is an XML name, made once: a v1 answer's few hundred field
 * names are each tested and spelt out once, not on every answer (a meeting/get in XML: 4.3 µs
 * against 3.0 with the one scan of text below). Keys made of data (custom question titles) are kept
 * too, up to a bound; past it, spelt out each time.
 */
const TAGS = new Map<string, readonly [string, string]>();
const MAX_TAGS = 2048;

function tagsOf(name: string): readonly [string, string] {
  const tags = [`<${name}>`, `</${name}>`] as const;
  if (TAGS.size < MAX_TAGS) TAGS.set(name, tags);
  return tags;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const NEEDS_ESCAPE = /[&<>"']/;
const ESCAPED = /[&<>"']/g;

function escapeText(text: string): string {
  return NEEDS_ESCAPE.test(text) ? text.replace(ESCAPED, (c) => XML_ESCAPES[c]!) : text;
}

/**
 * XML 1.0 forbids most control characters, U+FFFE/U+FFFF and unpaired surrogates even escaped: a
 * topic with `%01` in it would make the whole document unreadable. They are dropped.
 */
// The control characters are the point of this pattern.
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Any character the pattern above may drop: one plain class, so the usual text is passed over in one quick scan. */
// eslint-disable-next-line no-control-regex
const MAYBE_NOT_XML_CHAR = /[\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** Any character that is escaped or may be dropped: text without one is written as it is. */
// eslint-disable-next-line no-control-regex
const MAYBE_NOT_PLAIN = /[&<>"'\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;

function xmlText(text: string): string {
  return MAYBE_NOT_XML_CHAR.test(text) ? text.replace(NOT_XML_CHAR, '') : text;
}

const XML_NAME = /^(?![Xx][Mm][Ll])[A-Za-z_][A-Za-z0-9_.-]*$/;

/**
 * Element names must be XML names; v1 field names are, but keys made from data (custom question
 * titles) may not be: other characters become `_`, a name that cannot start one gets a `_` in
 * front, and one reserved for XML (`xml...`) too.
 */
function safeName(key: string): string {
  if (XML_NAME.test(key)) return key; // every v1 field name
  const cleaned = key.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) && !/^xml/i.test(cleaned) ? cleaned : `_${cleaned}`;
}

/** Two keys that clean to one name (`a b`, `a_b`) must not overwrite each other: the later gets `_2`, `_3`... */
function uniqueName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  let n = 2;
  while (taken.has(`${name}_${n}`)) n++;
  return `${name}_${n}`;
}
