import path from 'node:path';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

/**
 * A stream, body or socket of src/ is let go of with abandon(), never a bare `.destroy()`: one
 * destroyed without a reason may emit an 'error' nobody listens to, and that ends the process
 * (a deleted recording's link did, once). The lint refuses the bare form (eslint.config.js); this
 * takes the rule as the repository's config gives it to a file of src/ and shows it catches the
 * forms that ended the process, and lets the safe ones through.
 */

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function settingFor(file: string): Promise<Linter.RuleEntry | undefined> {
  const config = (await eslint.calculateConfigForFile(path.join(root, file))) as { rules?: Record<string, Linter.RuleEntry> };
  return config.rules?.['no-restricted-syntax'];
}

/** The messages the repository's no-restricted-syntax setting for `file` gives `code`. */
async function complaints(file: string, code: string): Promise<string[]> {
  const setting = await settingFor(file);
  if (setting === undefined) return [];
  const linter = new Linter({ configType: 'flat' });
  const config: Linter.Config[] = [
    { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, rules: { 'no-restricted-syntax': setting } },
  ];
  return linter.verify(code, config, 'sample.ts').map((message) => message.message);
}

describe('letting go of a stream', () => {
  it.each([
    ['an undici body', 'answer.body.destroy();'],
    ['a body by name', 'body.destroy();'],
    ['a socket', 'socket.destroy();'],
    ['an answer we do not finish', 'outgoing.destroy();'],
    ['a stream in a listener', "socket.once('close', () => stream.destroy());"],
  ])('a bare destroy of %s is a lint error in src/', async (_what, code) => {
    const messages = await complaints('src/upstream/exchange.ts', code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/abandon\(stream\)/);
  });

  it.each([
    ['abandon', 'abandon(answer.body);'],
    ['a destroy with its reason', "pool.destroy(new Error('shut down'));"],
    ['a destroy method declared', 'class Pool { destroy() { return 1; } }'],
  ])('%s passes', async (_what, code) => {
    expect(await complaints('src/compare/forward.ts', code)).toEqual([]);
  });

  it('is ruled in every folder of src/ but abandon itself, not in tests', async () => {
    for (const file of ['src/http/server.ts', 'src/downloads/serve.ts', 'src/gateway/forward-to-hub.ts', 'src/webhooks/intake.ts']) {
      expect(await settingFor(file), file).toBeDefined();
    }
    expect(await settingFor('src/shared/abandon.ts')).toBeUndefined();
    expect(await settingFor('src/http/request-body.test.ts')).toBeUndefined();
  });
});
