import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderCoverage } from '../../src/translators/coverage.js';

describe('docs/coverage.md', () => {
  it('is up to date with the translators and mapping tables (run `npm run docs`)', () => {
    const onDisk = readFileSync(new URL('../../docs/coverage.md', import.meta.url), 'utf8');
    expect(onDisk).toBe(renderCoverage());
  });
});
