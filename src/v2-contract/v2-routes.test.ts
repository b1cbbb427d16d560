import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BEYOND_TODAY } from './v2-beyond-today.js';
import { v2Route } from './v2-route.js';
import { ALL_V2_ROUTES, NEWER_THAN_REFERENCE, RETIRED } from './v2-routes.js';
import { TODAY_V2 } from './v2-today.js';

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

describe("each route's category and scopes: today's documents, derived", () => {
  const inToday = (name: string) => TODAY_V2[name]?.category != null;

  it('takes them from the documents for every route they hold', () => {
    for (const route of ALL_V2_ROUTES.filter((r) => inToday(r.name))) {
      const today = TODAY_V2[route.name]!;
      expect({ category: route.category, scopes: route.scopes }, route.name).toEqual({
        category: today.category,
        scopes: { granular: today.granular, classic: today.classic },
      });
      expect(today.granular.length + today.classic.length, route.name).toBeGreaterThan(0);
    }
  });

  it('lists with a reason, in BEYOND_TODAY, exactly the routes the gateway calls that the documents do not hold', () => {
    const absent = ALL_V2_ROUTES.filter((route) => !inToday(route.name)).map((route) => route.name);
    expect(Object.keys(BEYOND_TODAY).sort()).toEqual(absent.sort());
    for (const [name, row] of Object.entries(BEYOND_TODAY)) {
      expect(row.why.length, name).toBeGreaterThan(40);
      const route = ALL_V2_ROUTES.find((r) => r.name === name)!;
      expect(route.category, name).toBe(row.category);
      expect(route.scopes, name).not.toBeNull();
      if (row.scopesOf !== undefined) expect(TODAY_V2[row.scopesOf], `${name} borrows from ${row.scopesOf}`).toBeDefined();
    }
  });

  it('borrows a retired route’s scopes from its replacement', () => {
    for (const [route, retirement] of RETIRED) {
      const replacement = retirement.replacement.replace(/\?.*$/, '');
      expect(BEYOND_TODAY[route.name]?.scopesOf, route.name).toBe(replacement);
    }
  });

  it('knows no scopes of a route in neither, which the catalogue may therefore not hold', () => {
    const stranger = v2Route('GET', '/not/a/route/{id}');
    expect(stranger.scopes).toBeNull();
    expect(stranger.category).toBe('light');
    expect(ALL_V2_ROUTES.filter((route) => route.scopes === null)).toEqual([]);
  });
});
