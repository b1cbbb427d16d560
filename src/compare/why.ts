import type { EndpointDefinition } from '../translators/kit/define.js';
import { canonicalPath } from '../translators/kit/registry.js';

/**
 * A call is a read when every v2 route its endpoint declares reads (a GET) and it undoes nothing;
 * unknown paths count as writes. The declared-calls test holds each endpoint to its routes.
 */
export function readOnlyIndex(endpoints: readonly EndpointDefinition[]): (path: string) => boolean {
  const reads = new Set<string>();
  for (const endpoint of endpoints) {
    if (endpoint.v2Calls.length > 0 && endpoint.v2Calls.every((route) => route.reads) && !endpoint.v2Undo?.length) {
      for (const path of [endpoint.path, ...(endpoint.aliases ?? [])]) reads.add(canonicalPath(path));
    }
  }
  return (path) => reads.has(canonicalPath(path));
}
