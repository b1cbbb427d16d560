import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REFERENCE_ENDPOINT_PATHS, V1_ENDPOINTS } from '../../mappings/v1-endpoints.js';

/** The v1 path list is data derived from the published v1 reference; it must not drift from it. */
const swagger = JSON.parse(readFileSync(new URL('../../spec/reference/v1-swagger.json', import.meta.url), 'utf8')) as {
  paths: Record<string, unknown>;
};

describe('mappings/v1-endpoints.ts', () => {
  it('marks exactly the paths of the v1 reference as inReference', () => {
    const fixture = Object.keys(swagger.paths)
      .map((p) => p.toLowerCase())
      .sort();
    expect([...REFERENCE_ENDPOINT_PATHS].sort()).toEqual(fixture);
  });

  it('lists each path once, in lower case', () => {
    const paths = V1_ENDPOINTS.map((e) => e.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of paths) expect(path).toBe(path.toLowerCase());
  });

  it('lists no path that is in neither source', () => {
    for (const e of V1_ENDPOINTS) expect(e.inSpec || e.inReference, e.path).toBe(true);
  });
});
