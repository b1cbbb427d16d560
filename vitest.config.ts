import { defineConfig } from 'vitest/config';

/**
 * Two groups. Behaviour tests (and their OAuth slice) run in parallel. Tests that measure real time (rate limits, the
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
 * Run a second time with the gateway acting toward v2 as today's v2 wants it: each test gateway's
 * key mapped by a credentials file to the sandbox's server-to-server OAuth app (test/support/gateway.ts,
 * V2_AUTH). One file per concern: every endpoint's answer (typed clients), writes with rollback,
 * every area's client checks, webhooks and reports.
 */
const OAUTH_SLICE = [
  'test/gateway/v2-auth-mode.test.ts',
  'test/gateway/typed-clients.test.ts',
  'test/gateway/users-create.test.ts',
  'test/gateway/users-update.test.ts',
  'test/gateway/meetings.test.ts',
  'test/gateway/webinars.test.ts',
  'test/gateway/groups.test.ts',
  'test/gateway/accounts.test.ts',
  'test/gateway/registration.test.ts',
  'test/gateway/reports.test.ts',
  'test/gateway/recordings.test.ts',
  'test/webhooks/delivery.test.ts',
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
          name: 'oauth',
          include: OAUTH_SLICE,
          env: { V1GATE_TEST_V2_AUTH: 'oauth' },
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
