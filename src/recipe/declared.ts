import { z } from 'zod';
import { callCountOf } from '../translators/kit/call-counts.js';
import type { EndpointDefinition } from '../translators/kit/define.js';
import { canonicalPath } from '../translators/kit/registry.js';
import { NO_V2_FIELD, type CompositeMapping, type FieldRow } from '../v1/field-map.js';
import type { RateLimitCategory, V2Route, V2Scopes } from '../v2-contract/v2-route.js';
import { mappingHomes, type MappingHome } from '../compare/mapping-files.js';
import type { ListKeep } from '../translators/kit/list-keep.js';

/**
 * What v1gate declares of one v1 endpoint, read as the plan of a rewrite against v2: the v2 routes
 * it calls and those a rollback calls, how many calls one v1 call makes, and every mapping row both
 * ways (v1 parameter → v2 field on the way in, v2 field → v1 answer field on the way out), each named
 * by the file and table it is written in. Read from the definitions and the tables themselves, so a
 * changed row or route changes the recipe.
 */

export interface RecipeStep {
  /** `GET /users/{userId}`: the route as the v2 reference writes it. */
  route: string;
  method: string;
  path: string;
  reads: boolean;
  category: RateLimitCategory;
  /** The scopes that open it (any one of them), from today's documents; null where they give none. */
  scopes: V2Scopes | null;
}

export interface RecipeField {
  v1: string;
  /** The dotted v2 path, or `(none)` for a v1 field with no home in v2. */
  v2: string;
  /** The codec: how the value changes on the way (`same`, `negated`, an enum's name...). */
  how: string;
  /** The v1 default a create sends when the field is left out (v1's and v2's defaults differ). */
  v1Default?: unknown;
  note?: string;
  /** Where the row is written: `mappings/user-fields.ts USER_FIELDS`. */
  home: string;
}

export interface DeclaredRecipe {
  /** The v1 path, `/user/create`. */
  path: string;
  aliases: string[];
  /** The v1 parameters the endpoint reads (its params schema), credentials and data_type apart. */
  params: string[];
  /** The v2 routes it may call, in the order it declares them. */
  steps: RecipeStep[];
  /** The routes a rollback calls when a later step fails (the undos of earlier writes). */
  undo: RecipeStep[];
  /** v2 calls per v1 call: fewest, typical, most, and what makes them vary. */
  calls: { min: number | string; typical: number | string; max: number | string; note?: string };
  /** Rows used on input: v1 parameter → v2 request field. */
  input: RecipeField[];
  /** Rows used on output: v2 answer field → v1 answer field. */
  output: RecipeField[];
  /**
   * Of an endpoint whose call makes several writes: which rows each write's body is built from
   * (its `v2Writes`, the declaration its translator builds the bodies from).
   */
  writes?: DeclaredWrite[];
  /** Of a list v2 cannot filter as v1 did: which items v1's list keeps (its `listKeep`, the rule its translator applies). */
  keep?: ListKeep;
  /** The translator that computes what no row says. */
  translator: string;
}

export interface DeclaredWrite {
  route: string;
  /** Each row it sends, its v2 path within the body. */
  fields: RecipeField[];
  /** Body fields every call sends as they are. */
  constants: Record<string, unknown>;
  /** Whether it sends the v1 defaults of the rows a call leaves out. */
  v1Defaults: boolean;
}

export function stepOf(route: V2Route): RecipeStep {
  return {
    route: route.name,
    method: route.method,
    path: route.template,
    reads: route.reads,
    category: route.category,
    scopes: route.scopes && { granular: [...route.scopes.granular], classic: [...route.scopes.classic] },
  };
}

function paramNames(endpoint: EndpointDefinition): string[] {
  const schema = endpoint.params as unknown;
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

const homeText = (home: MappingHome | undefined, endpoint: EndpointDefinition) =>
  home ? `${home.file} ${home.table}` : `${endpoint.source ?? 'src/translators'} (a table of its own)`;

function fieldOf(row: FieldRow, home: string): RecipeField {
  return {
    v1: row.v1,
    v2: row.v2,
    how: row.codec?.name ?? 'same',
    ...(row.v1Default === undefined ? {} : { v1Default: row.v1Default }),
    ...(row.note ? { note: row.note } : {}),
    home,
  };
}

/** A composite (several v1 fields ↔ one v2 field), as one field per direction it is used in. */
function compositeField(composite: CompositeMapping, home: string): RecipeField {
  const combinations = composite.combinations.map((c) => `(${Object.values(c.v1).map(String).join(', ')}) ↔ ${String(c.v2)}`).join('; ');
  return { v1: Object.keys(composite.fields).join(' + '), v2: composite.v2, how: `${composite.name}: ${combinations}`, home };
}

export function declaredRecipe(endpoint: EndpointDefinition, homes = mappingHomes()): DeclaredRecipe {
  const path = canonicalPath(endpoint.path);
  const rows = (endpoint.tables ?? []).flat();
  const composites = endpoint.composites ?? [];
  const input: RecipeField[] = [];
  const output: RecipeField[] = [];
  for (const row of rows) {
    const field = fieldOf(row, homeText(homes.get(row), endpoint));
    if (row.direction !== 'out') input.push(field);
    if (row.direction !== 'in' && row.v2 !== NO_V2_FIELD) output.push(field);
  }
  for (const composite of composites) {
    const field = compositeField(composite, homeText(homes.get(composite), endpoint));
    input.push(field);
    output.push(field);
  }
  const writes = endpoint.v2Writes?.map((write): DeclaredWrite => ({
    route: write.route.name,
    fields: [
      ...write.rows.map((row) => {
        const field = fieldOf(row, homeText(homes.get(row), endpoint));
        return write.under === undefined ? field : { ...field, v2: `${write.under}.${field.v2}` };
      }),
      ...write.composites.map((composite) => compositeField(composite, homeText(homes.get(composite), endpoint))),
    ],
    constants: { ...write.constants },
    v1Defaults: write.v1Defaults,
  }));
  const { min, typical, max, note } = callCountOf(path, endpoint);
  return {
    path,
    aliases: (endpoint.aliases ?? []).map(canonicalPath),
    params: paramNames(endpoint),
    steps: endpoint.v2Calls.map(stepOf),
    undo: (endpoint.v2Undo ?? []).map(stepOf),
    calls: { min, typical, max, ...(note ? { note } : {}) },
    input,
    output,
    ...(writes ? { writes } : {}),
    ...(endpoint.listKeep ? { keep: endpoint.listKeep } : {}),
    translator: endpoint.source ?? 'src/translators',
  };
}
