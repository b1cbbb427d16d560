import type { Answer } from './answers.js';

/**
 * Field-by-field differences between two v1 answers. Field paths name arrays with `[]`
 * (`users[].email`), so the differences of every item of a list count under one field. Arrays
 * whose items all carry an `id` (or `uuid`) are matched by it, others by position.
 *
 * JSON answers are compared with their types. XML answers (answers.ts) hold only element text,
 * so they never differ in type; their order is part of the document, so a record's fields or a
 * list's items in another order are an `order` difference. A JSON answer and an XML one are one
 * `format` difference, never compared field by field.
 */

export type DifferenceKind = 'missing' | 'extra' | 'type' | 'value' | 'order' | 'format';

export interface Difference {
  field: string;
  /**
   * missing: in A, not in B; extra: in B, not in A; type: JSON types differ; value: same type,
   * other value; order: the same fields or items in another order (XML); format: one answer is
   * JSON, the other XML or text.
   */
  kind: DifferenceKind;
  a: unknown;
  b: unknown;
}

/** The field a diff path ends in (`meetings[].host_id` → `host_id`): what noise rules and mapping rows name. */
export const leafField = (field: string) => field.slice(field.lastIndexOf('.') + 1).replace(/\[\]$/, '');

/** The field a whole answer's difference is reported under. */
export const WHOLE_ANSWER = '(answer)';

export function diffAnswers(a: Answer, b: Answer): Difference[] {
  if (a.format !== b.format) return [{ field: WHOLE_ANSWER, kind: 'format', a: a.format, b: b.format }];
  const out: Difference[] = [];
  walk(a.value, b.value, '', out, a.format === 'XML');
  return out;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function walk(a: unknown, b: unknown, field: string, out: Difference[], ordered: boolean): void {
  const ta = typeOf(a);
  const tb = typeOf(b);
  if (ta !== tb) {
    out.push({ field: field || WHOLE_ANSWER, kind: 'type', a, b });
    return;
  }
  if (ta === 'array') return walkArrays(a as unknown[], b as unknown[], field, out, ordered);
  if (ta === 'object') {
    const oa = a as Record<string, unknown>;
    const ob = b as Record<string, unknown>;
    for (const key of Object.keys(oa)) {
      const child = field ? `${field}.${key}` : key;
      if (!(key in ob)) out.push({ field: child, kind: 'missing', a: oa[key], b: undefined });
      else walk(oa[key], ob[key], child, out, ordered);
    }
    for (const key of Object.keys(ob)) {
      if (!(key in oa)) out.push({ field: field ? `${field}.${key}` : key, kind: 'extra', a: undefined, b: ob[key] });
    }
    if (ordered) orderDifference(Object.keys(oa), Object.keys(ob), field || WHOLE_ANSWER, out);
    return;
  }
  if (a !== b) out.push({ field: field || WHOLE_ANSWER, kind: 'value', a, b });
}

/** The names both sides have, in each side's order: another order is one difference (the common names as each side orders them). */
function orderDifference(a: readonly string[], b: readonly string[], field: string, out: Difference[]): void {
  const inB = new Set(b);
  const inA = new Set(a);
  const commonA = a.filter((name) => inB.has(name));
  const commonB = b.filter((name) => inA.has(name));
  if (commonA.some((name, i) => name !== commonB[i])) out.push({ field, kind: 'order', a: commonA, b: commonB });
}

function identity(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const record = item as Record<string, unknown>;
  const id = record.id ?? record.uuid;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

function walkArrays(a: unknown[], b: unknown[], field: string, out: Difference[], ordered: boolean): void {
  const items = `${field}[]`;
  const ids = a.map(identity);
  const byId = ids.length > 0 && ids.every((id) => id !== undefined) && b.every((item) => identity(item) !== undefined);
  if (byId) {
    const inB = new Map(b.map((item) => [identity(item)!, item]));
    for (const item of a) {
      const other = inB.get(identity(item)!);
      if (other === undefined) out.push({ field: items, kind: 'missing', a: item, b: undefined });
      else {
        walk(item, other, items, out, ordered);
        inB.delete(identity(item)!);
      }
    }
    for (const item of inB.values()) out.push({ field: items, kind: 'extra', a: undefined, b: item });
    if (ordered)
      orderDifference(
        a.map((item) => identity(item)!),
        b.map((item) => identity(item)!),
        items,
        out,
      );
    return;
  }
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i++) walk(a[i], b[i], items, out, ordered);
  for (let i = shared; i < a.length; i++) out.push({ field: items, kind: 'missing', a: a[i], b: undefined });
  for (let i = shared; i < b.length; i++) out.push({ field: items, kind: 'extra', a: undefined, b: b[i] });
}
