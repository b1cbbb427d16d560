import type { EndpointDefinition } from './define.js';

/**
 * The canonical form of a v1 path: lower case, no `/v1` prefix, no trailing slash. Read on every
 * call, so cut by positions: two regular expressions cost more than the rest of the endpoint's
 * lookup (the trailing one tried each slash of the path). `registry.test.ts` holds it to them.
 */
export function canonicalPath(path: string): string {
  const lower = path.toLowerCase();
  const start = lower.startsWith('/v1/') ? '/v1'.length : 0;
  let end = lower.length;
  while (end > start && lower.charCodeAt(end - 1) === SLASH) end--;
  return end > start ? lower.slice(start, end) : '/';
}

const SLASH = '/'.charCodeAt(0);

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
