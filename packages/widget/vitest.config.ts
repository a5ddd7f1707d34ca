import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The core's test database: one PostgreSQL per run, a database of its own per test file.
    globalSetup: ['../../apps/core/test/support/global-setup.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Files share a worker's loaded modules, as the core's own suite does: each file starts its own core.
    isolate: false,
    maxWorkers: 2,
  },
});
