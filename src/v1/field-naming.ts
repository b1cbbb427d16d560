import { NO_V2_FIELD, type CompositeMapping, type FieldTable } from './field-map.js';

/**
 * The one way a v2 field error is told in v1 words: v2 answers 400 naming field paths of the body
 * it was sent (`settings.audio`, `plan_webinar.1.type`), and the v1 error names the v1 field each
 * came from (`option_audio`, `plan_webinar`). Each endpoint gets one `v1FieldOf`, built once from
 * its tables and composites, with an override map for what no table says.
 */
export type V1FieldOf = (v2Path: string) => string | undefined;

/** A table whose v2 paths are written relative to another object than the body v2's errors name. */
export interface MovedTable {
  table: FieldTable;
  /** Put in front of each row's v2 path: the rows describe an object sent nested (`contact.`). */
  add?: string;
  /** Taken off each row's v2 path: the rows are written nested but sent flat (`options.`, to PATCH options). */
  strip?: string;
}

export interface V1FieldNaming {
  tables?: readonly FieldTable[];
  composites?: readonly CompositeMapping[];
  /** Tables also found under their moved paths (their own paths still name them). */
  moved?: readonly MovedTable[];
  /** v2 path → v1 field for what no table row names (`members` → `member_ids`); these win over the tables. */
  overrides?: Readonly<Record<string, string>>;
}

/**
 * The `v1FieldOf` of an endpoint. A path names the v1 field of its own entry or of its nearest
 * ancestor's (`recurrence.weekly_days` → the field that carried `recurrence`): v2 checks inside a
 * value the v1 client sent whole. A composite (several v1 fields ↔ one v2 field) names all its
 * fields. Unnamed paths answer undefined (the error then shows v2's path).
 */
export function v1FieldNamer({ tables = [], composites = [], moved = [], overrides = {} }: V1FieldNaming): V1FieldOf {
  const names = new Map<string, string>(Object.entries(overrides));
  const name = (v2Path: string, v1Field: string) => {
    if (!names.has(v2Path)) names.set(v2Path, v1Field);
  };
  for (const table of tables) for (const row of inputRows(table)) name(row.v2, row.v1);
  for (const { table, add = '', strip = '' } of moved) {
    for (const row of inputRows(table)) name(add + (strip && row.v2.startsWith(strip) ? row.v2.slice(strip.length) : row.v2), row.v1);
  }
  for (const composite of composites) name(composite.v2, Object.keys(composite.fields).join(', '));
  return (v2Path) => {
    for (let path = v2Path; ;) {
      const found = names.get(path);
      if (found !== undefined) return found;
      const dot = path.lastIndexOf('.');
      if (dot < 0) return undefined;
      path = path.slice(0, dot);
    }
  };
}

/** The rows a v1 call sends to v2 (output-only and dropped rows are never in a v2 body). */
const inputRows = (table: FieldTable) => table.filter((row) => row.direction !== 'out' && row.v2 !== NO_V2_FIELD);
