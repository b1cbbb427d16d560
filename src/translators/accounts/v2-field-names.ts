import type { FieldTable } from '../../v1/field-map.js';

/**
 * How v2 field errors name a table's fields when the table's v2 paths are relative to another
 * object than the one sent: `prefix` added (`contact.first_name` → `first_name`) or removed
 * (`options.share_rc` rows, sent flat to PATCH options, come back as `share_rc`).
 */
export function v2FieldNamesWith(table: FieldTable, change: { add: string } | { strip: string }): Record<string, string> {
  const names: Record<string, string> = {};
  for (const row of table) {
    if (row.direction === 'out') continue;
    const path = 'add' in change ? `${change.add}${row.v2}` : row.v2.startsWith(change.strip) ? row.v2.slice(change.strip.length) : row.v2;
    names[path] ??= row.v1;
  }
  return names;
}
