import type { EndpointDefinition } from '../translators/kit/define.js';
import { canonicalPath } from '../translators/kit/registry.js';
import { leafField } from './diff.js';

/**
 * Why a v1 field holds what it holds: the mapping row of `mappings/` that produces it for this
 * endpoint (`v1 ↔ v2 path (codec)`), or "no v2 home". The rows are the endpoint definitions' own
 * tables, the same ones docs/coverage.md is rendered from.
 */
export function mappingIndex(endpoints: readonly EndpointDefinition[]): (path: string, field: string) => string {
  const byPath = new Map<string, Map<string, string>>();
  for (const endpoint of endpoints) {
    const rows = new Map<string, string>();
    for (const row of (endpoint.tables ?? []).flat()) {
      rows.set(row.v1, `${row.v1} ↔ ${row.v2} (${row.codec?.name ?? 'same'})${row.note ? `: ${row.note}` : ''}`);
    }
    for (const composite of endpoint.composites ?? []) {
      for (const v1 of Object.keys(composite.fields))
        rows.set(v1, `${Object.keys(composite.fields).join(' + ')} ↔ ${composite.v2} (${composite.name})`);
    }
    for (const path of [endpoint.path, ...(endpoint.aliases ?? [])]) byPath.set(canonicalPath(path), rows);
  }
  return (path, field) => {
    return byPath.get(canonicalPath(path))?.get(leafField(field)) ?? 'no v2 home in the mapping tables';
  };
}

/** A call is a read when every v2 call its endpoint declares is a GET; unknown paths count as writes. */
export function readOnlyIndex(endpoints: readonly EndpointDefinition[]): (path: string) => boolean {
  const reads = new Set<string>();
  for (const endpoint of endpoints) {
    if (endpoint.v2Calls.length > 0 && endpoint.v2Calls.every((call) => call.startsWith('GET '))) {
      for (const path of [endpoint.path, ...(endpoint.aliases ?? [])]) reads.add(canonicalPath(path));
    }
  }
  return (path) => reads.has(canonicalPath(path));
}
