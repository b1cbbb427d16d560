// @ts-check
import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { bansOf, placeOf, RULED_FILES, UNRULED_FILES } from './layers.config.js';

/**
 * The layer table (layers.config.js) as `no-restricted-imports` patterns. The rule sees an import's
 * text, not the file it resolves to, so the patterns are written per folder: from
 * src/translators/metrics/, the area reports is `../reports/`; from src/, it is
 * `./translators/reports/`. The tree is read when the lint starts, so a new file or folder is ruled at once.
 * (dependency-cruiser checks the resolved graph in `npm test` against the same table.)
 */
function layerRules() {
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const specifier = (from, to) => {
    const relative = path.posix.relative(from, to.replace(/\/$/, '')).replace(/\.ts$/, '.js');
    return relative.startsWith('.') ? relative : `./${relative}`;
  };
  const patternOf = (folder, ban) => {
    if (!ban.part.endsWith('/')) return `^${escape(specifier(folder, ban.part))}$`;
    const except = (ban.except ?? []).map((file) => escape(file.slice(ban.part.length).replace(/\.ts$/, '.js')));
    return `^${escape(specifier(folder, ban.part))}/${except.length > 0 ? `(?!(${except.join('|')})$)` : ''}`;
  };
  const blocks = [];
  const visit = (folder) => {
    const entries = readdirSync(path.join(import.meta.dirname, folder), { withFileTypes: true });
    const places = new Map();
    for (const entry of entries) {
      if (entry.isDirectory()) visit(`${folder}/${entry.name}`);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        const place = placeOf(`${folder}/${entry.name}`);
        if (place === undefined) continue;
        const files = places.get(place.part)?.files ?? [];
        places.set(place.part, { ...place, files: [...files, `${folder}/${entry.name}`] });
      }
    }
    for (const { layer, part, files } of places.values()) {
      const patterns = bansOf(layer, part).map((ban) => ({
        regex: patternOf(folder, ban),
        caseSensitive: true,
        message: `${ban.part}${ban.except?.length ? ` (but ${ban.except.join(', ')})` : ''} is out of reach of ${part}: ${ban.why} (docs/architecture.md).`,
      }));
      if (patterns.length === 0) continue;
      blocks.push({
        files: places.size === 1 ? [`${folder}/*.ts`] : files,
        ignores: UNRULED_FILES,
        rules: { 'no-restricted-imports': ['error', { patterns }] },
      });
    }
  };
  for (const top of new Set(RULED_FILES.map((glob) => glob.split('/')[0]))) visit(top);
  return blocks;
}

/**
 * No function over 80 lines (blank lines and comments not counted): a longer one does several
 * jobs, each of which deserves a name. Data is exempt: a function that only returns one literal
 * (a table, a default object) says so with `// eslint-disable-next-line max-lines-per-function --
 * data: <what>`, and a test holds every such exemption to that form.
 */
const FUNCTION_LINES = ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }];

/**
 * No source file over 500 lines, counted as written (comments and blank lines too): a longer
 * module holds several parts, each of which deserves a module of its own (the gateway's parts in
 * src/gateway/, the v2 client's seams in src/upstream/). The tables of mappings/, the benchmark
 * and the scripts are held to it too. Tests are exempt; a generated table says why it is exempt
 * on its first lines (`eslint-disable max-lines -- data: ...`).
 */
const FILE_LINES = ['error', { max: 500, skipBlankLines: false, skipComments: false }];

/**
 * A stream, body or socket is let go of with abandon() (src/shared/abandon.ts), which puts an
 * 'error' listener on before destroying: a readable destroyed without a reason may emit one
 * (undici's bodies emit RequestAbortedError), and an 'error' nobody listens to ends the process.
 * `.destroy()` with no argument is refused in src/; a destroy with a reason is an error on purpose.
 */
const BARE_DESTROY = [
  'error',
  {
    selector: "CallExpression[arguments.length=0][callee.type='MemberExpression'][callee.property.name='destroy']",
    message:
      "A bare .destroy() may make the stream emit an 'error' nobody listens to, which ends the process: let go of it with abandon(stream) from src/shared/abandon.ts.",
  },
];

/**
 * Type-aware lint for the whole repository. Production code (src/, mappings/, scripts/, bench/)
 * gets typescript-eslint's recommended type-checked rules; tests may read untyped JSON answers
 * (`any` from parsed bodies is their subject), so the no-unsafe-* family is off there.
 * Formatting is Prettier's job (`npm run format`), not a lint rule.
 */
export default tseslint.config(
  {
    ignores: [
      'dist/',
      'bench/out/',
      'node_modules/',
      'data/',
      // The sandbox's offline SDK: one browser script, as the real SDK's bundle is, written to that SDK's API, not ours.
      'src/sandbox/sdk/meeting-sdk.js',
      // A receiver run as its own process by the webhook tests, plain JavaScript so it starts without a loader.
      'test/support/webhook-receiver.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['vitest.config.ts'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // `_name` marks a parameter kept for a signature's sake.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Hono handlers and p-queue tasks are async by contract even when one branch awaits nothing.
      '@typescript-eslint/require-await': 'off',
      // Options objects and stores declare plain functions that are passed around on purpose.
      '@typescript-eslint/unbound-method': 'off',
      // A caught error is rethrown as it came (it may not be an Error); new rejections are Errors.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true, allowThrowingAny: true }],
      // Template literals of numbers and booleans are intended (messages, keys).
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
    },
  },
  {
    files: ['test/**', '**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // The facade's steps each take the one before's result (src/v1-steps/v1-call.ts), and the SDK
    // signer composes the same steps: a `!` in either would be reading what the order of lines, not
    // a type, says is set.
    files: ['src/v1-steps/**/*.ts', 'src/v1-facade/**/*.ts', 'src/sdk/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'error' },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  ...layerRules(),
  { files: RULED_FILES, ignores: UNRULED_FILES, rules: { 'max-lines-per-function': FUNCTION_LINES } },
  { files: [...RULED_FILES, 'bench/**/*.ts', 'scripts/**/*.ts'], ignores: UNRULED_FILES, rules: { 'max-lines': FILE_LINES } },
  { files: ['src/**/*.ts'], ignores: ['src/shared/abandon.ts', '**/*.test.ts'], rules: { 'no-restricted-syntax': BARE_DESTROY } },
);
