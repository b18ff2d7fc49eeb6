import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { createDatabase, type DatabaseHandle } from '../db/client';

export type TestBackend = 'pglite' | 'postgres';

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or a new database of its
 * own on the PostgreSQL server at `postgresUrl` (dropped on close), so test files never share rows.
 */
export async function createTestDatabase(
  backend: TestBackend,
  postgresUrl?: string,
): Promise<DatabaseHandle> {
  if (backend === 'pglite') {
    const handle = createDatabase({ kind: 'pglite' });
    await handle.migrate();
    return handle;
  }
  if (!postgresUrl) throw new Error('TEST_DATABASE_URL is required for the postgres backend');
  const name = `campus_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(postgresUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  const handle = createDatabase({ kind: 'postgres', url: url.toString(), maxConnections: 20 });
  await handle.migrate();
  return {
    ...handle,
    async close() {
      await handle.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
