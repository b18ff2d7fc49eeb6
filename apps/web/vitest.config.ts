import { defineConfig } from 'vitest/config';

/**
 * unit: pure logic, in Node. e2e: the built app in Chromium against the real server on PGlite
 * (global setup builds the app and starts the server once; the files run one after another).
 */
export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'], environment: 'node' } },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          fileParallelism: false,
          // A browser flow can still fail intermittently since live streams landed (an action's
          // button not shown within 15 s, about one run in three on a loaded machine; cause not
          // found yet: see the notes of issues 14 and 17). Retried, and reported as retried.
          retry: 2,
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
