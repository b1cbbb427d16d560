/**
 * v1 parameters, from wherever legacy clients put them: the query string of a POST, a urlencoded
 * form body, a multipart body, or both (body wins). `a[]=1&a[]=2` arrays are collected under `a`.
 * Percent-encoding and charsets are decoded strictly: a value that is not valid text in its
 * charset is a clear error, never silent replacement characters.
 */

import { TextDecoder } from 'node:util';

export type V1Value = string | string[] | File;
export type V1Params = Record<string, V1Value>;

export class ParamDecodeError extends Error {
  override readonly name = 'ParamDecodeError';
}

/** `a[]` (PHP, Rails, jQuery) and `a[0]`, `a[1]` (PHP's http_build_query): items of the list `a`. */
const LIST_KEY = /^(.+)\[(\d*)\]$/;
/**
 * `a[0][b]` (PHP's http_build_query of a list of arrays) and `a[][b]` (Ruby's HTTParty, Rails):
 * field `b` of an item of the object list `a` (`custom_questions`, `panelists`).
 */
const OBJECT_LIST_KEY = /^(.+?)\[(\d*)\]\[([^[\]]+)\]$/;

/**
 * The fields of one form, as they are read. List spellings (`a[]`, `a[0]`) accumulate under `a`;
 * a plain key sent again (`a=x&a=y`, as Python's requests sends a list) becomes a list too: a list
 * param reads every value, a scalar param its last one (src/v1/param-types.ts). A list of objects sent as
 * nested fields becomes the JSON text the other v1 clients send for it, so a param has one reading.
 */
class FormFields {
  private readonly params: V1Params = {};
  /** Object lists by name: items by index (a Map, so `a[999999999][b]` costs one entry) and the index written last. */
  private readonly objectLists = new Map<string, { items: Map<number, Record<string, string>>; last: number }>();

  add(rawKey: string, value: string | File): void {
    // Most keys are plain names: the list spellings are only looked for in a key with a bracket.
    const bracketed = rawKey.includes('[');
    const item = bracketed ? OBJECT_LIST_KEY.exec(rawKey) : null;
    if (item && typeof value === 'string') return this.addItemField(item[1]!, item[2]!, item[3]!, value);
    const list = bracketed ? LIST_KEY.exec(rawKey) : null;
    const key = list ? list[1]! : rawKey;
    const existing = this.params[key];
    if (typeof value !== 'string') this.params[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else if (typeof existing === 'string') this.params[key] = [existing, value];
    else this.params[key] = list ? [value] : value;
  }

  /** An indexed field goes to its item; an unindexed one (`a[][b]`) to the item written last, or a new one once that item has `b` (Rack's rule). */
  private addItemField(name: string, index: string, field: string, value: string): void {
    let list = this.objectLists.get(name);
    if (!list) this.objectLists.set(name, (list = { items: new Map(), last: -1 }));
    let at: number;
    if (index !== '') at = Number(index);
    else if (list.last === -1) at = 0;
    else at = field in list.items.get(list.last)! ? list.last + 1 : list.last;
    const item = list.items.get(at) ?? {};
    item[field] = value;
    list.items.set(at, item);
    list.last = at;
  }

  read(): V1Params {
    for (const [name, { items }] of this.objectLists) {
      const inOrder = [...items.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
      this.params[name] = JSON.stringify(inOrder);
    }
    return this.params;
  }
}

/**
 * Decode `application/x-www-form-urlencoded` text (also a query string without its `?`), in the
 * declared charset; undeclared, as UTF-8, or — when the bytes are not valid UTF-8 — as
 * windows-1252, the encoding of the era's PHP and Java clients (Latin-1 and its superset).
 */
export function parseUrlEncoded(bytes: Buffer | string, charset?: string): V1Params {
  if (charset !== undefined) return decodeForm(bytes, textDecoder(charset));
  try {
    return decodeForm(bytes, textDecoder('utf-8'));
  } catch (error) {
    if (!(error instanceof NotInCharset)) throw error;
    return decodeForm(bytes, textDecoder('windows-1252'));
  }
}

/** A value's bytes are not text in the charset tried (the caller may try another). */
class NotInCharset extends ParamDecodeError {}

function decodeForm(bytes: Buffer | string, decoder: TextDecoder): V1Params {
  const text = typeof bytes === 'string' ? bytes : bytes.toString('latin1');
  const fields = new FormFields();
  if (text === '') return fields.read();
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    const key = percentDecode(rawKey, decoder, null);
    fields.add(key, percentDecode(rawValue, decoder, key));
  }
  return fields.read();
}

/** Decode a multipart/form-data body with the platform's own parser (files stay File objects). */
export async function parseMultipart(bytes: Buffer, contentType: string): Promise<V1Params> {
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new ParamDecodeError('The multipart body is malformed (check its boundary and parts).');
  }
  const fields = new FormFields();
  for (const [key, value] of form.entries()) fields.add(key, value);
  return fields.read();
}

/**
 * What legacy clients send around a value is not part of it: surrounding whitespace and a trailing
 * CR/LF (a client that ends its body with `\r\n`) are trimmed, and an empty field counts as not
 * sent (PHP's http_build_query sends every field, the empty ones too), as v1 read them.
 */
export function withoutBlankFields(params: V1Params): V1Params {
  const out: V1Params = {};
  for (const [key, value] of Object.entries(params)) {
    if (typeof value === 'string') {
      const trimmed = value.trim();
      if (trimmed !== '') out[key] = trimmed;
    } else if (Array.isArray(value)) {
      const kept = value.map((v) => v.trim()).filter((v) => v !== '');
      if (kept.length > 0) out[key] = kept;
    } else out[key] = value;
  }
  return out;
}

/** The parameters of a request: query string first, then the body on top (body wins). */
export async function readParams(search: string, body: Buffer, contentType: string | undefined): Promise<V1Params> {
  const fromQuery = parseUrlEncoded(search.startsWith('?') ? search.slice(1) : search);
  if (body.length === 0) return fromQuery;
  const type = (contentType ?? '').toLowerCase();
  let fromBody: V1Params;
  if (type.startsWith('multipart/form-data')) {
    fromBody = await parseMultipart(body, contentType!);
  } else if (type === '' || type.startsWith('application/x-www-form-urlencoded') || type.startsWith('text/plain')) {
    // Some legacy clients send a form body with no content type, or as text/plain.
    fromBody = parseUrlEncoded(body, charsetOf(contentType));
  } else {
    throw new ParamDecodeError(
      `Unsupported Content-Type "${contentType}": v1 calls send form fields (application/x-www-form-urlencoded or multipart/form-data).`,
    );
  }
  // Body wins. Both objects are fresh: merge into one instead of copying both into a third.
  if (Object.keys(fromQuery).length === 0) return fromBody;
  return Object.assign(fromQuery, fromBody);
}

function charsetOf(contentType: string | undefined): string | undefined {
  return /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? '')?.[1];
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

/** `+` is a space; `%XX` are bytes; the bytes are text in `decoder`'s charset. */
function percentDecode(raw: string, decoder: TextDecoder, field: string | null): string {
  if (!/[%+\x80-\xff]/.test(raw)) return raw;
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const ch = raw.charCodeAt(i);
    if (ch === 0x2b) bytes.push(0x20);
    else if (ch === 0x25) {
      const hex = raw.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new ParamDecodeError(`${describe(field)} has a malformed percent-escape "%${hex}".`);
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
