import type { EndpointDefinition } from '../translators/kit/define.js';
import { canonicalPath } from '../translators/kit/registry.js';

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
