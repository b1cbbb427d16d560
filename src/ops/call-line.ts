import { isSecretField, withReadableNames, type Redactor } from '../shared/secrets.js';
import type { V1CallRecord } from '../v1-steps/observe.js';
import { keyHash } from './key-hash.js';
import { LOG_LINE_LIMITS, PLAIN, SMALL_VALUE_BYTES } from './log-volume.js';
import { topField } from './line-json.js';

/**
 * The call line's fields, listed once for its three writers: pino's object (`callLineFields`,
 * src/ops/logging.ts), the one-pass JSON (`callLineJson`, src/ops/line-json.ts's walk) and the
 * writer made here from the list at load (`callLineText`), which writes what needs nothing done
 * (most values of most lines) straight from the record, and hands every other value to the walk.
 * src/ops/call-line.test.ts holds it to `callLineJson` byte for byte over arbitrary records.
 */

/** What a secret is replaced by in every log line. */
export const REDACTED = '[Redacted]';

/** A time in milliseconds to a tenth. */
export const tenths = (ms: number) => Math.round(ms * 10) / 10;

type TopField = readonly [name: string, value: (record: V1CallRecord) => unknown];

/** The call line's fields before its params, in the order every writer writes them. */
const CALL_LINE_TOP: readonly TopField[] = [
  ['reqId', (record) => record.requestId],
  // The names OpenTelemetry gives a log line's trace context, which log-to-trace links look for.
  ['trace_id', (record) => record.traceId],
  ['span_id', (record) => record.spanId],
  ['method', (record) => record.method],
  ['client', (record) => record.client],
  ['peer', (record) => record.peer],
  ['endpoint', (record) => record.endpoint ?? null],
  ['path', (record) => (record.endpoint === undefined ? record.rawPath : undefined)],
  ['code', (record) => record.errorCode ?? 0],
  ['ms', (record) => tenths(record.ms)],
  ['keyHash', (record) => (record.apiKey === undefined ? undefined : keyHash(record.apiKey))],
];

/** The call line's fields before its params, as an object (undefined ones included: no writer writes them). */
export function callLineTop(record: V1CallRecord): Record<string, unknown> {
  const top: Record<string, unknown> = {};
  for (const [name, value] of CALL_LINE_TOP) top[name] = value(record);
  return top;
}

/** The request's params as its line shows them: a name that is not a form field's is not written. */
export const paramsOf = (record: V1CallRecord) => record.params && withReadableNames(record.params, REDACTED);

/** One v2 call as the line shows it; a field it has no value for is left out, not written empty. */
export function v2CallOf(call: V1CallRecord['v2Calls'][number]): Record<string, unknown> {
  const line: Record<string, unknown> = { method: call.method, path: call.path, status: call.status, ms: tenths(call.ms) };
  if (call.trackingId !== undefined) line.trackingId = call.trackingId;
  if (call.limitKind !== undefined) line.limit = call.limitKind;
  return line;
}

/**
 * The v2 calls as the line shows them: each with the service's tracking id of its answer, which an
 * operator quotes to the service's support, and for a 429 whose limit it met.
 */
export const v2CallsOf = (record: V1CallRecord) => record.v2Calls.map(v2CallOf);

/**
 * Printable ASCII but `"` and `\` (nothing to escape) and `<` and `=` (no named value, `?zak=`,
 * `<zak>` or `"zak":`, that the redactor would read inside it): the redactor writes such a text as
 * it is unless it holds a secret by value, which is all its `fieldName` replaces.
 */
const BARE = /^[\x20\x21\x23-\x3b\x3e-\x5b\x5d-\x7e]*$/;

/**
 * Whether the walk writes the value `text` as it stands, quoted, with `left` bytes of its field's
 * budget left: within its bounds, nothing to escape, and the redactor leaves it as it is.
 */
const plainText = (redactor: Redactor, text: string, left: number) =>
  text.length <= left &&
  text.length <= LOG_LINE_LIMITS.textBytes &&
  (BARE.test(text) ? redactor.fieldName(text) === text : PLAIN.test(text) && redactor.text(text) === text);

/** Whether the walk writes the entry name `name` as it stands, quoted: within its bounds, nothing to escape (`entry.plain`), no secret by value in it. */
const plainName = (redactor: Redactor, name: string, entry: EntryName, left: number) =>
  name.length <= left && entry.plain && redactor.fieldName(name) === name;

/**
 * A number as JSON.stringify writes it, when the redactor leaves it as it is: a secret is at least
 * MIN_SECRET_LENGTH (8) characters, so only a number written as that many can be one by value.
 */
function numberJson(redactor: Redactor, value: number): string | undefined {
  const text = String(value);
  if (text.length >= 8 && !Object.is(redactor.redact(value), value)) return undefined;
  return Number.isFinite(value) ? text : 'null';
}

/**
 * The line written in as few pieces as it can be (each `+` of two strings is an object V8 keeps
 * until the line is written): a name's key is one piece with what stands around it (the separator
 * before it, the closing quote of a text before that, the opening quote of its own text), and a
 * value is one piece. A key's forms, by `keyForm`: `{` or `,` before it, a text closed before it
 * or not, a text after it or not.
 */
type KeyForms = readonly string[];

function keyFormsOf(name: string): KeyForms {
  const forms: string[] = [];
  for (const lead of ['{', ','])
    for (const close of ['', '"']) for (const open of ['', '"']) forms.push(`${close}${lead}${JSON.stringify(name)}:${open}`);
  return forms;
}

const FIRST = 0;
const NEXT = 4;

/** The JSON text of a line or a part of it so far, and whether a text value's closing quote is still to be written. */
interface Pieces {
  out: string;
  open: boolean;
}

const writeText = (pieces: Pieces, forms: KeyForms, lead: number, text: string) => {
  pieces.out += forms[lead + (pieces.open ? 3 : 1)]!;
  pieces.out += text;
  pieces.open = true;
};

const writeJson = (pieces: Pieces, forms: KeyForms, lead: number, json: string) => {
  pieces.out += forms[lead + (pieces.open ? 2 : 0)]!;
  pieces.out += json;
  pieces.open = false;
};

/** `text` written as it is (a walked field's `,"name":...`, a closing bracket), after the quote a text before it still needs. */
const writeAfter = (pieces: Pieces, text: string) => {
  pieces.out += pieces.open ? `"${text}` : text;
  pieces.open = false;
};

/** Each top field's name, the forms of its key, and whether it reads as a secret (then its value is always the walk's). */
const TOP_KEYS = CALL_LINE_TOP.map(([name]) => ({ name, forms: keyFormsOf(name), secret: isSecretField(name) }));

/** The top fields as `topField` writes each: a plain text, a number or null here, anything else by the walk. */
function writeTop(pieces: Pieces, redactor: Redactor, record: V1CallRecord): void {
  for (let i = 0; i < CALL_LINE_TOP.length; i++) {
    const value = CALL_LINE_TOP[i]![1](record);
    if (value === undefined) continue;
    const { name, forms, secret } = TOP_KEYS[i]!;
    if (!secret && redactor.fieldName(name) === name) {
      if (typeof value === 'string' && plainText(redactor, value, LOG_LINE_LIMITS.fieldBytes)) {
        writeText(pieces, forms, NEXT, value);
        continue;
      }
      const json = typeof value === 'number' ? numberJson(redactor, value) : value === null ? 'null' : undefined;
      if (json !== undefined) {
        writeJson(pieces, forms, NEXT, json);
        continue;
      }
    }
    writeAfter(pieces, topField(redactor, name, value));
  }
}

/**
 * What the writer reads of an entry name whatever the redactor knows, judged once per name: whether
 * it reads as a secret, whether it is printable ASCII with nothing to escape within the text bound,
 * and the forms of its key (made when first written). Every call asks it of each of its params and
 * of each v2 call's fields: a small vocabulary, kept for the names seen lately, bounded.
 */
interface EntryName {
  readonly secret: boolean;
  readonly plain: boolean;
  forms: KeyForms | undefined;
}
const entryNames = new Map<string, EntryName>();
const MAX_ENTRY_NAMES = 4_096;
function entryNameOf(name: string): EntryName {
  let entry = entryNames.get(name);
  if (entry === undefined) {
    entry = { secret: isSecretField(name), plain: name.length <= LOG_LINE_LIMITS.textBytes && PLAIN.test(name), forms: undefined };
    if (entryNames.size < MAX_ENTRY_NAMES) entryNames.set(name, entry);
  }
  return entry;
}
const entryKeyForms = (name: string, entry: EntryName) => (entry.forms ??= keyFormsOf(name));

/** An object being written entry by entry: its pieces, its entries so far, and its field's budget left. */
interface Entries extends Pieces {
  count: number;
  left: number;
}

/**
 * One entry of an object as the walk writes it (src/ops/line-json.ts, `plainObjectJson`) when it
 * needs nothing done: a plain name that reads as no secret, a plain text or a number no secret can
 * be, within the budget as the walk charges it (the value, then its name); false for any other,
 * for the walk to write the whole object.
 */
function plainEntry(redactor: Redactor, entries: Entries, name: string, value: unknown): boolean {
  if (++entries.count > LOG_LINE_LIMITS.entries || entries.left <= 0) return false;
  const entry = entryNameOf(name);
  if (entry.secret) return false;
  const lead = entries.count === 1 ? FIRST : NEXT;
  if (typeof value === 'string') {
    if (!plainText(redactor, value, entries.left)) return false;
    entries.left -= value.length;
    if (!plainName(redactor, name, entry, entries.left)) return false;
    entries.left -= name.length;
    writeText(entries, entryKeyForms(name, entry), lead, value);
    return true;
  }
  if (typeof value !== 'number') return false;
  const json = numberJson(redactor, value);
  if (json === undefined) return false;
  entries.left -= SMALL_VALUE_BYTES;
  if (!plainName(redactor, name, entry, entries.left)) return false;
  entries.left -= name.length;
  writeJson(entries, entryKeyForms(name, entry), lead, json);
  return true;
}

/** Ends an object written by `plainEntry`: an empty one is `{}`. */
const endObject = (entries: Entries) => (entries.count === 0 ? writeAfter(entries, '{}') : writeAfter(entries, '}'));

/** The request's params written after `pieces` as the walk writes a plain object of plain entries; false, nothing written, for the walk. */
function writeParams(pieces: Pieces, redactor: Redactor, params: Readonly<Record<string, unknown>>): boolean {
  if (Object.getPrototypeOf(params) !== Object.prototype) return false;
  const entries: Entries = { out: '', open: false, count: 0, left: LOG_LINE_LIMITS.fieldBytes };
  for (const name of Object.keys(params)) if (!plainEntry(redactor, entries, name, params[name])) return false;
  endObject(entries);
  writeJson(pieces, PARAMS_KEY, NEXT, entries.out);
  return true;
}

/** One v2 call as `v2CallOf` shows it and the walk writes it, from the call itself, into `entries`; false for the walk. */
const plainV2Call = (redactor: Redactor, entries: Entries, call: V1CallRecord['v2Calls'][number]) =>
  plainEntry(redactor, entries, 'method', call.method) &&
  plainEntry(redactor, entries, 'path', call.path) &&
  plainEntry(redactor, entries, 'status', call.status) &&
  plainEntry(redactor, entries, 'ms', tenths(call.ms)) &&
  (call.trackingId === undefined || plainEntry(redactor, entries, 'trackingId', call.trackingId)) &&
  (call.limitKind === undefined || plainEntry(redactor, entries, 'limit', call.limitKind));

/** The v2 calls written after `pieces` as the walk writes the list when no call is cut and each is plain; false, nothing written, for the walk. */
function writeV2(pieces: Pieces, redactor: Redactor, calls: V1CallRecord['v2Calls']): boolean {
  let left: number = LOG_LINE_LIMITS.fieldBytes;
  let out = '[';
  for (let i = 0; i < calls.length; i++) {
    if (i >= LOG_LINE_LIMITS.entries || left <= 0) return false;
    const entries: Entries = { out: i === 0 ? '' : ',', open: false, count: 0, left };
    if (!plainV2Call(redactor, entries, calls[i]!)) return false;
    endObject(entries);
    out += entries.out;
    left = entries.left;
  }
  writeJson(pieces, V2_KEY, NEXT, `${out}]`);
  return true;
}

const PARAMS_KEY = keyFormsOf('params');
const V2_KEY = keyFormsOf('v2');

/**
 * The fields of the call's line but `err` (a bug's line is pino's), as `callLineJson` writes them,
 * within src/ops/line-json.ts's `onePass`: each field whose values need nothing done is written
 * here straight from the record, each other one by the walk (`topField`). The names `params`,
 * `v2` and `kind` are shorter than a secret can be: no redactor renames them.
 */
export function callLineText(record: V1CallRecord, redactor: Redactor): string {
  const pieces: Pieces = { out: '', open: false };
  writeTop(pieces, redactor, record);
  const params = paramsOf(record);
  if (params !== undefined && !writeParams(pieces, redactor, params)) writeAfter(pieces, topField(redactor, 'params', params));
  if (!writeV2(pieces, redactor, record.v2Calls)) writeAfter(pieces, topField(redactor, 'v2', v2CallsOf(record)));
  writeAfter(pieces, topField(redactor, 'kind', record.failure));
  return pieces.out;
}
