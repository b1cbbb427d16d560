import type { EndpointDefinition } from './define.js';

/** The canonical form of a v1 path: lower case, no `/v1` prefix, no trailing slash. */
export function canonicalPath(path: string): string {
  return (
    path
      .toLowerCase()
      .replace(/^\/v1(?=\/)/, '')
      .replace(/\/+$/, '') || '/'
  );
}

/** Path → definition, aliases included; a path served twice is a programming error. */
export function buildRegistry(endpoints: readonly EndpointDefinition[]): Map<string, EndpointDefinition> {
  const registry = new Map<string, EndpointDefinition>();
  for (const endpoint of endpoints) {
    for (const path of [endpoint.path, ...(endpoint.aliases ?? [])]) {
      const key = canonicalPath(path);
      if (registry.has(key)) throw new Error(`Two translators serve ${key}`);
      registry.set(key, endpoint);
    }
  }
  return registry;
}
