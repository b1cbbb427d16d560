import type { Logger } from 'pino';
import { refilledTokens, takeToken, type BucketSpec, type BucketState } from '../shared/token-bucket.js';
import type { CallObserver } from '../v1-steps/observe.js';

/**
 * What a client with no credentials can make the gateway write to its log, bounded two ways:
 *
 * - **each line's size** (`boundLogLine`, on every line after its secrets are redacted): a text
 *   (a path, a field name, a field's value) is clipped past LOG_LINE_LIMITS.textBytes, an object
 *   or a list past LOG_LINE_LIMITS.entries entries, and each top-level field of a line holds at
 *   most LOG_LINE_LIMITS.fieldBytes of its nested texts. A form with one field of 4 MiB wrote a log
 *   line of 4 MiB, and one of 990 fields of 500 characters half a megabyte; a line's top-level
 *   fields are the code's own, so a line is bounded whatever the request held;
 * - **how many lines of anonymous calls** (`sampleFailedCalls`): each kind of failure (its v1 code
 *   and endpoint) writes its lines up to a budget per second, and all kinds together up to another;
 *   the lines past them are counted and written as one summary line a second later. A call whose
 *   pair was proven (by v2 or the credential map) is never held back: its key's own rate limit
 *   bounds it. Every other call's line counts, whatever its level: a line at error level (a bug an
 *   anonymous request reached) is as much a line as a refusal's.
 */

export const LOG_LINE_LIMITS = {
  /** The most bytes (as written: JSON escapes and UTF-8 counted) of one text: a value, a field name. */
  textBytes: 256,
  /** The most entries of one object or list; the rest are counted in an entry `…`. */
  entries: 64,
  /** The most bytes of texts nested under one top-level field of a line (a call's params, its v2 calls). */
  fieldBytes: 2_048,
  /** Deeper than this, a value is replaced by a marker. */
  depth: 8,
} as const;

/** The name of the entry that stands for the entries left out of an object. */
export const MORE = '…';

/** What a bounded line writes in place of what it leaves out (src/ops/line-json.ts writes the same). */
export const LEFT_OUT = {
  /** A list too deep to write. */
  deepList: (items: number) => `[a list of ${items}]`,
  /** An object too deep to write. */
  deepObject: (fields: number) => `[an object of ${fields} fields]`,
  /** The last item of a list cut short. */
  items: (items: number) => `${MORE}(${items} more)`,
  /** The value of the entry MORE of an object cut short. */
  fields: (fields: number) => `${fields} more fields`,
} as const;

/** What a value that is not a text (a number, a switch, null) is charged against its field's budget. */
export const SMALL_VALUE_BYTES = 8;

/** The bytes a character takes in a JSON line (UTF-8, escapes); a lone surrogate is escaped (`\udxxx`). */
function bytesOfChar(code: number): number {
  if (code < 0x80) return code < 0x20 ? 6 : code === 0x22 || code === 0x5c ? 2 : 1;
  if (code < 0x800) return 2;
  return code >= 0xd800 && code <= 0xdfff ? 6 : 3;
}

/** Printable ASCII but `"` and `\\`: written as it is, a byte a character. */
export const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

export interface Budget {
  /** Bytes left for the texts of the field being walked. */
  left: number;
}

/** `text` whole when it fits the text bound and the budget, else its longest prefix that does, marked; the budget charged. */
export function boundText(text: string, budget: Budget): string {
  const room = Math.max(0, Math.min(LOG_LINE_LIMITS.textBytes, budget.left));
  // Most texts: short, printable ASCII with nothing to escape, one byte a character.
  if (text.length <= room && PLAIN.test(text)) {
    budget.left -= text.length;
    return text;
  }
  let bytes = 0;
  let end = 0;
  // Only the room's worth of characters is ever looked at: a text of megabytes costs what a short one does.
  for (; end < text.length; end++) {
    const next = bytesOfChar(text.charCodeAt(end));
    if (bytes + next > room) break;
    bytes += next;
  }
  budget.left -= bytes;
  if (end === text.length) return text;
  // Never half a surrogate pair.
  if (end > 0 && bytesOfChar(text.charCodeAt(end - 1)) === 6 && text.charCodeAt(end - 1) < 0xdc00) end--;
  return `${text.slice(0, end)}…(${text.length - end} more characters)`;
}

function boundValue(value: unknown, budget: Budget, depth: number): unknown {
  if (typeof value === 'string') return boundText(value, budget);
  if (Array.isArray(value)) return boundList(value, budget, depth);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return boundObject(value as Record<string, unknown>, budget, depth);
  // Numbers, switches, and what the code itself logs as objects (errors, dates): small, or the code's own.
  budget.left -= SMALL_VALUE_BYTES;
  return value;
}

function boundList(list: readonly unknown[], budget: Budget, depth: number): unknown {
  if (depth >= LOG_LINE_LIMITS.depth) return LEFT_OUT.deepList(list.length);
  let copy: unknown[] | undefined;
  let kept = 0;
  for (; kept < list.length && kept < LOG_LINE_LIMITS.entries && budget.left > 0; kept++) {
    const item = list[kept];
    const bounded = boundValue(item, budget, depth + 1);
    if (bounded !== item) (copy ??= list.slice(0, kept))[kept] = bounded;
    else copy?.push(item);
  }
  if (kept === list.length) return copy ?? list;
  return [...(copy ?? list.slice(0, kept)), LEFT_OUT.items(list.length - kept)];
}

function boundObject(object: Record<string, unknown>, budget: Budget, depth: number): unknown {
  const names = Object.keys(object);
  if (depth >= LOG_LINE_LIMITS.depth) return LEFT_OUT.deepObject(names.length);
  let copy: Record<string, unknown> | undefined;
  let kept = 0;
  for (; kept < names.length && kept < LOG_LINE_LIMITS.entries && budget.left > 0; kept++) {
    const name = names[kept]!;
    const bounded = boundValue(object[name], budget, depth + 1);
    const boundedName = boundText(name, budget);
    if (copy) copy[boundedName] = bounded;
    else if (bounded !== object[name] || boundedName !== name) {
      copy = Object.fromEntries(names.slice(0, kept).map((earlier) => [earlier, object[earlier]]));
      copy[boundedName] = bounded;
    }
  }
  if (kept === names.length) return copy ?? object;
  copy ??= Object.fromEntries(names.slice(0, kept).map((name) => [name, object[name]]));
  copy[MORE] = LEFT_OUT.fields(names.length - kept);
  return copy;
}

/**
 * A log line within LOG_LINE_LIMITS: each top-level field (the code chose those) has the field
 * budget for what it holds. The line itself is returned when nothing needed clipping, as most are.
 */
export function boundLogLine<T extends Record<string, unknown>>(line: T): T {
  let copy: Record<string, unknown> | undefined;
  for (const name of Object.keys(line)) {
    const value = line[name];
    const bounded = boundValue(value, { left: LOG_LINE_LIMITS.fieldBytes }, 0);
    if (bounded !== value) (copy ??= { ...line })[name] = bounded;
  }
  return (copy ?? line) as T;
}

/** The lines of refused calls written per second, of one kind (a v1 code on an endpoint) and of all kinds together. */
export const FAILED_CALL_LINES: { perKind: BucketSpec; all: BucketSpec } = {
  perKind: { ratePerSecond: 10, burst: 20 },
  all: { ratePerSecond: 100, burst: 200 },
};
/** How long after the first line held back the summary of those held back is written. */
export const HELD_BACK_SUMMARY_MS = 1_000;
/** The kinds a summary names one by one (the most frequent); the others are added up. */
const SUMMARY_KINDS = 20;

/**
 * Writes each anonymous call's line (its pair not proven) through `observer` while the budgets
 * allow; counts the others and writes one summary line for them (`v1 call lines held back`) a
 * second after the first. Kinds are v1 codes times endpoints (or none): a small, fixed set,
 * whatever the client sends. A proven pair's lines are all written: its key's limits bound them.
 */
export function sampleFailedCalls(observer: CallObserver, logger: Logger, now: () => number = Date.now): CallObserver {
  const kinds = new Map<string, BucketState>();
  let all: BucketState | undefined;
  let heldBack = new Map<string, number>();
  let summary: NodeJS.Timeout | undefined;
  const writeSummary = () => {
    summary = undefined;
    const counts = [...heldBack].sort((a, b) => b[1] - a[1]);
    heldBack = new Map();
    const total = counts.reduce((sum, [, count]) => sum + count, 0);
    const named = counts.slice(0, SUMMARY_KINDS).map(([kind, count]) => ({ kind, count }));
    // A full bucket says nothing a new one would not: the map holds only the kinds seen lately.
    const at = now();
    for (const [kind, state] of kinds)
      if (refilledTokens(state, FAILED_CALL_LINES.perKind, at) >= FAILED_CALL_LINES.perKind.burst) kinds.delete(kind);
    try {
      logger.warn({ heldBack: total, kinds: named, otherKinds: counts.length - named.length }, 'v1 call lines held back');
    } catch {
      // The gateway closed its log in the meantime: nothing is left to tell.
    }
  };
  return (record) => {
    if (record.pairProven) return observer(record);
    const kind = `${record.errorCode ?? 0} ${record.endpoint ?? '(no endpoint)'}`;
    const at = now();
    const ofKind = takeToken(kinds.get(kind), FAILED_CALL_LINES.perKind, at);
    const ofAll = ofKind.allowed ? takeToken(all, FAILED_CALL_LINES.all, at) : undefined;
    if (ofKind.allowed) kinds.set(kind, ofKind.state);
    if (ofAll) all = ofAll.state;
    if (ofAll?.allowed) return observer(record);
    heldBack.set(kind, (heldBack.get(kind) ?? 0) + 1);
    summary ??= setTimeout(writeSummary, HELD_BACK_SUMMARY_MS).unref();
  };
}
