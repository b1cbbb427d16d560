import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'mappings/**/*.test.ts'],
    // Integration tests open real loopback servers; keep them isolated per file but run files in parallel.
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
