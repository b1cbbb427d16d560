import { defineConfig } from 'vitest/config';

/**
 * Two groups. Behaviour tests run in parallel. Tests that measure real time (rate limits, the
 * benchmark smoke test) run afterwards, one file at a time, so that a busy 2-core machine cannot
 * make them fail: their bounds are about tokens per second, not about how loaded the machine is.
 */
const TIMING = [
  'test/ratelimit/**/*.test.ts',
  'src/ratelimit/**/*.test.ts',
  'test/gateway/rate-limits.test.ts',
  'test/gateway/redis-*.test.ts',
  'test/bench/**/*.test.ts',
  // The report and metrics limit classes, over real time.
  'test/gateway/reports-limits.test.ts',
  // A hanging v2 answered within its timeout and bound.
  'test/hostile/hanging-upstream.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // One log folder for every test gateway, audited for secrets after the run.
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'behaviour',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'mappings/**/*.test.ts'],
          exclude: TIMING,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'timing',
          include: TIMING,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
