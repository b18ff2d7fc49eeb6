import { randomUUID } from 'node:crypto';
import { asc, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { migrationsBefore, withEmptyDatabase } from '../testing';
import { filterBit, filterBitOf } from './records';
import { posts } from './table';

/**
 * Migration 0014's backfill: the reader-flag filters of posts liked and attended before it hold
 * the bit of each user with a row. Migrates to just before it, writes such rows, then applies it.
 */

const { folder, remove } = migrationsBefore('_reader_flag_filters');
afterAll(remove);

const user = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

async function check(handle: DatabaseHandle) {
  await handle.migrate(folder);
  await handle.db.execute(sql`
    insert into users (id, nome, nickname, email, password_hash)
    select ('00000000-0000-4000-8000-00000000000' || n)::uuid, 'U' || n, 'u' || n, 'u' || n || '@campus.test', 'x'
    from generate_series(1, 3) n`);
  await handle.db.execute(sql`
    insert into posts (title, type, author, author_id, likes_count, attendances_count) values
      ('Liked', 'GENERAL', 'u1', ${user(1)}, 2, 0),
      ('Attended', 'EVENT', 'u1', ${user(1)}, 1, 1),
      ('Untouched', 'GENERAL', 'u1', ${user(1)}, 0, 0)`);
  await handle.db.execute(sql`
    insert into post_likes (post_id, user_id)
    select p.id, u::uuid from posts p, unnest(array[${user(2)}, ${user(3)}]) u where p.title = 'Liked'
    union all select p.id, ${user(3)}::uuid from posts p where p.title = 'Attended'`);
  await handle.db.execute(sql`
    insert into post_attendances (post_id, user_id)
    select id, ${user(2)}::uuid from posts where title = 'Attended'`);
  await handle.migrate();

  const bit = async (id: string) =>
    (
      await handle.db
        .select({ b: sql<string>`${filterBit(id)}::text` })
        .from(posts)
        .limit(1)
    )[0]!.b;
  const [b2, b3] = [BigInt(await bit(user(2))), BigInt(await bit(user(3)))];
  // The reader's bit, computed in the service and passed as a parameter, is the function's.
  // Every bit, the sign bit (last byte 0x3f, 0x7f, …) included, and random ids.
  const everyBit = Array.from(
    { length: 64 },
    (_, n) => `${randomUUID().slice(0, -2)}${(n + 64 * (n % 4)).toString(16).padStart(2, '0')}`,
  );
  const ids = [user(2), user(3), ...everyBit, ...Array.from({ length: 64 }, () => randomUUID())];
  for (const id of ids) expect(filterBitOf(id)).toBe(await bit(id));
  const rows = await handle.db
    .select({
      title: posts.title,
      likers: sql<string>`${posts.likersFilter}::text`,
      attendees: sql<string>`${posts.attendeesFilter}::text`,
    })
    .from(posts)
    .orderBy(asc(posts.title));
  expect(rows.map((r) => [r.title, BigInt(r.likers), BigInt(r.attendees)])).toEqual([
    ['Attended', b3, b2],
    ['Liked', b2 | b3, 0n],
    ['Untouched', 0n, 0n],
  ]);
}

describe('migration 0014: the reader-flag filters of existing likes and attendances', () => {
  it('PGlite: each filter holds the bits of the rows', { timeout: 30_000 }, () =>
    withEmptyDatabase('pglite', undefined, check),
  );

  it('PostgreSQL: the same', { timeout: 30_000, tags: ['postgres-only'] }, () =>
    withEmptyDatabase('postgres', process.env.TEST_DATABASE_URL, check),
  );
});
