import { describe, expect, it } from 'vitest';
import type { V2Route } from '../../src/v2-contract/v2-route.js';
import { RETIRED, V2 } from '../../src/v2-contract/v2-routes.js';
import { ALL_ENDPOINTS } from '../../src/translators/endpoints.js';

/**
 * No v1 endpoint calls a route the service has retired. The endpoints' declared calls are what the
 * gateway sends (test/gateway/declared-calls.test.ts holds each endpoint to them), so reading the
 * declarations is reading the calls.
 */

/** Every route of `V2`, however deeply grouped. */
function routesOf(group: object): V2Route[] {
  return Object.values(group).flatMap((value: unknown) =>
    typeof value === 'object' && value !== null && 'template' in value ? [value as V2Route] : routesOf(value as object),
  );
}

describe('retired v2 routes', () => {
  it('are routes of V2, each naming a replacement that is not itself retired and a public notice', () => {
    const known = new Set(routesOf(V2));
    const retiredNames = new Set([...RETIRED.keys()].map((route) => route.name));
    expect(RETIRED.size).toBeGreaterThan(0);
    for (const [route, { replacement, evidence }] of RETIRED) {
      expect(known.has(route), route.name).toBe(true);
      expect(replacement).toMatch(/^(GET|POST|PATCH|PUT|DELETE) \//);
      expect(retiredNames.has(replacement.split('?')[0]!), replacement).toBe(false);
      expect(evidence).toMatch(/^https:\/\//);
    }
  });

  it('are called by no v1 endpoint', () => {
    const calling: Record<string, string[]> = {};
    for (const endpoint of ALL_ENDPOINTS) {
      const retired = [...endpoint.v2Calls, ...(endpoint.v2Undo ?? [])].filter((route) => RETIRED.has(route)).map((route) => route.name);
      if (retired.length > 0) calling[endpoint.path] = retired;
    }
    expect(calling).toEqual({});
  });

  it('are replaced by the routes the endpoints that called them call now', () => {
    const byPath = new Map(ALL_ENDPOINTS.map((endpoint) => [endpoint.path, endpoint.v2Calls.map((route) => route.name)]));
    expect(byPath.get('/chat/list')).toEqual([RETIRED.get(V2.chat.sessions)!.replacement]);
    expect(byPath.get('/chat/get')).toEqual([RETIRED.get(V2.chat.messages)!.replacement, RETIRED.get(V2.chat.sessions)!.replacement]);
    expect(byPath.get('/metrics/im')).toEqual([RETIRED.get(V2.metrics.im)!.replacement]);
    // The ZPK has no replacement a zpk can be checked against: refused without a call (docs/decisions.md).
    expect(byPath.get('/user/checkzpk')).toEqual([]);
  });
});
