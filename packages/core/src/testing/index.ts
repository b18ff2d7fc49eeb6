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
 * The query pool of a test's in-process server on PostgreSQL: room for the concurrency tests'
 * bursts (their transactions still overlap), small enough that three test files at once stay far
 * inside the server's 100 connections (apps/server/vitest.config.ts).
 */
export const TEST_POOL_MAX = 8;

/**
 * A migrated database that each test file's database is copied from, made once per run by
 * `seedTestDatabases` (a vitest global setup): a dump of a migrated PGlite in a file, and a
 * template database on the PostgreSQL server. Copying skips PGlite's initdb and the migrations,
 * about 2 s of CPU per test file.
 */
export interface TestDatabaseSeed {
  pgliteDump?: string;
  postgresTemplate?: string;
}

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or a new database of its
 * own on the PostgreSQL server at `postgresUrl` (dropped on close), so test files never share rows.
 * With a `seed` it is a copy of the seed's; without, it is migrated here. `migrate: false` leaves
 * it empty (a migration test applies the migrations itself).
 */
export async function createTestDatabase(
  backend: TestBackend,
  postgresUrl?: string,
  {
    migrate = true,
    seed,
    poolerUrl,
  }: {
    migrate?: boolean;
    seed?: TestDatabaseSeed;
    /** A transaction-mode pooler in front of `postgresUrl`'s server: queries go through it. */
    poolerUrl?: string | undefined;
  } = {},
): Promise<DatabaseHandle> {
  if (backend === 'pglite') {
    const dump = migrate && seed?.pgliteDump;
    if (dump)
      return createDatabase({ kind: 'pglite', loadDataDir: new Blob([readFileSync(dump)]) });
    const handle = await createDatabase({ kind: 'pglite' });
    if (migrate) await handle.migrate();
    return handle;
  }
  if (!postgresUrl) throw new Error('TEST_DATABASE_URL is required for the postgres backend');
  const name = `campus_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(postgresUrl, { max: 1, onnotice: () => {} });
  const template = migrate ? seed?.postgresTemplate : undefined;
  await admin.unsafe(`create database ${name}${template ? ` template ${template}` : ''}`);
  const url = databaseUrl(postgresUrl, name);
  const handle = await createDatabase({
    kind: 'postgres',
    ...throughPooler(url, poolerUrl, postgresUrl),
    maxConnections: TEST_POOL_MAX,
  });
  if (migrate && !template) await handle.migrate();
  return {
    ...handle,
    url,
    async close() {
      await handle.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

const databaseUrl = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * Once per run: the migrated seed of `backend` (see `TestDatabaseSeed`); `remove` deletes it.
 */
export async function seedTestDatabases(backend: TestBackend, postgresUrl?: string) {
  if (backend === 'pglite') {
    const handle = await createTestDatabase('pglite');
    const folder = mkdtempSync(join(tmpdir(), 'campus-seed-'));
    const pgliteDump = join(folder, 'pglite.tar');
    writeFileSync(pgliteDump, Buffer.from(await (await handle.dump!()).arrayBuffer()));
    await handle.close();
    const seed: TestDatabaseSeed = { pgliteDump };
    return { seed, remove: async () => rmSync(folder, { recursive: true, force: true }) };
  }
  if (!postgresUrl) throw new Error('TEST_DATABASE_URL is required for the postgres backend');
  const postgresTemplate = `campus_seed_${randomBytes(6).toString('hex')}`;
  const admin = postgres(postgresUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${postgresTemplate}`);
  const handle = await createDatabase({
    kind: 'postgres',
    url: databaseUrl(postgresUrl, postgresTemplate),
    maxConnections: 2, // one holds the migrations' lock while the other migrates
  });
  await handle.migrate();
  await handle.close(); // a template must have no connection while it is copied
  const seed: TestDatabaseSeed = { postgresTemplate };
  return {
    seed,
    async remove() {
      await admin.unsafe(`drop database if exists ${postgresTemplate} with (force)`);
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
