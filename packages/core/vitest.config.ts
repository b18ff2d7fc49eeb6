import { needs, postgresOnly } from '@campus/vitest-config';
import { defineConfig } from 'vitest/config';

/** Tests tagged `postgres-only` run when TEST_DATABASE_URL points at a PostgreSQL server. */
export default defineConfig({
  test: {
    reporters: ['default', '@campus/vitest-config/skip-reporter'],
    tags: needs(postgresOnly(Boolean(process.env.TEST_DATABASE_URL))),
  },
});
