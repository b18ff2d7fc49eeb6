import { seedTestDatabases, type TestBackend, type TestDatabaseSeed } from '@campus/core/testing';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseSeed: TestDatabaseSeed;
  }
}

/**
 * Once per project (backend): one migrated database that every test file's database is copied
 * from (`startTestApp`), instead of each file migrating its own.
 */
export default async function setup(project: TestProject) {
  const backend = project.config.env.TEST_BACKEND as TestBackend; // vitest.config.ts sets it
  const { seed, remove } = await seedTestDatabases(backend, process.env.TEST_DATABASE_URL);
  project.provide('databaseSeed', seed);
  return remove;
}
