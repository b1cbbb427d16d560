import { describe, expect, it } from 'vitest';
import { UNSERVED_REFERENCE_PATHS } from '../../mappings/unserved-endpoints.js';
import { REFERENCE_ENDPOINT_PATHS, SPEC_ENDPOINT_PATHS } from '../../mappings/v1-endpoints.js';
import { ALL_ENDPOINTS } from '../../src/translators/endpoints.js';
import { buildRegistry, canonicalPath } from '../../src/translators/kit/registry.js';

/**
 * Every endpoint of our v1 spec has a translator. The paths are the data of
 * `mappings/v1-endpoints.ts` (checked against the published v1 reference in
 * `test/docs/v1-endpoints.test.ts`), so a path added there fails here until someone serves it.
 */

const registry = buildRegistry(ALL_ENDPOINTS);

/**
 * Endpoints whose v2 counterpart was retired with nothing in its place: served with v1's own refusal
 * and no v2 call (docs/decisions.md, "/user/checkzpk after the ZPK's retirement").
 */
const REFUSED_WITHOUT_V2 = new Set(['/user/checkzpk']);

/** An endpoint calls v2, unless it is one of those; and one of those calls nothing. */
function expectV2CallsListed(path: string, calls: number): void {
  if (REFUSED_WITHOUT_V2.has(canonicalPath(path))) expect(calls, `${path} calls v2 again: drop it from REFUSED_WITHOUT_V2`).toBe(0);
  else expect(calls, `${path} lists no v2 calls`).toBeGreaterThan(0);
}

describe('every v1 spec endpoint is served', () => {
  it('counts the 72 endpoints of the v1 spec and the 93 paths of the v1 reference', () => {
    expect(SPEC_ENDPOINT_PATHS).toHaveLength(72);
    expect(REFERENCE_ENDPOINT_PATHS).toHaveLength(93);
  });

  for (const path of SPEC_ENDPOINT_PATHS) {
    it(path, () => {
      const endpoint = registry.get(canonicalPath(path));
      expect(endpoint, `no translator serves ${path}`).toBeDefined();
      expectV2CallsListed(path, endpoint!.v2Calls.length);
    });
  }

  it('also serves the legacy /im/group/member/add that old clients call', () => {
    expect(registry.get('/im/group/member/add')).toBeDefined();
  });
});

describe('every path of the v1 reference is served, or says why not', () => {
  for (const path of REFERENCE_ENDPOINT_PATHS) {
    it(path, () => {
      const endpoint = registry.get(canonicalPath(path));
      const reason = UNSERVED_REFERENCE_PATHS[path];
      if (endpoint) {
        expect(reason, `${path} is served: drop its reason from mappings/unserved-endpoints.ts`).toBeUndefined();
        expectV2CallsListed(path, endpoint.v2Calls.length);
      } else {
        expect(reason, `no translator serves ${path}, and mappings/unserved-endpoints.ts gives no reason`).toMatch(/\S/);
      }
    });
  }

  it('gives reasons only for paths of the reference', () => {
    for (const path of Object.keys(UNSERVED_REFERENCE_PATHS)) expect(REFERENCE_ENDPOINT_PATHS).toContain(path);
  });
});
