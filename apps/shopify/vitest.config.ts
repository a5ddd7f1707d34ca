import { defineConfig } from 'vitest/config';

// The core's global setup provides one PostgreSQL and a migrated template; each test file boots the
// real core on a clone of its own and gives the app a database of its own.
export default defineConfig({
  test: {
    globalSetup: ['../core/test/support/global-setup.ts'],
    include: ['test/**/*.test.ts'],
    // Above the browser tests' 60 s page load: a page's first load under CI's load fails as a load, not a silent test timeout.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // A poll after a click or a page load waits as long as Chromium under CI's load may take to draw:
    // vitest's 1 s default failed the widget's suite on CI that way.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // A fresh process per file loaded Shopify's, Remix's and the core's packages anew each time: 120 s
    // of the suite's CPU, now 20. The setup file reloads our own modules for each file.
    isolate: false,
    setupFiles: ['./test/support/fresh-modules.ts'],
    maxWorkers: 2,
  },
});
