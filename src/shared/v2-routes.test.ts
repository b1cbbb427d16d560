import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_V2_ROUTES, NEWER_THAN_REFERENCE } from './v2-routes.js';

/** The service's own published v2 OpenAPI, carried in the repository (spec/reference/README.md). */
const reference = JSON.parse(readFileSync(new URL('../../spec/reference/v2-openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
};

describe('the v2 route catalogue', () => {
  it('holds only operations of the v2 reference, written as it writes them, but those newer than it', () => {
    const missing = ALL_V2_ROUTES.filter((route) => reference.paths[route.template]?.[route.method.toLowerCase()] === undefined);
    expect(missing.map((route) => route.name)).toEqual([...NEWER_THAN_REFERENCE.keys()].map((route) => route.name));
  });

  it('says where each route newer than the reference is published, and has none the reference has', () => {
    for (const [route, source] of NEWER_THAN_REFERENCE) {
      expect(source, route.name).toMatch(/^https:\/\//);
      expect(reference.paths[route.template], route.name).toBeUndefined();
    }
  });

  it('names each route once', () => {
    const names = ALL_V2_ROUTES.map((route) => route.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
