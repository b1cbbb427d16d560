import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalPath } from './registry.js';

/** What canonicalPath answered when it was written with regular expressions: what it must still answer. */
const byPatterns = (path: string) =>
  path
    .toLowerCase()
    .replace(/^\/v1(?=\/)/, '')
    .replace(/\/+$/, '') || '/';

describe('canonicalPath', () => {
  it('answers what the patterns answered, for paths of v1 spellings and others', () => {
    const part = fc.constantFrom('/', '//', 'v1', 'V1', '/v1', '/V1/', 'meeting', 'Create', 'İ', 'ß', '', '/v1/');
    const path = fc.oneof(
      fc.array(part, { maxLength: 6 }).map((parts) => parts.join('')),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(path, (given) => {
        expect(canonicalPath(given)).toBe(byPatterns(given));
      }),
      { numRuns: 5_000 },
    );
  });

  it('reads the usual spellings as one endpoint', () => {
    for (const given of ['/v1/meeting/create', '/V1/Meeting/Create/', '/meeting/create//'])
      expect(canonicalPath(given)).toBe('/meeting/create');
    expect(canonicalPath('/v1/')).toBe('/');
    expect(canonicalPath('/v1')).toBe('/v1');
  });
});
