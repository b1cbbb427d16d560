import fc from 'fast-check';
import { TextDecoder } from 'node:util';
import { describe, expect, it } from 'vitest';
import { hostilePieces } from '../../test/support/hostile-texts.js';
import { ParamDecodeError, readParams, type V1Params } from './params.js';

/*
 * The form reading before it became one pass, kept as the reference the reader is held to: it
 * decoded every field in JavaScript, then copied the map without its blank fields. Whatever a
 * client sends, the two read the same params, in the same order, or refuse it with the same words.
 */
const reference = (() => {
  const LIST_KEY = /^(.+)\[(\d*)\]$/;
  const OBJECT_LIST_KEY = /^(.+?)\[(\d*)\]\[([^[\]]+)\]$/;
  class NotInCharset extends ParamDecodeError {}
  class FieldCap {
    constructor(
      private readonly max: number,
      private left = max,
    ) {}
    copy = () => new FieldCap(this.max, this.left);
    take(): void {
      if (--this.left < 0) throw new ParamDecodeError(`Too many parameters: a request may carry at most ${this.max} fields.`);
    }
  }
  class FormFields {
    private readonly params: V1Params = {};
    private readonly objectLists = new Map<string, { items: Map<number, Record<string, string>>; last: number }>();
    constructor(private readonly cap: FieldCap) {}
    add(rawKey: string, value: string | File): void {
      this.cap.take();
      const bracketed = rawKey.includes('[');
      const item = bracketed ? OBJECT_LIST_KEY.exec(rawKey) : null;
      if (item && typeof value === 'string') {
        const [, name = '', index = '', field = ''] = item;
        return this.addItemField(name, index, field, value);
      }
      const list = bracketed ? LIST_KEY.exec(rawKey) : null;
      const key = list?.[1] ?? rawKey;
      const existing = this.params[key];
      if (typeof value !== 'string') this.params[key] = value;
      else if (Array.isArray(existing)) existing.push(value);
      else if (typeof existing === 'string') this.params[key] = [existing, value];
      else this.params[key] = list ? [value] : value;
    }
    private addItemField(name: string, index: string, field: string, value: string): void {
      let list = this.objectLists.get(name);
      if (!list) this.objectLists.set(name, (list = { items: new Map(), last: -1 }));
      let at: number;
      if (index !== '') at = Number(index);
      else if (list.last === -1) at = 0;
      else at = field in (list.items.get(list.last) ?? {}) ? list.last + 1 : list.last;
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
  const describeField = (field: string | null) => (field === null ? 'A parameter name' : `Parameter ${field}`);
  function percentDecode(raw: string, decoder: TextDecoder, field: string | null): string {
    if (!/[%+\x80-\xff]/.test(raw)) return raw;
    const bytes: number[] = [];
    for (let i = 0; i < raw.length; i++) {
      const ch = raw.charCodeAt(i);
      if (ch === 0x2b) bytes.push(0x20);
      else if (ch === 0x25) {
        const hex = raw.slice(i + 1, i + 3);
        if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new ParamDecodeError(`${describeField(field)} has a malformed percent-escape "%${hex}".`);
        bytes.push(parseInt(hex, 16));
        i += 2;
      } else bytes.push(ch);
    }
    try {
      return decoder.decode(Uint8Array.from(bytes));
    } catch {
      throw new NotInCharset(`${describeField(field)} is not valid ${decoder.encoding} text.`);
    }
  }
  function decodeForm(bytes: Buffer | string, decoder: TextDecoder, cap: FieldCap): V1Params {
    const text = typeof bytes === 'string' ? bytes : bytes.toString('latin1');
    const fields = new FormFields(cap);
    for (let start = 0; start < text.length;) {
      const amp = text.indexOf('&', start);
      const end = amp === -1 ? text.length : amp;
      if (end > start) {
        const eq = text.indexOf('=', start);
        const hasValue = eq !== -1 && eq < end;
        const key = percentDecode(text.slice(start, hasValue ? eq : end), decoder, null);
        fields.add(key, percentDecode(hasValue ? text.slice(eq + 1, end) : '', decoder, key));
      }
      start = end + 1;
    }
    return fields.read();
  }
  function decodeUrlEncoded(bytes: Buffer | string, charset: string | undefined, cap: FieldCap): V1Params {
    if (charset !== undefined) return decodeForm(bytes, textDecoder(charset), cap);
    const retry = cap.copy();
    try {
      return decodeForm(bytes, textDecoder('utf-8'), cap);
    } catch (error) {
      if (!(error instanceof NotInCharset)) throw error;
      return decodeForm(bytes, textDecoder('windows-1252'), retry);
    }
  }
  async function decodeMultipart(bytes: Buffer, contentType: string, cap: FieldCap): Promise<V1Params> {
    const boundary = /boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
    if (boundary) {
      const counted = cap.copy();
      const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`, 'latin1');
      let at = bytes.indexOf(delimiter);
      if (at !== -1)
        for (at = bytes.indexOf(delimiter, at + delimiter.length); at !== -1; at = bytes.indexOf(delimiter, at + delimiter.length))
          counted.take();
    }
    let form: FormData;
    try {
      form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
    } catch {
      throw new ParamDecodeError('The multipart body is malformed (check its boundary and parts).');
    }
    const fields = new FormFields(cap);
    for (const [key, value] of form.entries()) fields.add(key, value);
    return fields.read();
  }
  function withoutBlankFields(params: V1Params): V1Params {
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
  async function readRaw(search: string, body: Buffer, contentType: string | undefined, maxFields: number): Promise<V1Params> {
    const cap = new FieldCap(maxFields);
    const fromQuery = decodeUrlEncoded(search.startsWith('?') ? search.slice(1) : search, undefined, cap);
    if (body.length === 0) return fromQuery;
    const type = (contentType ?? '').toLowerCase();
    let fromBody: V1Params;
    if (contentType !== undefined && type.startsWith('multipart/form-data')) fromBody = await decodeMultipart(body, contentType, cap);
    else if (type === '' || type.startsWith('application/x-www-form-urlencoded') || type.startsWith('text/plain'))
      fromBody = decodeUrlEncoded(body, /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? '')?.[1], cap);
    else
      throw new ParamDecodeError(
        `Unsupported Content-Type "${contentType}": v1 calls send form fields (application/x-www-form-urlencoded or multipart/form-data).`,
      );
    if (Object.keys(fromQuery).length === 0) return fromBody;
    return Object.assign(fromQuery, fromBody);
  }
  /** What the facade read: the fields, then the map without its blank fields (read.ts). */
  return async (search: string, body: Buffer, contentType: string | undefined, maxFields: number) =>
    withoutBlankFields(await readRaw(search, body, contentType, maxFields));
})();

/** A text as a client percent-encodes it; none for a lone surrogate, which no client can encode. */
function encodedIfText(text: string): string[] {
  try {
    return [encodeURIComponent(text)];
  } catch {
    return [];
  }
}

type Reading = { params: [string, unknown][] } | { refused: string };

/** The params in order, a file by its name and bytes (each reading parses its own File), or the refusal's words. */
async function outcome(reading: Promise<V1Params>): Promise<Reading> {
  try {
    const params = await reading;
    const entries = Object.entries(params).map(([k, v]): [string, unknown] => [k, v instanceof File ? `file ${v.name} ${v.size}` : v]);
    return { params: entries };
  } catch (error) {
    if (!(error instanceof ParamDecodeError)) throw error;
    return { refused: error.message };
  }
}

async function bothRead(search: string, body: Buffer, contentType: string | undefined, maxFields: number): Promise<[Reading, Reading]> {
  return [await outcome(readParams(search, body, contentType, maxFields)), await outcome(reference(search, body, contentType, maxFields))];
}

/** Names as v1 clients spell them, the bracket spellings among them, some percent-encoded. */
const keyArb = fc
  .tuple(
    fc.constantFrom('a', 'b', 'data_type', 'constructor', 'toString', '0', '7', ' a', 'a+b', 'é', '%C3%A9', '%e9', '%zz', '%EF%BB%BFa', ''),
    fc.constantFrom(
      '',
      '',
      '[]',
      '[0]',
      '[1]',
      '[12]',
      '[][b]',
      '[][c]',
      '[0][b]',
      '[1][b]',
      '[0][b][c]',
      '[x]',
      '[',
      '%5B%5D',
      '%5B0%5D%5Bb%5D',
    ),
  )
  .map(([name, brackets]) => name + brackets);

/** Pieces of values: text, spaces and `+`, escapes valid and not, bytes past ASCII, whitespace trim removes. */
const valuePiece = fc.constantFrom(
  'x',
  'Ada',
  ' ',
  '+',
  '++',
  '%20',
  '%41',
  '%2B',
  '%25',
  '%zz',
  '%',
  '%4',
  '%e9',
  '%E9t%E9',
  '%C3%A9',
  '%c3%a9',
  '%EF%BB%BF',
  '%F0%9F%98%80',
  '%ED%A0%80',
  '%C0%80',
  '%F4%90%80%80',
  '\xe9',
  '\xc3\xa9',
  '%0D%0A',
  '%09',
  '%A0',
  '%C2%A0',
  '%E2%80%83',
  '%00',
  '=',
  '%26',
  '',
);
const valueArb = fc.array(valuePiece, { maxLength: 5 }).map((pieces) => pieces.join(''));

/** A form's text: fields with and without `=`, and empty pairs between `&`s. */
const formArb = fc
  .array(
    fc.oneof(
      fc.tuple(keyArb, valueArb).map(([key, value]) => `${key}=${value}`),
      keyArb,
      fc.constant(''),
    ),
    { maxLength: 10 },
  )
  .map((pairs) => pairs.join('&'));

const contentTypeArb = fc.constantFrom(
  undefined,
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=UTF-8',
  'application/x-www-form-urlencoded; charset=windows-1252',
  'application/x-www-form-urlencoded; charset=ISO-8859-1',
  'application/x-www-form-urlencoded; charset=klingon',
  'text/plain',
  'application/json',
  'Application/X-WWW-Form-Urlencoded',
  'APPLICATION/X-WWW-FORM-URLENCODED; CHARSET=UTF-8',
);

describe('the one-pass reader against the reference', () => {
  it('reads every form, query string and body, as the reference does, or refuses it with the same words', async () => {
    await fc.assert(
      fc.asyncProperty(formArb, formArb, contentTypeArb, fc.integer({ min: 0, max: 12 }), async (query, body, contentType, maxFields) => {
        const [read, expected] = await bothRead(query, Buffer.from(body, 'latin1'), contentType, maxFields);
        expect(read).toEqual(expected);
      }),
      { numRuns: 800 },
    );
  });

  it('reads every multipart body as the reference does', async () => {
    const textArb = fc.array(fc.constantFrom('x', ' ', '\r\n', '\t', 'é', '\u00a0', '\u2003', '\ufeff', '😀', ''), { maxLength: 4 });
    const partArb = fc.tuple(
      keyArb,
      fc.oneof(
        textArb.map((t) => t.join('')),
        fc.constant(null),
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(partArb, { maxLength: 8 }), formArb, fc.integer({ min: 0, max: 10 }), async (parts, query, maxFields) => {
        const form = new FormData();
        for (const [key, value] of parts) form.append(key, value ?? new File(['%PDF'], 'a.pdf'));
        const request = new Request('http://x/', { method: 'POST', body: form });
        const bytes = Buffer.from(await request.arrayBuffer());
        const [read, expected] = await bothRead(query, bytes, request.headers.get('content-type') ?? undefined, maxFields);
        expect(read).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('reads ASCII forms, whose escapes below %80 are decoded in JavaScript, as the reference does', async () => {
    // Every byte an escape below %80 can name, in either case, beside escapes past ASCII and
    // malformed ones (which leave the JavaScript decoding to the platform's and the strict path),
    // hostile texts as a client would encode them, and a value longer than the decoding's buffer.
    const hex = (n: number) => n.toString(16).padStart(2, '0');
    const asciiEscape = fc.integer({ min: 0, max: 0x7f }).chain((n) => fc.constantFrom(`%${hex(n)}`, `%${hex(n).toUpperCase()}`));
    const hostile = hostilePieces({ redacted: '[REDACTED]', configured: 'configured-secret-1', own: ['own secret+%/&='] });
    const piece = fc.oneof(
      asciiEscape,
      fc.constantFrom('x', 'Ada', '+', '.', '@', '%', '%4', '%g1', '%8', '%80', '%ff', '%7g', '%C3%A9', '%EF%BB%BFa', '%25', '%2B'),
      fc.constantFrom(...hostile.flatMap(encodedIfText)),
      fc.constant('a%41+'.repeat(1_100)),
    );
    const value = fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join(''));
    const key = fc.oneof(fc.constantFrom('a', 'email', 'a%5B%5D', 'q%5B0%5D%5Bb%5D', '%61', 'a+b'), value);
    const form = fc
      .array(
        fc.tuple(key, value).map(([k, v]) => `${k}=${v}`),
        { maxLength: 6 },
      )
      .map((pairs) => pairs.join('&'));
    const type = fc.constantFrom(undefined, 'application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=utf-8');
    await fc.assert(
      fc.asyncProperty(form, form, type, async (query, body, contentType) => {
        const [read, expected] = await bothRead(query, Buffer.from(body, 'latin1'), contentType, 1_000);
        expect(read).toEqual(expected);
      }),
      { numRuns: 600 },
    );
  });

  it('holds on the cases a blank value decides', async () => {
    const cases: [string, string][] = [
      ['a=&a=x', ''], // a blank first value still makes a list
      ['a=x&a=+', ''],
      ['a[]=&b=1', ''],
      ['a=&b=1&a=2', ''], // where the key first stood
      ['a=x', 'a=%20'], // a blank body field hides the query string's
      ['a=', 'a=y'],
      ['a=x&a[0][b]=', 'b=%0D%0A'],
    ];
    for (const [query, body] of cases) {
      const [read, expected] = await bothRead(query, Buffer.from(body), undefined, 1_000);
      expect(read, `${query} | ${body}`).toEqual(expected);
    }
  });
});

describe('__proto__', () => {
  it('is no param, and a list of that name does not become what other keys read', async () => {
    // Written to a plain object it set the map's prototype, so `0` read the list's first item.
    await expect(readParams('', Buffer.from('__proto__[]=x&__proto__=y&0=z&a=1'), undefined)).resolves.toEqual({ 0: 'z', a: '1' });
    const read = await readParams('__proto__[]=x', Buffer.alloc(0), undefined);
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
  });
});
