import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', '@campus/vitest-config/skip-reporter'],
    testTimeout: 60_000,
    hookTimeout: 600_000,
  },
});
