import { defineConfig } from 'vitest/config';

/** Files whose figures (a tenant's latency under another's burst) mean something only with no other file running beside them. */
const ALONE = 'test/**/*.alone.test.ts';

export default defineConfig({
  test: {
    globalSetup: ['./test/support/global-setup.ts'],
    setupFiles: ['./test/support/pool-guard-check.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // Files share a worker's module cache: importing the service anew for each of ~80 files cost more
    // CPU than half the suite's tests. Nothing in src/ keeps per-file state (no mocks, no env changes);
    // every file makes its own database and app.
    isolate: false,
    projects: [
      { extends: true, test: { name: 'suite', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], exclude: [ALONE] } },
      // After the suite (a later group), one file at a time: the burst measures another tenant's p99.
      { extends: true, test: { name: 'alone', include: [ALONE], sequence: { groupOrder: 1 }, fileParallelism: false } },
    ],
  },
});
