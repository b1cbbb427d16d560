import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderConfiguration } from '../../src/cli/configuration-doc.js';
import { SETTINGS } from '../../src/config.js';
import { variablesOf } from '../../src/shared/env.js';

const onDisk = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');

describe('docs/configuration.md', () => {
  it("is up to date with the settings' schemas (run `npm run docs`)", () => {
    expect(onDisk).toBe(renderConfiguration());
  });

  it('describes every variable the loader reads in exactly one row, old names beside the new', () => {
    const current = new Set(Object.values(SETTINGS).flatMap((s) => Object.keys(s.variables)));
    for (const name of variablesOf(SETTINGS)) {
      const described = onDisk.split('\n').filter((line) => line.startsWith(`| \`${name}\` |`) && !line.includes('read here too'));
      if (current.has(name)) expect(described, name).toHaveLength(1);
      else expect(onDisk, `old name ${name}`).toMatch(new RegExp(`old names? [^|]*\\b${name}\\b`));
    }
  });
});
