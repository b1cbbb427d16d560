import { holdsSecret, isSecretField, type Redactor } from '../shared/secrets.js';
import { boundText, LEFT_OUT, LOG_LINE_LIMITS, MORE, PLAIN, SMALL_VALUE_BYTES, type Budget } from './log-volume.js';

/**
 * A log line's fields written as JSON text in one pass, each value redacted (src/shared/secrets.ts)
 * and bounded (src/ops/log-volume.ts) as it is written: the text pino writes for the same fields
 * after its `formatters.log` has redacted the whole line, then bounded it, and its stringify has
 * written it (three walks over the line and a copy for each that changes something). Parsed, the
 * two are the same object, field by field and in the same order (src/ops/line-json.test.ts holds
 * that for arbitrary call records); texts are escaped as JSON.stringify escapes them (pino writes a
 * short text's lone surrogate as it is, which a UTF-8 file then holds as U+FFFD).
 *
 * A few lines are not written this way, and `onePass` answers undefined for them, for the general
 * path to write: a field whose name holds a secret by value (the redactor moves it to the end of
 * its object under its new name), a field name clipped by its bound or named `…` (clipped names
 * could meet, and the general path keeps one of them), and a value that is neither JSON data nor
 * a plain object or list (an error's stack, a file: pino's serializers and toJSON decide those).
 */

/** Thrown where only the general path writes the line exactly; caught once, by `onePass`. */
class NotOnePass extends Error {}

/**
 * The fields of a line written by `write` (with `topField`, one by one), or undefined when the line
 * is one only the general path writes exactly.
 */
export function onePass<T>(write: (subject: T, redactor: Redactor) => string, subject: T, redactor: Redactor): string | undefined {
  try {
    return write(subject, redactor);
  } catch (error) {
    if (error instanceof NotOnePass) return undefined;
    throw error;
  }
}

/** `,"name":` of each top-level name written so far: a line's names are the code's own, a handful. */
const keys = new Map<string, string>();

/**
 * `,"name":value` as pino writes a line's field (nothing for an undefined value), redacted and
 * bounded; within `onePass`. Each top-level field has its own budget, and its name (the code's
 * own) is not bounded.
 */
export function topField(redactor: Redactor, name: string, value: unknown): string {
  if (value === undefined) return '';
  if (redactor.fieldName(name) !== name) throw new NotOnePass();
  const json = fieldJson(redactor, name, value, { left: LOG_LINE_LIMITS.fieldBytes }, 0);
  if (json === undefined) return '';
  let key = keys.get(name);
  if (key === undefined) keys.set(name, (key = `,${stringJson(name)}:`));
  return key + json;
}

/**
 * `,"name":value` of each field of `fields` in their order, as `topField` writes each; where every
 * one is a number, null, or a text that needs nothing done (printable ASCII within its bound, no
 * secret by name or value), all are written by one JSON.stringify. A call line's dozen top-level
 * fields written one by one were three strings each (the quoted text, the name before it, the line
 * so far), about 1.3 KiB allocated per line.
 */
export function topFields(redactor: Redactor, fields: Record<string, unknown>): string {
  if (allPlain(redactor, fields)) {
    const json = JSON.stringify(fields);
    return json === '{}' ? '' : `,${json.slice(1, -1)}`;
  }
  let out = '';
  for (const name in fields) out += topField(redactor, name, fields[name]);
  return out;
}

/** Whether `topField` would write each of `fields` exactly as JSON.stringify does (an undefined one: not at all). */
function allPlain(redactor: Redactor, fields: Record<string, unknown>): boolean {
  for (const name in fields) {
    const value = fields[name];
    if (value === undefined) continue;
    if (redactor.fieldName(name) !== name || (isSecretField(name) && holdsSecret(value))) return false;
    if (value === null) continue;
    if (typeof value === 'number') {
      if (!Object.is(redactor.redact(value), value)) return false;
    } else if (typeof value !== 'string' || redactor.text(value) !== value || !plainWithin(value, LOG_LINE_LIMITS.fieldBytes)) {
      return false;
    }
  }
  return true;
}

/** A text as JSON.stringify writes it; most are printable ASCII with nothing to escape, written as they are. */
const stringJson = (text: string) => (PLAIN.test(text) ? `"${text}"` : JSON.stringify(text));

/** A text that fits its bound as it is: the one test of printable ASCII both the bound and the escaping need. */
const fitsPlain = (text: string, budget: Budget) => plainWithin(text, budget.left);
const plainWithin = (text: string, left: number) => text.length <= left && text.length <= LOG_LINE_LIMITS.textBytes && PLAIN.test(text);

/** `text` bounded and written (not redacted: the caller did, or it is the censor). */
function textJson(text: string, budget: Budget): string {
  if (fitsPlain(text, budget)) {
    budget.left -= text.length;
    return `"${text}"`;
  }
  return stringJson(boundText(text, budget));
}

/** A field's name, charged to the budget as log-volume.ts charges it; a name the bound would clip is the general path's. */
function nameJson(name: string, budget: Budget): string {
  if (fitsPlain(name, budget)) {
    budget.left -= name.length;
    return `"${name}"`;
  }
  if (name === MORE || boundText(name, budget) !== name) throw new NotOnePass();
  return JSON.stringify(name);
}

/** The censor a secret was replaced by: bounded, not redacted again. */
const censorJson = (redactor: Redactor, budget: Budget) => textJson(redactor.censor, budget);

/** A field's value as written under its name: the censor when the name says it holds a secret. */
const fieldJson = (redactor: Redactor, name: string, value: unknown, budget: Budget, depth: number) =>
  isSecretField(name) && holdsSecret(value) ? censorJson(redactor, budget) : valueJson(redactor, value, budget, depth);

/** `value` redacted, bounded and written; undefined where JSON.stringify leaves a field out. */
function valueJson(redactor: Redactor, value: unknown, budget: Budget, depth: number): string | undefined {
  if (typeof value === 'string') return textJson(redactor.text(value), budget);
  if (typeof value === 'number') {
    // A number is a secret when it is one by value: the redactor writes the censor for it. Object.is,
    // not !==: NaN is not equal to itself, and a call's NaN ms would read as a secret.
    if (!Object.is(redactor.redact(value), value)) return censorJson(redactor, budget);
    budget.left -= SMALL_VALUE_BYTES;
    return Number.isFinite(value) ? String(value) : 'null';
  }
  if (typeof value === 'boolean' || value === null || value === undefined) {
    budget.left -= SMALL_VALUE_BYTES;
    return value === undefined ? undefined : String(value);
  }
  if (Array.isArray(value)) return listJson(redactor, value, budget, depth);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return objectJson(redactor, value as Record<string, unknown>, budget, depth);
  throw new NotOnePass();
}

function listJson(redactor: Redactor, list: readonly unknown[], budget: Budget, depth: number): string {
  if (depth >= LOG_LINE_LIMITS.depth) return JSON.stringify(LEFT_OUT.deepList(list.length));
  let out = '[';
  let kept = 0;
  for (; kept < list.length && kept < LOG_LINE_LIMITS.entries && budget.left > 0; kept++) {
    out += `${kept === 0 ? '' : ','}${valueJson(redactor, list[kept], budget, depth + 1) ?? 'null'}`;
  }
  if (kept < list.length) out += `${kept === 0 ? '' : ','}${JSON.stringify(LEFT_OUT.items(list.length - kept))}`;
  return `${out}]`;
}

function objectJson(redactor: Redactor, object: Record<string, unknown>, budget: Budget, depth: number): string {
  const names = Object.keys(object);
  // A name holding a secret anywhere in the object moves in the redacted copy, and so changes which names are kept.
  for (const name of names) if (redactor.fieldName(name) !== name) throw new NotOnePass();
  if (depth >= LOG_LINE_LIMITS.depth) return JSON.stringify(LEFT_OUT.deepObject(names.length));
  const plain = plainObjectJson(redactor, object, names, budget);
  if (plain !== undefined) return plain;
  let out = '{';
  let kept = 0;
  for (; kept < names.length && kept < LOG_LINE_LIMITS.entries && budget.left > 0; kept++) {
    const name = names[kept]!;
    // The value is bounded before its name, as log-volume.ts charges them.
    const json = fieldJson(redactor, name, object[name], budget, depth + 1);
    const nameText = nameJson(name, budget);
    if (json !== undefined) out += `${out.length === 1 ? '' : ','}${nameText}:${json}`;
  }
  if (kept < names.length)
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(MORE)}:${JSON.stringify(LEFT_OUT.fields(names.length - kept))}`;
  return `${out}}`;
}

/**
 * An object of texts and numbers that need nothing done (no secret by name or value, each name and
 * text printable ASCII within its bounds, no entry left out) written by JSON.stringify at once, as the
 * walk of `objectJson` would write it, the budget charged as it charges it; undefined for the walk
 * to write any other. A call's params are such an object: written field by field, their names,
 * values and separators were a dozen strings each, 1.6 KiB allocated for a 15-field call's line.
 */
function plainObjectJson(redactor: Redactor, object: Record<string, unknown>, names: string[], budget: Budget): string | undefined {
  if (names.length > LOG_LINE_LIMITS.entries) return undefined;
  let { left } = budget;
  for (const name of names) {
    const value = object[name];
    if (left <= 0 || (isSecretField(name) && holdsSecret(value))) return undefined;
    // The value is charged before its name, as the walk charges them. A number is written as
    // JSON.stringify writes it (a NaN or an infinity as null), unless it is a secret by value.
    if (typeof value === 'number') {
      if (!Object.is(redactor.redact(value), value)) return undefined;
      left -= SMALL_VALUE_BYTES;
    } else {
      if (typeof value !== 'string' || redactor.text(value) !== value || !plainWithin(value, left)) return undefined;
      left -= value.length;
    }
    if (!plainWithin(name, left)) return undefined;
    left -= name.length;
  }
  budget.left = left;
  return JSON.stringify(object);
}
