import type { EndpointDefinition } from '../translators/kit/define.js';
import { canonicalPath } from '../translators/kit/registry.js';
import type { CompositeMapping, FieldRow } from '../v1/field-map.js';
import { WHOLE_ANSWER, leafField } from './diff.js';
import { mappingHomes, type MappingHome } from './mapping-files.js';

/**
 * Why a v1 field holds what it holds, for each field of each endpoint: where to look when it
 * differs. One of three sources, in this order:
 *
 * - **a mapping row**: a row (or composite) of the endpoint's own tables answers the field; named
 *   by its file in mappings/, its table and the row (`email ↔ email (same)`);
 * - **minted by the service**: identifiers, links, creation times and tokens are made by the
 *   service that answers (each run of each service mints its own), and passed through;
 * - **the translator**: every other field is computed by the endpoint's translator
 *   (`src/translators/users/list.ts`): paging, action times, counts, values it copies or derives.
 */
export type FieldSource =
  | { kind: 'mapping'; file: string; table: string; row: string }
  | { kind: 'minted' }
  | { kind: 'translator'; file: string }
  /** The whole answer (a difference of format, or of the answer's own type). */
  | { kind: 'answer' }
  /** A path no endpoint serves. */
  | { kind: 'unknown endpoint' };

/**
 * Fields whose values the answering service mints: ids and uuids (`id`, `host_id`, `occurrence_id`),
 * links embedding them (`join_url`, `start_url`), creation times, tokens and generated passwords,
 * and the cursor of the next page.
 */
const MINTED = /^(id|uuid|.+_id|.+_uuid|.+_url|created_at|token|zak|zpk|h323_password|encrypted_password|next_page_token)$/;

export function describeSource(source: FieldSource): string {
  switch (source.kind) {
    case 'mapping':
      return `${source.file} ${source.table}: ${source.row}`;
    case 'minted':
      return 'minted by the service';
    case 'translator':
      return `computed by ${source.file}`;
    case 'answer':
      return 'the whole answer';
    case 'unknown endpoint':
      return 'no endpoint of v1gate serves this path';
  }
}

const rowText = (row: FieldRow) => `${row.v1} ↔ ${row.v2} (${row.codec?.name ?? 'same'})${row.note ? `: ${row.note}` : ''}`;
const compositeText = (composite: CompositeMapping) => `${Object.keys(composite.fields).join(' + ')} ↔ ${composite.v2} (${composite.name})`;

/** Where a row or composite of no mapping module is written: with the translator that declares it. */
const homeOf = (homes: Map<object, MappingHome>, mapping: object, endpoint: EndpointDefinition): MappingHome =>
  homes.get(mapping) ?? { file: endpoint.source ?? 'src/translators', table: 'a table of its own' };

/** The mapping sources of one endpoint's answer fields, by v1 field name (rows that only read input are left out). */
function mappingSources(endpoint: EndpointDefinition, homes: Map<object, MappingHome>): Map<string, FieldSource> {
  const sources = new Map<string, FieldSource>();
  for (const row of (endpoint.tables ?? []).flat()) {
    if (row.direction === 'in' || sources.has(row.v1)) continue;
    sources.set(row.v1, { kind: 'mapping', ...homeOf(homes, row, endpoint), row: rowText(row) });
  }
  for (const composite of endpoint.composites ?? []) {
    for (const v1 of Object.keys(composite.fields)) {
      if (!sources.has(v1)) sources.set(v1, { kind: 'mapping', ...homeOf(homes, composite, endpoint), row: compositeText(composite) });
    }
  }
  return sources;
}

/** The fields a diff path lies in, nearest first: `plan_audio.callout` → `plan_audio`; `users[].x` → `users`. */
function ancestorsOf(field: string): string[] {
  const parts = field.split('.').map((part) => part.replace(/\[\]$/, ''));
  return parts.slice(0, -1).reverse();
}

/** The source of every field of every endpoint: `(path, field)` → FieldSource. */
export function fieldSources(endpoints: readonly EndpointDefinition[]): (path: string, field: string) => FieldSource {
  const homes = mappingHomes();
  const byPath = new Map<string, { endpoint: EndpointDefinition; mapped: Map<string, FieldSource> }>();
  for (const endpoint of endpoints) {
    const entry = { endpoint, mapped: mappingSources(endpoint, homes) };
    for (const path of [endpoint.path, ...(endpoint.aliases ?? [])]) byPath.set(canonicalPath(path), entry);
  }
  return (path, field) => {
    if (field === WHOLE_ANSWER) return { kind: 'answer' };
    const entry = byPath.get(canonicalPath(path));
    if (!entry) return { kind: 'unknown endpoint' };
    const leaf = leafField(field);
    const mapped = entry.mapped.get(leaf);
    if (mapped) return mapped;
    if (MINTED.test(leaf)) return { kind: 'minted' };
    // A part of a value one row answers whole (`plan_base.type` of the `plan_base` row).
    for (const ancestor of ancestorsOf(field)) {
      const whole = entry.mapped.get(ancestor);
      if (whole) return whole;
    }
    return { kind: 'translator', file: entry.endpoint.source ?? 'src/translators' };
  };
}

/** The explanation of a field as words, for a report's column (see describeSource). */
export function mappingIndex(endpoints: readonly EndpointDefinition[]): (path: string, field: string) => string {
  const sources = fieldSources(endpoints);
  return (path, field) => describeSource(sources(path, field));
}
