import { defineConfig } from 'vitest/config';
import { POSTGRES_ONLY } from './test/support/postgres-only-reporter';

/**
 * Every suite runs on PGlite; with TEST_DATABASE_URL set, once more on that PostgreSQL server
 * (each test file gets a database of its own there). Tests tagged `postgres-only` (concurrency
 * under real connections, several processes) are skipped on PGlite; the reporter says so at the
 * end of the run, and fails it under REQUIRE_POSTGRES_SUITES=1 when they ran nowhere.
 */
const backends = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/support/postgres-only-reporter.ts'],
    projects: backends.map((backend) => ({
      extends: true,
      test: {
        name: backend,
        env: { TEST_BACKEND: backend },
        tags: [
          {
            name: POSTGRES_ONLY,
            description: 'needs PostgreSQL: concurrency with real connections, several processes',
            skip: backend !== 'postgres',
          },
        ],
      },
    })),
  },
});
