import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { reporters: ['default', '@campus/vitest-config/skip-reporter'] },
});
