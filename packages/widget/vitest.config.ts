import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The core's test database: one PostgreSQL per run, a database of its own per test file.
    globalSetup: ['../../apps/core/test/support/global-setup.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    // A poll that follows a page load waits as long as a browser under CI's load may take to draw the
    // panel (the core suite runs beside this one): vitest's 1 s default failed a CI run that way.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
    pool: 'forks',
    // Files share a worker's loaded modules, as the core's own suite does: each file starts its own core.
    isolate: false,
    maxWorkers: 2,
  },
});
