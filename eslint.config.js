// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Type-aware lint for the whole repository. Production code (src/, mappings/, scripts/, bench/)
 * gets typescript-eslint's recommended type-checked rules; tests may read untyped JSON answers
 * (`any` from parsed bodies is their subject), so the no-unsafe-* family is off there.
 * Formatting is Prettier's job (`npm run format`), not a lint rule.
 */
export default tseslint.config(
  { ignores: ['dist/', 'bench/out/', 'node_modules/', 'data/', 'src/sandbox/sdk/meeting-sdk.js', 'test/support/webhook-receiver.mjs'] },
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
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
