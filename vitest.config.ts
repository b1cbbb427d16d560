import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Two groups. Behaviour tests (and the legacy-auth project) run in parallel. Tests that measure real time (rate limits, the
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

/**
 * Behaviour files at once: one per core, and at least two. Most of them wait on real processes,
 * sockets and deadlines rather than compute, so on two cores two files side by side halve the wall
 * time (vitest's default, one less than the cores, runs them one at a time there); the timing
 * group keeps its one-at-a-time run.
 */
const BEHAVIOUR_WORKERS = Math.max(2, availableParallelism());

/**
 * Unit tests, beside their module in src/ and mappings/: they start no gateway, sandbox, process or
 * Redis, and no test mocks a module, stubs the environment or fakes timers, so the files of a
 * worker share its modules instead of each importing them afresh (`isolate: false`): the 100 of
 * them ran in 74 s instead of 158 s on a loaded 2-core machine, their summed import time 20 s
 * instead of 75 s. A unit test that changes anything a module holds puts it back before it ends.
 */
const UNITS = ['src/**/*.test.ts', 'mappings/**/*.test.ts'];

/**
 * The sandbox's `SANDBOX_V2_AUTH=legacy` mode (JWTs and query tokens, as the old v2 reference), for
 * a team testing against an old snapshot. Every other test speaks today's v2: OAuth tokens only.
 */
const LEGACY_AUTH = ['test/sandbox/legacy-auth.test.ts'];

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
          name: 'units',
          include: UNITS,
          exclude: TIMING,
          isolate: false,
          // Runs in the behaviour group, whose projects must agree on how many files run at once.
          maxWorkers: BEHAVIOUR_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'behaviour',
          include: ['test/**/*.test.ts'],
          exclude: [...TIMING, ...LEGACY_AUTH],
          maxWorkers: BEHAVIOUR_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'legacy-auth',
          include: LEGACY_AUTH,
          // Runs in the behaviour group, whose projects must agree on how many files run at once.
          maxWorkers: BEHAVIOUR_WORKERS,
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
