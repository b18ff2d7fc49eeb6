import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { migrationsBefore, withEmptyDatabase } from '../testing';
import { READER_SET_MAX } from './locks';
import { posts } from './table';

/**
 * Migration 0016's backfill: the exact reader sets of posts liked and attended before it, null
 * past READER_SET_MAX, and the probe functions it adds. Migrates to just before it, writes such
 * rows, then applies it.
 */

const { folder, remove } = migrationsBefore('_reader_sets');
afterAll(remove);

const user = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const users = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => user(from + i));

async function check(handle: DatabaseHandle) {
  await handle.migrate(folder);
  const many = READER_SET_MAX + 1;
  await handle.db.execute(sql`
    insert into users (id, nome, nickname, email, password_hash)
    select ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'U' || n, 'u' || n, 'u' || n || '@campus.test', 'x'
    from generate_series(1, ${many}::int) n`);
  await handle.db.execute(sql`
    insert into posts (title, type, author, author_id, likes_count, attendances_count) values
      ('Liked by two', 'GENERAL', 'u1', ${user(1)}, 2, 0),
      ('Attended by many', 'EVENT', 'u1', ${user(1)}, 1, ${many}::int),
      ('Liked by many', 'GENERAL', 'u1', ${user(1)}, ${many}::int, 0),
      ('Untouched', 'GENERAL', 'u1', ${user(1)}, 0, 0)`);
  await handle.db.execute(sql`
    insert into post_likes (post_id, user_id)
    select p.id, u::uuid from posts p, unnest(array[${user(2)}, ${user(3)}]) u where p.title = 'Liked by two'
    union all select p.id, ${user(3)}::uuid from posts p where p.title = 'Attended by many'
    union all select p.id, u.id from posts p, users u where p.title = 'Liked by many'`);
  await handle.db.execute(sql`
    insert into post_attendances (post_id, user_id)
    select p.id, u.id from posts p, users u where p.title = 'Attended by many'`);
  await handle.migrate();

  const rows = await handle.db
    .select({ title: posts.title, likers: posts.likers, attendees: posts.attendees })
    .from(posts)
    .orderBy(asc(posts.title));
  const sorted = (ids: string[] | null) => (ids ? [...ids].sort() : ids);
  expect(rows.map((r) => [r.title, sorted(r.likers), sorted(r.attendees)])).toEqual([
    ['Attended by many', [user(3)], null],
    ['Liked by many', null, []],
    ['Liked by two', users(2, 3), []],
    ['Untouched', [], []],
  ]);

  // The probes that answer for a post past the limit: a user with a row, and one without.
  const probe = async (fn: 'post_liked_by' | 'post_attended_by', title: string, n: number) => {
    const [row] = await handle.db
      .select({ yes: sql<boolean>`${sql.raw(fn)}(${posts.id}, ${user(n)}::uuid)` })
      .from(posts)
      .where(eq(posts.title, title));
    return row!.yes;
  };
  expect(await probe('post_liked_by', 'Liked by many', many)).toBe(true);
  expect(await probe('post_liked_by', 'Liked by two', 1)).toBe(false);
  expect(await probe('post_attended_by', 'Attended by many', 1)).toBe(true);
  expect(await probe('post_attended_by', 'Liked by many', 1)).toBe(false);
}

describe('migration 0016: the reader sets of existing likes and attendances', () => {
  it('PGlite: each set holds the users of the rows, null past the limit', { timeout: 30_000 }, () =>
    withEmptyDatabase('pglite', undefined, check),
  );

  it('PostgreSQL: the same', { timeout: 30_000, tags: ['postgres-only'] }, () =>
    withEmptyDatabase('postgres', process.env.TEST_DATABASE_URL, check),
  );
});
