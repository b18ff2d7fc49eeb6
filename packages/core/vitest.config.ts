import { needs, postgresOnly, TEST_TIMEOUTS, TEST_WORKER_EXEC_ARGV } from '@campus/vitest-config';
import { defineConfig } from 'vitest/config';

/** Tests tagged `postgres-only` run when TEST_DATABASE_URL points at a PostgreSQL server. */
export default defineConfig({
  test: {
    ...TEST_TIMEOUTS,
    reporters: ['default', '@campus/vitest-config/skip-reporter'],
    execArgv: TEST_WORKER_EXEC_ARGV,
    tags: needs(postgresOnly(Boolean(process.env.TEST_DATABASE_URL))),
  },
});
