import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS, buildRegistry, canonicalPath } from '../../src/translators/registry.js';

/**
 * Every endpoint of our v1 spec has a translator: the paths are read from the endpoint tables of
 * the spec itself (every `| /path |` row under "## Endpoints"), so a path added there fails here
 * until someone serves it.
 */

const SPEC = new URL('../../../shared/specs/v1-rest-api.md', import.meta.url);

function specEndpointPaths(markdown: string): string[] {
  const start = markdown.indexOf('\n## Endpoints');
  if (start < 0) throw new Error('The v1 spec has no "## Endpoints" section');
  const next = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, next < 0 ? undefined : next);
  const paths = [...section.matchAll(/^\|\s*(\/[^\s|]*)\s*\|/gm)].map((match) => match[1]!);
  return [...new Set(paths)];
}

const paths = specEndpointPaths(readFileSync(SPEC, 'utf8'));
const registry = buildRegistry(ALL_ENDPOINTS);

describe('every v1 spec endpoint is served', () => {
  it('reads the 72 endpoints of the v1 spec', () => {
    expect(paths).toHaveLength(72);
  });

  for (const path of paths) {
    it(path, () => {
      const endpoint = registry.get(canonicalPath(path));
      expect(endpoint, `no translator serves ${path}`).toBeDefined();
      expect(endpoint!.v2Calls.length, `${path} lists no v2 calls`).toBeGreaterThan(0);
    });
  }

  it('also serves the legacy /im/group/member/add that old clients call', () => {
    expect(registry.get('/im/group/member/add')).toBeDefined();
  });
});
