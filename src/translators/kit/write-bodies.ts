import type { V2Route } from '../../v2-contract/v2-route.js';
import {
  compositesToV2,
  setPath,
  toV2,
  toV2WithDefaults,
  withCompositeDefaults,
  withV1Defaults,
  type CompositeMapping,
  type FieldRow,
  type FieldTable,
} from '../../v1/field-map.js';

/**
 * Which input rows go to which v2 write, declared once: an endpoint whose one v1 call makes several
 * writes (a user create: POST /users, then PATCH its settings) names, for each, the route and the
 * rows its body is built from. The translator builds each body from the declaration (`writeBody`)
 * and the way-out recipe reads the same declaration (src/recipe/plan.ts), so the two cannot say
 * different things of where a field goes.
 */

export interface WriteBody<Route extends V2Route = V2Route> {
  /** The write this body goes to. */
  readonly route: Route;
  /** The input rows whose v2 fields it sends (the mapping rows themselves, as mappings/ writes them). */
  readonly rows: FieldTable;
  /** Composites whose one v2 field it sends (several v1 fields ↔ one v2 field). */
  readonly composites: readonly CompositeMapping[];
  /** The body path the rows' v2 paths are relative to (`user_info`), when not the body itself. */
  readonly under?: string;
  /** Body fields every call sends as they are (`action: 'create'`), by dotted path. */
  readonly constants: Readonly<Record<string, unknown>>;
  /** Whether the v1 defaults of rows and composites the call leaves out are sent (a v1 create's). */
  readonly v1Defaults: boolean;
}

export interface WriteDeclaration<Route extends V2Route> {
  route: Route;
  /** The tables whose input rows it sends: all of them, or only the rows `only` names, less those `except` names. */
  tables: readonly FieldTable[];
  only?: readonly string[];
  except?: readonly string[];
  composites?: readonly CompositeMapping[];
  under?: string;
  constants?: Readonly<Record<string, unknown>>;
  v1Defaults?: boolean;
}

const usedOnInput = (row: FieldRow) => row.direction !== 'out';

/** A write's body, its rows picked once (the tables are constants; the body is built on every call). */
export function declareWrite<Route extends V2Route>(declaration: WriteDeclaration<Route>): WriteBody<Route> {
  const { route, tables, only, except, composites = [], under, constants = {}, v1Defaults = false } = declaration;
  const rows = tables
    .flat()
    .filter((row) => usedOnInput(row) && (only === undefined || only.includes(row.v1)) && !except?.includes(row.v1));
  return { route, rows, composites, ...(under === undefined ? {} : { under }), constants, v1Defaults };
}

/**
 * The v2 body of one declared write for parsed v1 params: its constants, then each of its rows the
 * call gives (or, for a write that sends v1 defaults, whose default applies) through the row's codec,
 * then its composites (`current`: the v2 object as it is, for a composite given in part).
 */
export function writeBody(write: WriteBody, params: Record<string, unknown>, current?: unknown): Record<string, unknown> {
  // Without composites, the rows' defaults need no copy of the params (toV2WithDefaults); a composite reads the copy.
  if (write.v1Defaults && write.composites.length === 0) return bodyOf(write, toV2WithDefaults(write.rows, params));
  const given = write.v1Defaults ? withCompositeDefaults(write.composites, withV1Defaults(write.rows, params)) : params;
  const fields: Record<string, unknown> = toV2(write.rows, given);
  mergeLeaves(fields, compositesToV2(write.composites, given, current));
  return bodyOf(write, fields);
}

/** The body of a write: its constants, then its fields (under its `under` path, if it has one). */
function bodyOf(write: WriteBody, fields: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(write.constants)) setPath(body, path, value);
  if (write.under === undefined) return Object.assign(body, fields);
  if (Object.keys(fields).length > 0) setPath(body, write.under, fields);
  return body;
}

/** Each leaf of `source` set into `target` at its path: a composite's `recording.auto_recording` beside the rows' `recording.*`. */
function mergeLeaves(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    const into = target[key];
    if (isObject(value) && isObject(into)) mergeLeaves(into, value);
    else target[key] = value;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
