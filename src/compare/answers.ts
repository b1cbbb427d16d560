import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { serialize, singular } from '../v1/serialize.js';

/**
 * A v1 answer as it is compared: in the format it came in. JSON keeps its types (a number and a
 * numeric string differ). XML is compared as XML: every value is an element's text (an XML
 * answer has no types to differ in), fields and list items keep their document order (v1's XML
 * has one, and a client reading it in order depends on it). A JSON answer and an XML one are not
 * compared field by field at all: comparing a typed value with element text could only report
 * types that were never there.
 */
export type AnswerFormat = 'JSON' | 'XML' | 'text';

export interface Answer {
  format: AnswerFormat;
  /** JSON: the parsed value. XML: the `<response>` element as text fields (xmlFields). text: the text itself. */
  value: unknown;
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  trimValues: false,
});

/** One element as preserveOrder parses it: `{ name: children }`, or `{ '#text': text }`. */
type OrderedNode = Record<string, unknown>;

/**
 * An element as fields: no child element → its text ('' when empty); children all named as the
 * element's items (`<users><user>…`, v1's list layout: src/v1/serialize.ts), or one name repeated
 * → a list; otherwise an object of its children in document order (a repeated name collects a list).
 */
function xmlFields(name: string, children: readonly OrderedNode[]): unknown {
  const elements = children.filter((child) => !('#text' in child));
  if (elements.length === 0) return children.map((child) => textOf(child['#text'])).join('');
  const named = elements.map((child) => {
    const childName = Object.keys(child)[0]!;
    return { name: childName, value: xmlFields(childName, child[childName] as OrderedNode[]) };
  });
  const first = named[0]!.name;
  if (named.every((child) => child.name === first) && (named.length > 1 || first === singular(name))) return named.map((c) => c.value);
  const fields: Record<string, unknown> = {};
  const repeated = new Set<string>();
  for (const child of named) {
    const existing = fields[child.name];
    if (existing === undefined) fields[child.name] = child.value;
    else if (repeated.has(child.name)) (existing as unknown[]).push(child.value);
    else {
      fields[child.name] = [existing, child.value];
      repeated.add(child.name);
    }
  }
  return fields;
}

/** A text node's text (the parser gives strings; anything else is no text). */
const textOf = (text: unknown) => (typeof text === 'string' ? text : '');

/** XML text as fields (see xmlFields); undefined when it is not a well-formed XML document. */
export function parseXml(text: string): unknown {
  if (XMLValidator.validate(text) !== true) return undefined;
  const roots = (parser.parse(text) as OrderedNode[]).filter((node) => !('#text' in node));
  if (roots.length !== 1) return undefined;
  const name = Object.keys(roots[0]!)[0]!;
  return xmlFields(name, roots[0]![name] as OrderedNode[]);
}

/** An answer's text, read as what it is (a declared type first, then what the text looks like). */
export function parseAnswer(text: string, contentType?: string): Answer {
  const declared = contentType?.toLowerCase();
  const looksXml = text.trimStart().startsWith('<');
  if (declared?.includes('xml') || (!declared?.includes('json') && looksXml)) {
    const value = parseXml(text);
    if (value !== undefined) return { format: 'XML', value };
  }
  try {
    return { format: 'JSON', value: JSON.parse(text) as unknown };
  } catch {
    return { format: 'text', value: text };
  }
}

/**
 * What recordedAnswer reads of a RecordedCall (calls.ts), named here: calls.ts reaches this module
 * through its redactor and the differ, so importing its type back would close a cycle.
 */
type RecordedAnswer = { answer: unknown; dataType: 'JSON' | 'XML' };

/**
 * What a recording holds as its answer: the gateway's recorder keeps the answer object, which it
 * sent as XML when the call asked for XML (so it is compared as the very XML it was); a HAR
 * capture keeps the text as it came.
 */
export function recordedAnswer(call: RecordedAnswer): Answer {
  if (typeof call.answer === 'string') return parseAnswer(call.answer);
  if (call.dataType === 'XML') return parseAnswer(serialize(call.answer, 'XML'), 'application/xml');
  return { format: 'JSON', value: call.answer };
}
