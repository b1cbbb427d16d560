import type { EndpointDefinition } from '../translators/kit/define.js';
import { callCountOf } from '../translators/kit/call-counts.js';
import { canonicalPath } from '../translators/kit/registry.js';
import { fieldSources, type FieldSource } from './field-sources.js';
import { readOnlyIndex } from './why.js';

/** What a comparison knows of the endpoints the targets serve, in one place for the CLI and shadow mode. */
export interface EndpointFacts {
  isRead(path: string): boolean;
  source(path: string, field: string): FieldSource;
  /** The declared typical v2 calls per v1 call (docs/coverage.md's count); undefined for a path none serves. */
  declaredCost(path: string): number | string | undefined;
  /** Every path served (canonical, aliases apart). */
  serves: readonly string[];
}

export function endpointFacts(endpoints: readonly EndpointDefinition[]): EndpointFacts {
  const costs = new Map<string, number | string>();
  for (const endpoint of endpoints) {
    const typical = callCountOf(canonicalPath(endpoint.path), endpoint).typical;
    for (const path of [endpoint.path, ...(endpoint.aliases ?? [])]) costs.set(canonicalPath(path), typical);
  }
  return {
    isRead: readOnlyIndex(endpoints),
    source: fieldSources(endpoints),
    declaredCost: (path) => costs.get(canonicalPath(path)),
    serves: endpoints.map((endpoint) => canonicalPath(endpoint.path)),
  };
}
