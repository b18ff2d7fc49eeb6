import { needs } from '@campus/vitest-config';
import { defineConfig } from 'vitest/config';
import { hasChromium, MISSING_CHROMIUM } from './test/e2e/support/chromium';

/**
 * unit: pure logic, in Node. e2e: the built app in Chromium against the real server on PGlite
 * (global setup builds the app and starts the server once; the files run one after another).
 */
export default defineConfig({
  test: {
    reporters: ['default', '@campus/vitest-config/skip-reporter'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'], environment: 'node' } },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          fileParallelism: false,
          tags: needs({
            name: 'chromium',
            description: MISSING_CHROMIUM,
            available: hasChromium(),
          }),
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
