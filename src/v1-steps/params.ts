/**
 * v1 parameters, from wherever legacy clients put them: the query string of a POST, a urlencoded
 * form body, a multipart body, or both (body wins). `a[]=1&a[]=2` arrays are collected under `a`.
 * Percent-encoding and charsets are decoded strictly: a value that is not valid text in its
 * charset is a clear error, never silent replacement characters. A request carries at most
 * `maxFields` fields (V1_MAX_FIELDS), counted as they are read: reading stops at the first one
 * past the cap, so the work done for a form of 400,000 fields is the work of 1,001.
 *
 * The params come out as v1 read them, in one pass: each value trimmed as it is added, and a field
 * left blank dropped (see FormFields), so nothing walks or copies the map afterwards.
 */

import { isAscii } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { Failure } from '../shared/failure.js';
import { DEFAULT_BUDGET } from '../http/request-body.js';

export type V1Value = string | string[] | File;
export type V1Params = Record<string, V1Value>;

export class ParamDecodeError extends Failure {
  override readonly name = 'ParamDecodeError';
  readonly kind = 'undecodable-params';
}

/** `a[]` (PHP, Rails, jQuery) and `a[0]`, `a[1]` (PHP's http_build_query): items of the list `a`. */
const LIST_KEY = /^(.+)\[(\d*)\]$/;
/**
 * `a[0][b]` (PHP's http_build_query of a list of arrays) and `a[][b]` (Ruby's HTTParty, Rails):
 * field `b` of an item of the object list `a` (`custom_questions`, `panelists`).
 */
const OBJECT_LIST_KEY = /^(.+?)\[(\d*)\]\[([^[\]]+)\]$/;
/** What percent-decoding has to change: without any, a key or value is its own text. */
const ENCODED = /[%+\x80-\xff]/;
/** Any UTF-16 code unit past ASCII. */
const NOT_ASCII = /[\u0080-\uffff]/;
const HEX_PAIR = /^[0-9a-fA-F]{2}$/;
const BYTE_ORDER_MARK = 0xfeff;
/** The content type nearly every v1 call sends, as it sends it. */
const FORM_TYPE = 'application/x-www-form-urlencoded';
const BOUNDARY = /boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/i;
const CHARSET = /charset\s*=\s*"?([\w.:-]+)"?/i;

/** The fields one request may still carry, shared by its query string and its body. */
class FieldCap {
  constructor(
    private readonly max: number,
    private left = max,
  ) {}

  /** The cap as it stands, for a reading that will be done again or only looked ahead. */
  copy(): FieldCap {
    return new FieldCap(this.max, this.left);
  }

  /** The fields left now: a reading that may be done again notes it, rather than copying the cap on every call. */
  get mark(): number {
    return this.left;
  }

  /** The cap as it stood at `mark`. */
  copyAt(mark: number): FieldCap {
    return new FieldCap(this.max, mark);
  }

  take(): void {
    if (--this.left < 0) throw new ParamDecodeError(`Too many parameters: a request may carry at most ${this.max} fields.`);
  }
}

/** A list of objects sent as nested fields: its items by index, and the index written last. */
interface ObjectList {
  items: Map<number, Record<string, string>>;
  last: number;
}

/**
 * The fields of one form, as they are read. List spellings (`a[]`, `a[0]`) accumulate under `a`;
 * a plain key sent again (`a=x&a=y`, as Python's requests sends a list) becomes a list too: a list
 * param reads every value, a scalar param its last one (src/v1/param-types.ts). A list of objects sent as
 * nested fields becomes the JSON text the other v1 clients send for it, so a param has one reading.
 *
 * What legacy clients send around a value is not part of it: surrounding whitespace and a trailing
 * CR/LF (a client that ends its body with `\r\n`) are trimmed, and an empty field counts as not
 * sent (PHP's http_build_query sends every field, the empty ones too), as v1 read them. A blank
 * value still counts where it stands: `a=&a=x` is the list `[x]`, and a blank body field hides the
 * query string's. So it is kept as an empty placeholder (`''` or `[]`) and the placeholders left
 * at the end are removed: a form without blank fields is never walked again.
 */
class FormFields {
  private readonly params: V1Params = {};
  /**
   * Object lists by name: items by index (a Map, so `a[999999999][b]` costs one entry) and the index
   * written last. Made on the first such field: most forms have none.
   */
  private objectLists: Map<string, ObjectList> | undefined;
  /** The keys a blank placeholder was written under; most forms have none. */
  private blanks: string[] | undefined;

  constructor(private readonly cap: FieldCap) {}

  add(rawKey: string, value: string | File): void {
    this.cap.take();
    // Most keys are plain names: the list spellings are only looked for in a key with a bracket.
    const bracketed = rawKey.includes('[');
    const item = bracketed ? OBJECT_LIST_KEY.exec(rawKey) : null;
    if (item && typeof value === 'string') {
      // Every group of the pattern takes part in a match: the defaults are never used.
      const [, name = '', index = '', field = ''] = item;
      return this.addItemField(name, index, field, value);
    }
    const list = bracketed ? LIST_KEY.exec(rawKey) : null;
    const key = list?.[1] ?? rawKey;
    // Written to, it would set the map's prototype, not a field: no v1 param has this name.
    if (key === '__proto__') return;
    if (typeof value !== 'string') this.params[key] = value;
    else this.addText(key, list !== null, value.trim());
  }

  private addText(key: string, listSpelling: boolean, text: string): void {
    const existing = this.params[key];
    if (Array.isArray(existing)) {
      if (text !== '') existing.push(text);
      return;
    }
    let kept: string | string[];
    if (typeof existing === 'string') kept = [existing, text].filter(isText);
    else if (listSpelling) kept = text === '' ? [] : [text];
    else kept = text;
    if (kept.length === 0) (this.blanks ??= []).push(key);
    this.params[key] = kept;
  }

  /** An indexed field goes to its item; an unindexed one (`a[][b]`) to the item written last, or a new one once that item has `b` (Rack's rule). */
  private addItemField(name: string, index: string, field: string, value: string): void {
    const lists = (this.objectLists ??= new Map<string, ObjectList>());
    let list = lists.get(name);
    if (!list) lists.set(name, (list = { items: new Map(), last: -1 }));
    let at: number;
    if (index !== '') at = Number(index);
    else if (list.last === -1) at = 0;
    else at = field in (list.items.get(list.last) ?? {}) ? list.last + 1 : list.last;
    const item = list.items.get(at) ?? {};
    item[field] = value;
    list.items.set(at, item);
    list.last = at;
  }

  /** The params, with `over`'s fields in place of this form's where both have one (the body over the query string). */
  read(over?: FormFields): V1Params {
    this.closeObjectLists();
    let blanks = this.blanks;
    if (over) {
      over.closeObjectLists();
      Object.assign(this.params, over.params);
      blanks = over.blanks && blanks ? [...blanks, ...over.blanks] : (blanks ?? over.blanks);
    }
    // Most forms have no blank field: no empty list is made to walk for them.
    if (blanks === undefined) return this.params;
    for (const key of blanks) {
      const value = this.params[key];
      if ((typeof value === 'string' || Array.isArray(value)) && value.length === 0) delete this.params[key];
    }
    return this.params;
  }

  private closeObjectLists(): void {
    if (!this.objectLists) return;
    for (const [name, { items }] of this.objectLists) {
      const inOrder = [...items.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
      this.params[name] = JSON.stringify(inOrder);
    }
  }
}

function isText(value: string): boolean {
  return value !== '';
}

/**
 * Decode `application/x-www-form-urlencoded` text (also a query string without its `?`), in the
 * declared charset; undeclared, as UTF-8, or — when the bytes are not valid UTF-8 — as
 * windows-1252, the encoding of the era's PHP and Java clients (Latin-1 and its superset).
 */
export function parseUrlEncoded(bytes: Buffer | string, charset?: string, maxFields: number = DEFAULT_BUDGET.maxFields): V1Params {
  return decodeUrlEncoded(bytes, charset, new FieldCap(maxFields)).read();
}

function decodeUrlEncoded(bytes: Buffer | string, charset: string | undefined, cap: FieldCap): FormFields {
  if (charset !== undefined) return decodeForm(bytes, textDecoder(charset), cap);
  // The fallback reads the same fields again: the cap is counted afresh for it, as it stood before.
  const mark = cap.mark;
  try {
    return decodeForm(bytes, UTF_8, cap);
  } catch (error) {
    if (!(error instanceof NotInCharset)) throw error;
    return decodeForm(bytes, textDecoder('windows-1252'), cap.copyAt(mark));
  }
}

/** A value's bytes are not text in the charset tried (the caller may try another). */
class NotInCharset extends ParamDecodeError {}

/** Pair by pair, never splitting the whole text first: past the cap nothing more is looked at. */
function decodeForm(bytes: Buffer | string, decoder: TextDecoder, cap: FieldCap): FormFields {
  const text = typeof bytes === 'string' ? bytes : bytes.toString('latin1');
  // Looked at once for the whole form, so that no field has to be; a body's bytes by the platform's
  // own check (a byte past ASCII is a character past it in the latin1 text), not a pattern over the text.
  const ascii = typeof bytes === 'string' ? !NOT_ASCII.test(text) : isAscii(bytes);
  const quick = decoder === UTF_8 && ascii;
  // In an ASCII form, a key or value has something to decode only where a `%` or `+` lies in it.
  const escapes = ascii ? new Escapes(text) : undefined;
  const fields = new FormFields(cap);
  for (let start = 0; start < text.length;) {
    const amp = text.indexOf('&', start);
    const end = amp === -1 ? text.length : amp;
    if (end > start) {
      const eq = text.indexOf('=', start);
      const hasValue = eq !== -1 && eq < end;
      const keyEnd = hasValue ? eq : end;
      const rawKey = text.slice(start, keyEnd);
      const rawValue = hasValue ? text.slice(eq + 1, end) : '';
      const key = escapes && !escapes.within(start, keyEnd) ? rawKey : percentDecode(rawKey, decoder, quick, null);
      fields.add(key, escapes && !escapes.within(keyEnd + 1, end) ? rawValue : percentDecode(rawValue, decoder, quick, key));
    }
    start = end + 1;
  }
  return fields;
}

/**
 * Where a form's `%` and `+` are, found once each as the form is read from start to end (where a
 * regular expression tested every key and every value): ranges asked for in order, never backwards.
 */
class Escapes {
  private percent: number;
  private plus: number;

  constructor(private readonly text: string) {
    this.percent = text.indexOf('%');
    this.plus = text.indexOf('+');
  }

  /** Whether `text[from, to)` holds a `%` or a `+`; `from` is never before the last range's. */
  within(from: number, to: number): boolean {
    if (this.percent !== -1 && this.percent < from) this.percent = this.text.indexOf('%', from);
    if (this.plus !== -1 && this.plus < from) this.plus = this.text.indexOf('+', from);
    return (this.percent !== -1 && this.percent < to) || (this.plus !== -1 && this.plus < to);
  }
}

/**
 * The parts of a multipart body, counted before the platform's parser reads any (it reads them
 * all at once): one more part than the fields left is refused there and then.
 */
function countParts(bytes: Buffer, contentType: string, cap: FieldCap): void {
  const boundary = BOUNDARY.exec(contentType);
  if (!boundary) return; // the parser refuses it
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`, 'latin1');
  // Each part starts at a delimiter; the last delimiter closes the body.
  let at = bytes.indexOf(delimiter);
  if (at === -1) return;
  for (at = bytes.indexOf(delimiter, at + delimiter.length); at !== -1; at = bytes.indexOf(delimiter, at + delimiter.length)) cap.take();
}

/** Decode a multipart/form-data body with the platform's own parser (files stay File objects). */
export async function parseMultipart(bytes: Buffer, contentType: string, maxFields: number = DEFAULT_BUDGET.maxFields): Promise<V1Params> {
  return (await decodeMultipart(bytes, contentType, new FieldCap(maxFields))).read();
}

async function decodeMultipart(bytes: Buffer, contentType: string, cap: FieldCap): Promise<FormFields> {
  countParts(bytes, contentType, cap.copy());
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new ParamDecodeError('The multipart body is malformed (check its boundary and parts).');
  }
  const fields = new FormFields(cap);
  for (const [key, value] of form.entries()) fields.add(key, value);
  return fields;
}

/** The parameters of a request, as v1 read them: query string first, then the body on top (body wins); at most `maxFields` of them in all. */
export async function readParams(
  search: string,
  body: Buffer,
  contentType: string | undefined,
  maxFields: number = DEFAULT_BUDGET.maxFields,
): Promise<V1Params> {
  return readParamsNow(search, body, contentType, maxFields);
}

/**
 * The same reading, answered at once where nothing has to wait (every form but a multipart one):
 * what the facade's read takes, so the usual call waits on no promise of its own here. A field
 * that cannot be read throws (readParams rejects).
 */
export function readParamsNow(
  search: string,
  body: Buffer,
  contentType: string | undefined,
  maxFields: number = DEFAULT_BUDGET.maxFields,
): V1Params | Promise<V1Params> {
  const cap = new FieldCap(maxFields);
  const query = search.startsWith('?') ? search.slice(1) : search;
  // An empty query string has no fields: nothing is made for it.
  const fromQuery = query === '' ? undefined : decodeUrlEncoded(query, undefined, cap);
  if (body.length === 0) return fromQuery ? fromQuery.read() : {};
  // The usual type is taken as it is: lower-casing it made a string of it on every call.
  const type = contentType === FORM_TYPE ? FORM_TYPE : (contentType ?? '').toLowerCase();
  if (contentType !== undefined && type.startsWith('multipart/form-data')) {
    return decodeMultipart(body, contentType, cap).then((fromBody) => merged(fromQuery, fromBody));
  }
  if (type === '' || type.startsWith('application/x-www-form-urlencoded') || type.startsWith('text/plain')) {
    // Some legacy clients send a form body with no content type, or as text/plain.
    return merged(fromQuery, decodeUrlEncoded(body, charsetOf(contentType, type), cap));
  }
  throw new ParamDecodeError(
    `Unsupported Content-Type "${contentType}": v1 calls send form fields (application/x-www-form-urlencoded or multipart/form-data).`,
  );
}

/** Body wins, merged into the query string's map: both are fresh, neither is copied into a third. */
function merged(fromQuery: FormFields | undefined, fromBody: FormFields): V1Params {
  return fromQuery ? fromQuery.read(fromBody) : fromBody.read();
}

/** The declared charset; the pattern is only run over a type that names one (most name none). */
function charsetOf(contentType: string | undefined, lowerCased: string): string | undefined {
  if (contentType === undefined || contentType === FORM_TYPE) return undefined;
  return lowerCased.includes('charset') ? CHARSET.exec(contentType)?.[1] : undefined;
}

const decoders = new Map<string, TextDecoder>();
function textDecoder(charset: string): TextDecoder {
  const name = charset.toLowerCase();
  let decoder = decoders.get(name);
  if (!decoder) {
    try {
      decoder = new TextDecoder(name, { fatal: true });
    } catch {
      throw new ParamDecodeError(`Unsupported charset "${charset}".`);
    }
    decoders.set(name, decoder);
  }
  return decoder;
}

const UTF_8 = textDecoder('utf-8');

/**
 * `+` is a space; `%XX` are bytes; the bytes are text in `decoder`'s charset. A `quick` form (UTF-8,
 * every byte ASCII, escapes aside) whose escapes are all ASCII too is decoded here
 * (asciiEscapesDecoded); any other is decoded by the platform's decodeURIComponent, which reads
 * `%XX` as UTF-8 bytes as the strict path does; anything it refuses, and a leading byte-order mark
 * (which the strict path's decoder drops and it keeps), is read again by the strict path, so every
 * error names the field and the fault as before.
 */
function percentDecode(raw: string, decoder: TextDecoder, quick: boolean, field: string | null): string {
  if (!ENCODED.test(raw)) return raw;
  if (quick) {
    const ascii = asciiEscapesDecoded(raw);
    if (ascii !== undefined) return ascii;
    try {
      const text = decodeURIComponent(raw.includes('+') ? raw.replaceAll('+', ' ') : raw);
      if (text.charCodeAt(0) !== BYTE_ORDER_MARK) return text;
    } catch {
      // Malformed or not UTF-8: the strict path says which.
    }
  }
  return strictPercentDecode(raw, decoder, field);
}

/** Each hexadecimal digit's value by its character code (ASCII), -1 for any other character. */
const HEX_DIGIT = (() => {
  const digits = new Int8Array(128).fill(-1);
  for (let value = 0; value < 16; value++) {
    digits['0123456789abcdef'.charCodeAt(value)] = value;
    digits['0123456789ABCDEF'.charCodeAt(value)] = value;
  }
  return digits;
})();

/** Where asciiEscapesDecoded writes a value's bytes (decoding is synchronous: one is enough). */
const DECODED = Buffer.allocUnsafe(4096);

/**
 * An ASCII text whose escapes are all well-formed and below `%80` (an email's `%40`, a time's
 * `%3A`, a `+`), decoded in JavaScript: the bytes written into one buffer and read out as one
 * string, what decodeURIComponent answers for it at half its time and a third of its bytes.
 * Undefined for anything else (an escape of a byte past ASCII, a malformed one, a text longer than
 * the buffer): the platform's decoder and the strict path decide it, as before.
 */
function asciiEscapesDecoded(raw: string): string | undefined {
  if (raw.length > DECODED.length) return undefined;
  let length = 0;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw.charCodeAt(i);
    if (ch === 0x2b) DECODED[length++] = 0x20;
    else if (ch !== 0x25) DECODED[length++] = ch;
    else {
      const high = HEX_DIGIT[raw.charCodeAt(i + 1)] ?? -1;
      const low = HEX_DIGIT[raw.charCodeAt(i + 2)] ?? -1;
      if (high < 0 || high > 7 || low < 0) return undefined;
      DECODED[length++] = high * 16 + low;
      i += 2;
    }
  }
  return DECODED.toString('latin1', 0, length);
}

function strictPercentDecode(raw: string, decoder: TextDecoder, field: string | null): string {
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const ch = raw.charCodeAt(i);
    if (ch === 0x2b) bytes.push(0x20);
    else if (ch === 0x25) {
      const hex = raw.slice(i + 1, i + 3);
      if (!HEX_PAIR.test(hex)) throw new ParamDecodeError(`${describe(field)} has a malformed percent-escape "%${hex}".`);
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(ch);
  }
  try {
    return decoder.decode(Uint8Array.from(bytes));
  } catch {
    throw new NotInCharset(`${describe(field)} is not valid ${decoder.encoding} text.`);
  }
}

function describe(field: string | null): string {
  return field === null ? 'A parameter name' : `Parameter ${field}`;
}
