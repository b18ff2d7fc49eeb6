import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { migrationsBefore, withEmptyDatabase } from '../testing';
import { posts } from '../feed/table';

/**
 * The data migration of docs/contract/groups.md (Posts in a group): posts whose free-text groupId
 * names no group get groupId null and keep their `group` text. Migrates to just before groups,
 * writes such posts, then applies the rest.
 */

const { folder, remove } = migrationsBefore('_group_name_key');
afterAll(remove);

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
    { timeout: 120_000 },
    () => withEmptyDatabase('pglite', undefined, check),
  );

  it('PostgreSQL: the same', { timeout: 120_000, tags: ['postgres-only'] }, () =>
    withEmptyDatabase('postgres', process.env.TEST_DATABASE_URL, check),
  );
});
