import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The layer table of docs/architecture.md is enforced twice, from one list (layers.config.js):
 * ESLint refuses a forbidden import as it is written, and dependency-cruiser checks the resolved
 * import graph (and cycles) in `npm test`. These tests show that both catch what they are for.
 */

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** What this test reads of layers.config.js (plain JavaScript, so that the lint's config can import it). */
interface LayersConfig {
  LAYERS: { name: string; parts: string[] }[];
  placeOf(file: string): unknown;
}
const { LAYERS, placeOf } = (await import(pathToFileURL(path.join(root, 'layers.config.js')).href)) as LayersConfig;

/** Production files of src/ and mappings/, relative to the repository. */
function productionFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const file = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return productionFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

describe('the layer lint', () => {
  const eslint = new ESLint({ cwd: root });
  // The lint is type-aware: its first file builds the TypeScript program, which takes a while on a busy machine.
  beforeAll(async () => {
    await eslint.lintText('export {};\n', { filePath: path.join(root, 'src/shared/calendar.ts') });
  }, 300_000);

  /** The layer errors ESLint reports for `code` written as the file `file`. */
  async function layerErrors(file: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  }

  it.each([
    ['the sandbox reaching into the rate limiter', 'src/sandbox/rate-limit.ts', '../ratelimit/token-bucket.js', /sandbox imports only/],
    ['the sandbox reaching into the SDK', 'src/sandbox/users/routes.ts', '../../sdk/credentials-check.js', /sandbox imports only/],
    ['one translator area importing another', 'src/translators/metrics/usage.ts', '../reports/index.js', /never import each other/],
    ['the kit importing the session family', 'src/translators/kit/settle.ts', '../sessions/kinds.js', /downward only/],
    ['the kit importing an area', 'src/translators/kit/settle.ts', '../users/index.js', /downward only/],
    ['an area importing the endpoint list', 'src/translators/users/get.ts', '../endpoints.js', /downward only/],
    ['shared code importing the v1 layer', 'src/shared/calendar.ts', '../v1/errors.js', /downward only/],
    ['shared code importing the v2 contract', 'src/shared/calendar.ts', '../v2-contract/v2-route.js', /downward only/],
    ['a table importing a translator', 'mappings/groups.ts', '../src/translators/kit/define.js', /downward only/],
    ['a translator starting the sandbox', 'src/translators/users/get.ts', '../../sandbox/app.js', /starts the sandbox/],
    ['the v2 side importing a way in', 'src/upstream/client.ts', '../v1-facade/app.js', /downward only/],
    ['the signer importing the facade', 'src/sdk/signature-app.ts', '../v1-facade/app.js', /ways in never import each other/],
    ['shadow mode importing the webhooks', 'src/compare/shadow.ts', '../webhooks/index.js', /ways in never import each other/],
    ['the recipe importing the ops pages', 'src/recipe/recipe.ts', '../ops/status.js', /never import each other/],
    ['a step importing the facade', 'src/v1-steps/read.ts', '../v1-facade/dispatch.js', /downward only/],
    ['a way in importing the ops pages', 'src/compare/shadow.ts', '../ops/status.js', /downward only/],
  ])(
    'refuses %s',
    async (_what, file, specifier, why) => {
      const errors = await layerErrors(file, `export * from '${specifier}';\n`);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(why);
      expect(errors[0]).toContain('docs/architecture.md');
    },
    120_000,
  );

  it.each([
    ['the sandbox its signature check', 'src/sandbox/sdk/join.ts', '../../v2-contract/sdk-signature.js'],
    ['the sandbox shared code', 'src/sandbox/rate-limit.ts', '../shared/token-bucket.js'],
    ['the sandbox the v2 contract', 'src/sandbox/rate-limit.ts', '../v2-contract/rate-limit-plans.js'],
    ['an area the kit', 'src/translators/metrics/usage.ts', '../kit/report-date.js'],
    ['an area the session family', 'src/translators/meetings/list.ts', '../sessions/kinds.js'],
    ['an area a table', 'src/translators/users/get.ts', '../../../mappings/groups.js'],
    ['an area its own files', 'src/translators/users/get.ts', './user-output.js'],
    ['the endpoint list an area', 'src/translators/endpoints.ts', './users/index.js'],
    ['the process the sandbox', 'src/gateway.ts', './sandbox/app.js'],
    ['the signer the steps', 'src/sdk/signature-app.ts', '../v1-steps/read.js'],
    ['the ops pages shadow mode', 'src/ops/status.ts', '../compare/shadow.js'],
    ['the recipe the recorded calls', 'src/recipe/recipe.ts', '../compare/calls.js'],
  ])(
    'lets %s be imported',
    async (_what, file, specifier) => {
      expect(await layerErrors(file, `export * from '${specifier}';\n`)).toEqual([]);
    },
    120_000,
  );
});

describe('the import graph check', () => {
  let fixture: string;
  beforeAll(() => {
    fixture = mkdtempSync(path.join(tmpdir(), 'v1gate-layers-'));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(fixture, file)), { recursive: true });
      writeFileSync(path.join(fixture, file), text);
    };
    write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
    write('package.json', JSON.stringify({ type: 'module' }));
    write('src/ratelimit/bucket.ts', 'export const bucket = 1;\n');
    write('src/sandbox/limits.ts', "import { bucket } from '../ratelimit/bucket.js';\nexport const limits = bucket;\n");
    write('src/translators/reports/range.ts', 'export const range = 1;\n');
    write('src/translators/metrics/usage.ts', "export const usage = async () => (await import('../reports/range.js')).range;\n");
    write('src/shared/one.ts', "import type { Two } from './two.js';\nexport type One = { two?: Two };\n");
    write('src/shared/two.ts', "import type { One } from './one.js';\nexport type Two = { one?: One };\n");
    // No module cycle, but the two folders import each other.
    write('src/gateway/part.ts', "import { forward } from '../cluster/forward.js';\nexport const part = forward;\n");
    write('src/gateway/answers.ts', 'export const answer = 1;\n');
    write('src/cluster/forward.ts', 'export const forward = 1;\n');
    write('src/cluster/hub.ts', "import { answer } from '../gateway/answers.js';\nexport const hub = answer;\n");
    write('src/v1/fine.ts', "import type { One } from '../shared/one.js';\nexport type Fine = One;\n");
  });
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  it('finds an import up a layer, one between areas (even dynamic), a cycle (even of types), and two folders importing each other', async () => {
    const depcruise = path.join(root, 'node_modules/.bin/depcruise');
    const config = path.join(root, '.dependency-cruiser.mjs');
    const failed = await run(depcruise, ['src', '--config', config], { cwd: fixture }).then(
      () => ({ code: 0, stdout: 'no violation found' }),
      (error: { code: number; stdout: string }) => error,
    );
    const reported = failed.stdout.replace(/\s+/g, ' ');
    expect(reported).toContain('error layers: src/sandbox/: src/sandbox/limits.ts → src/ratelimit/bucket.ts');
    expect(reported).toContain(
      'error layers: src/translators/metrics/: src/translators/metrics/usage.ts → src/translators/reports/range.ts',
    );
    expect(reported).toMatch(/error no-circular: src\/shared\/(one|two)\.ts → src\/shared\/(two|one)\.ts → src\/shared\/(one|two)\.ts/);
    expect(reported).toMatch(/error no-folders-both-ways: src\/(gateway|cluster) → src\/(cluster|gateway) → src\/(gateway|cluster)/);
    expect(reported).not.toContain('src/v1/fine.ts');
    expect(failed.code).toBe(5);
  }, 120_000);
});

describe('the layer table', () => {
  it('places every production file of src/ and mappings/ in a layer', () => {
    const unplaced = [...productionFiles('src'), ...productionFiles('mappings')].filter((file) => placeOf(file) === undefined);
    expect(unplaced).toEqual([]);
  });

  it('is the one docs/architecture.md describes: every part but the areas is named there', () => {
    const doc = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
    const parts = LAYERS.filter((layer) => layer.name !== 'translation: areas').flatMap((layer) => layer.parts);
    expect(parts.filter((part) => !doc.includes(`\`${part}\``))).toEqual([]);
  });
});

describe('the function length limit', () => {
  it('is lifted only for data, and says so where it is', () => {
    const exemptions = [...productionFiles('src'), ...productionFiles('mappings')].flatMap((file) =>
      readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .filter((line) => line.includes('max-lines-per-function'))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(exemptions.length).toBeGreaterThan(0);
    expect(exemptions.filter((line) => !/eslint-disable-next-line max-lines-per-function -- data: \S/.test(line))).toEqual([]);
  });
});
