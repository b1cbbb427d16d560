import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The facade's steps each take the one before's result, and the SDK signer composes the same
 * steps: a `!` in either would read what the order of lines, not a type, says is set. The lint
 * refuses one there (eslint.config.js); this reads the rule's level from the repository's own
 * config for a file of each folder, without the type-aware lint's cost of building the program.
 */

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** The no-non-null-assertion level the lint gives `file`: 2 an error, 0 off. */
async function levelOf(file: string): Promise<number | undefined> {
  const config = (await eslint.calculateConfigForFile(path.join(root, file))) as { rules?: Record<string, unknown> };
  const setting = config.rules?.['@typescript-eslint/no-non-null-assertion'];
  const level: unknown = Array.isArray(setting) ? setting[0] : setting;
  return typeof level === 'number' ? level : undefined;
}

describe('non-null assertions', () => {
  it.each([
    'src/v1-steps/read.ts',
    'src/v1-facade/app.ts',
    'src/v1-facade/dispatch.ts',
    'src/sdk/signature-app.ts',
    'src/sdk/credentials-check.ts',
    'src/sdk/host-zak.ts',
  ])('are an error in %s', async (file) => {
    expect(await levelOf(file)).toBe(2);
  });

  it('are left to review elsewhere (the rule is scoped, not global)', async () => {
    expect(await levelOf('src/gateway/facade.ts')).not.toBe(2);
    expect(await levelOf('test/gateway/fuzz.test.ts')).toBe(0);
  });
});
