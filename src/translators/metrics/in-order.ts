import { NO_V2_FIELD, toV1, type FieldTable } from '../../v1/field-map.js';

/**
 * Every v1 field of an output table, in the table's (v1's) order: fields v2 lacks, or that have no
 * v2 source at all, answer `fallback` (v1 printed an empty value rather than leave a field out).
 */
export function allFieldsV1(table: FieldTable, v2: unknown, fallback: Record<string, unknown> = {}): Record<string, unknown> {
  const mapped = toV1(table, v2);
  return Object.fromEntries(
    table.map((row) => [row.v1, row.v2 !== NO_V2_FIELD && mapped[row.v1] !== undefined ? mapped[row.v1] : (fallback[row.v1] ?? '')]),
  );
}
