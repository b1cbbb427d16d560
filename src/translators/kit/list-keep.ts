import { getPath } from '../../v1/field-map.js';

/**
 * Which items of a v2 list a v1 list keeps, as data: v2 cannot filter some lists as v1 did (a
 * host's webinars by whether they take registration), so the translator reads every item and keeps
 * those the rule keeps. The translator and the recipe read the same rule, so a program moving to v2
 * filters as v1gate does.
 */
export type ListKeep =
  /** The field (a dotted path), or `default` where the item has none, equals the value. */
  | { field: string; default?: unknown; equals: unknown }
  /** The field, or `default`, is not the value. */
  | { field: string; default?: unknown; notEquals: unknown }
  /** The field is a date-time later than the moment the list is read. */
  | { field: string; after: 'now' }
  /** Some item of the array at `some` is kept by `where`. */
  | { some: string; where: ListKeep }
  | { all: readonly ListKeep[] }
  | { any: readonly ListKeep[] };

const valueAt = (item: unknown, field: string, fallback: unknown) => getPath(item, field) ?? fallback;

/** Whether `rule` keeps `item`, read at `nowMs`. */
export function keeps(rule: ListKeep, item: unknown, nowMs: number): boolean {
  if ('all' in rule) return rule.all.every((part) => keeps(part, item, nowMs));
  if ('any' in rule) return rule.any.some((part) => keeps(part, item, nowMs));
  if ('some' in rule) {
    const items = getPath(item, rule.some);
    return Array.isArray(items) && items.some((each) => keeps(rule.where, each, nowMs));
  }
  if ('after' in rule) {
    const at = getPath(item, rule.field);
    return typeof at === 'string' && Date.parse(at) > nowMs;
  }
  const value = valueAt(item, rule.field, rule.default);
  return 'equals' in rule ? value === rule.equals : value !== rule.notEquals;
}
