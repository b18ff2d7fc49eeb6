import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, defaultMigrationsFolder, type DatabaseHandle } from '../db/client';
import { posts } from '../feed/table';

/**
 * The data migration of extensions.md §A: posts whose free-text groupId names no group get
 * groupId null and keep their `group` text. Migrates to just before groups, writes such posts,
 * then applies the rest.
 */

const folder = mkdtempSync(join(tmpdir(), 'campus-migrations-'));
cpSync(defaultMigrationsFolder, folder, { recursive: true });
const journalPath = join(folder, 'meta', '_journal.json');
const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as {
  entries: { tag: string }[];
};
const before = journal.entries.findIndex((e) => e.tag.endsWith('_group_name_key'));
writeFileSync(
  journalPath,
  JSON.stringify({ ...journal, entries: journal.entries.slice(0, before) }),
);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function check(handle: DatabaseHandle) {
  await handle.migrate(folder);
  await handle.db.execute(sql`
    insert into users (id, nome, nickname, email, password_hash)
    values ('00000000-0000-4000-8000-000000000001', 'Ana', 'ana', 'ana@campus.test', 'x')`);
  await handle.db.execute(sql`
    insert into posts (title, type, author, author_id, "group", group_id) values
      ('Free text', 'GENERAL', 'ana', '00000000-0000-4000-8000-000000000001', 'Atlética de Medicina', 'atletica-med'),
      ('No group', 'GENERAL', 'ana', '00000000-0000-4000-8000-000000000001', null, null)`);
  await handle.migrate();
  const list = await handle.db
    .select({ title: posts.title, group: posts.group, group_id: posts.groupId })
    .from(posts)
    .orderBy(posts.title);
  expect(list).toEqual([
    { title: 'Free text', group: 'Atlética de Medicina', group_id: null },
    { title: 'No group', group: null, group_id: null },
  ]);
}

describe('posts.group_id becomes a reference to groups', () => {
  it(
    'PGlite: a groupId naming no group becomes null; the group text stays',
    { timeout: 30_000 },
    async () => {
      const handle = createDatabase({ kind: 'pglite' });
      try {
        await check(handle);
      } finally {
        await handle.close();
      }
    },
  );

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'PostgreSQL: the same',
    { timeout: 30_000 },
    async () => {
      const name = `campus_groups_migration_${randomBytes(5).toString('hex')}`;
      const admin = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      const handle = createDatabase({ kind: 'postgres', url: url.toString(), maxConnections: 2 });
      try {
        await check(handle);
      } finally {
        await handle.close();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
  );
});
