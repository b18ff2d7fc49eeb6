import { defineConfig } from 'vitest/config';

/**
 * Every suite runs on PGlite; with TEST_DATABASE_URL set, once more on that PostgreSQL server
 * (each test file gets a database of its own there).
 */
const backends = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: backends.map((backend) => ({
      extends: true,
      test: { name: backend, env: { TEST_BACKEND: backend } },
    })),
  },
});
