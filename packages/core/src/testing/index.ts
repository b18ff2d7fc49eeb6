import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { createDatabase, defaultMigrationsFolder, type DatabaseHandle } from '../db/client';
import { throughPooler } from './pooler';

export { throughPooler, throughPoolerOf } from './pooler';
export { pgbouncerBinary, startPgbouncer } from './pgbouncer';

export type TestBackend = 'pglite' | 'postgres';

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or a new database of its
 * own on the PostgreSQL server at `postgresUrl` (dropped on close), so test files never share rows.
 * `migrate: false` leaves it empty (a migration test applies the migrations itself).
 */
export async function createTestDatabase(
  backend: TestBackend,
  postgresUrl?: string,
  {
    migrate = true,
    poolerUrl,
  }: {
    migrate?: boolean;
    /** A transaction-mode pooler in front of `postgresUrl`'s server: queries go through it. */
    poolerUrl?: string | undefined;
  } = {},
): Promise<DatabaseHandle> {
  if (backend === 'pglite') {
    const handle = await createDatabase({ kind: 'pglite' });
    if (migrate) await handle.migrate();
    return handle;
  }
  if (!postgresUrl) throw new Error('TEST_DATABASE_URL is required for the postgres backend');
  const name = `campus_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(postgresUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  const handle = await createDatabase({
    kind: 'postgres',
    ...throughPooler(url.toString(), poolerUrl, postgresUrl),
    maxConnections: 20,
  });
  if (migrate) await handle.migrate();
  return {
    ...handle,
    url: url.toString(),
    async close() {
      await handle.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/**
 * A copy of the migrations folder that stops just before the migration whose tag ends with
 * `tagSuffix`, for a test that writes rows as they were and then applies the rest. `remove`
 * deletes the copy.
 */
export function migrationsBefore(tagSuffix: string): { folder: string; remove: () => void } {
  const folder = mkdtempSync(join(tmpdir(), 'campus-migrations-'));
  cpSync(defaultMigrationsFolder, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const before = journal.entries.findIndex((e) => e.tag.endsWith(tagSuffix));
  if (before < 0) throw new Error(`no migration tagged *${tagSuffix}`);
  writeFileSync(
    journalPath,
    JSON.stringify({ ...journal, entries: journal.entries.slice(0, before) }),
  );
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/**
 * Runs `check` on a new, empty database of `backend` (PostgreSQL: on the server at
 * `postgresUrl`), closed and dropped afterwards.
 */
export async function withEmptyDatabase(
  backend: TestBackend,
  postgresUrl: string | undefined,
  check: (handle: DatabaseHandle) => Promise<void>,
): Promise<void> {
  const handle = await createTestDatabase(backend, postgresUrl, { migrate: false });
  try {
    await check(handle);
  } finally {
    await handle.close();
  }
}
