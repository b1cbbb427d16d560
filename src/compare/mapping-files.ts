import * as accountAnswers from '../../mappings/account-answers.js';
import * as accountOptions from '../../mappings/account-options.js';
import * as chat from '../../mappings/chat.js';
import * as dashboards from '../../mappings/dashboards.js';
import * as groups from '../../mappings/groups.js';
import * as h323 from '../../mappings/h323.js';
import * as metrics from '../../mappings/metrics.js';
import * as plans from '../../mappings/plans.js';
import * as recordings from '../../mappings/recordings.js';
import * as recurrence from '../../mappings/recurrence.js';
import * as registration from '../../mappings/registration.js';
import * as reports from '../../mappings/reports.js';
import * as schedulingOptions from '../../mappings/scheduling-options.js';
import * as sessionAnswers from '../../mappings/session-answers.js';
import * as userAnswers from '../../mappings/user-answers.js';
import * as userFields from '../../mappings/user-fields.js';
import * as userOptions from '../../mappings/user-options.js';
import type { CompositeMapping, FieldRow } from '../v1/field-map.js';

/**
 * Where each mapping row and composite is written: its file in mappings/ and the exported table
 * that holds it, so a report names the row a person opens (`mappings/user-fields.ts`, `USER_FIELDS`).
 * Endpoint definitions hold the rows themselves (the same objects, also in tables built from other
 * tables), so a row is found by identity. Every module of mappings/ with rows is listed here; a test
 * fails on a row of an endpoint that none of them exports.
 */
export const MAPPING_MODULES: Readonly<Record<string, Record<string, unknown>>> = {
  'mappings/account-answers.ts': accountAnswers,
  'mappings/account-options.ts': accountOptions,
  'mappings/chat.ts': chat,
  'mappings/dashboards.ts': dashboards,
  'mappings/groups.ts': groups,
  'mappings/h323.ts': h323,
  'mappings/metrics.ts': metrics,
  'mappings/plans.ts': plans,
  'mappings/recordings.ts': recordings,
  'mappings/recurrence.ts': recurrence,
  'mappings/registration.ts': registration,
  'mappings/reports.ts': reports,
  'mappings/scheduling-options.ts': schedulingOptions,
  'mappings/session-answers.ts': sessionAnswers,
  'mappings/user-answers.ts': userAnswers,
  'mappings/user-fields.ts': userFields,
  'mappings/user-options.ts': userOptions,
};

/** A row's or composite's home: the file and the exported table (or composite) that holds it. */
export interface MappingHome {
  file: string;
  table: string;
}

const isRow = (value: unknown): value is FieldRow =>
  typeof value === 'object' && value !== null && typeof (value as FieldRow).v1 === 'string' && typeof (value as FieldRow).v2 === 'string';
const isComposite = (value: unknown): value is CompositeMapping =>
  typeof value === 'object' && value !== null && Array.isArray((value as CompositeMapping).combinations);

/**
 * Rows and composites by identity → where they are written. A table built from others holds their
 * rows too, so a row held by several tables is at home in the smallest (ties by name): a module's
 * exports come in the order of their names, not of the source, so "the first" would name a
 * composed table in one loader and its part in another.
 */
export function mappingHomes(modules: Readonly<Record<string, Record<string, unknown>>> = MAPPING_MODULES): Map<object, MappingHome> {
  const homes = new Map<object, MappingHome & { size: number }>();
  const note = (value: object, home: MappingHome, size: number) => {
    const known = homes.get(value);
    if (!known || size < known.size || (size === known.size && `${home.file} ${home.table}` < `${known.file} ${known.table}`))
      homes.set(value, { ...home, size });
  };
  for (const [file, exports] of Object.entries(modules)) {
    for (const [table, value] of Object.entries(exports)) {
      if (isComposite(value)) note(value, { file, table }, 1);
      else if (Array.isArray(value))
        for (const item of value as unknown[]) if (isRow(item) || isComposite(item)) note(item, { file, table }, value.length);
    }
  }
  return new Map([...homes].map(([value, { file, table }]) => [value, { file, table }]));
}
