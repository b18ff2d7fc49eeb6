/**
 * Seeding at scale, one `INSERT … SELECT generate_series` per table. The row-count trigger of
 * the table is disabled for that statement and `row_counts` is raised by the number inserted in
 * the same transaction, so the count stays exact without a million single-row UPDATEs of one
 * counter row. Everything is deterministic: post g is titled "Post g" and was created g seconds
 * before a fixed instant, so page p of the feed starts with "Post (p-1)·limit+1".
 */
import type postgres from 'postgres';
import { log } from './support';

type Sql = postgres.Sql;

const EPOCH = '2030-01-01 00:00:00+00';

/** Runs `insert` with `trigger` off and adds the rows it inserted to `row_counts`. */
async function bulkInsert(
  sql: Sql,
  table: 'users' | 'posts' | 'matches',
  insert: (tx: postgres.TransactionSql) => Promise<{ count: number }>,
): Promise<number> {
  const started = Date.now();
  let inserted = 0;
  await sql.begin(async (tx) => {
    await tx.unsafe(`alter table ${table} disable trigger ${table}_row_count`);
    inserted = (await insert(tx)).count;
    await tx`update row_counts set row_count = row_count + ${inserted} where table_name = ${table}`;
    await tx.unsafe(`alter table ${table} enable trigger ${table}_row_count`);
  });
  await sql.unsafe(`vacuum analyze ${table}`);
  const [kept] = await sql<{ n: string }[]>`
    select row_count as n from row_counts where table_name = ${table}`;
  const [actual] = await sql<{ n: string }[]>`select count(*) as n from ${sql(table)}`;
  if (kept!.n !== actual!.n)
    throw new Error(`row_counts(${table}) = ${kept!.n}, COUNT(*) = ${actual!.n}`);
  log(
    `${table}: +${inserted} in ${((Date.now() - started) / 1000).toFixed(1)} s (${actual!.n} rows)`,
  );
  return inserted;
}

export interface SeededUser {
  id: string;
  nickname: string;
  email: string;
}

/**
 * `count` ATIVO students bench_1 … bench_count sharing one password hash (hashing is slow by
 * design: one hash, computed once, serves every login of the benchmark).
 */
export async function seedUsers(
  sql: Sql,
  count: number,
  passwordHash: string,
): Promise<SeededUser[]> {
  await bulkInsert(
    sql,
    'users',
    (tx) => tx`
    insert into users (nome, nickname, email, password_hash, created_at, updated_at)
    select 'Bench User ' || g, 'bench_' || g, 'bench_' || g || '@campus.test', ${passwordHash},
           ${EPOCH}::timestamptz - g * interval '1 second', ${EPOCH}::timestamptz - g * interval '1 second'
    from generate_series(1, ${count}::int) as g`,
  );
  // Authors of the posts and matches below, numbered from 0 (a table: the pool has several sessions).
  await sql`drop table if exists bench_authors`;
  await sql`
    create unlogged table bench_authors as
    select substr(nickname, 7)::int - 1 as n, id, nickname, email from users
    where nickname like 'bench\\_%'`;
  await sql`alter table bench_authors add primary key (n)`;
  // In the order of g, so user i is bench_(i+1).
  return sql<SeededUser[]>`select id, nickname, email from bench_authors order by n`;
}

/** Posts from…to, GENERAL, authored round-robin by the seeded users. */
export async function seedPosts(sql: Sql, from: number, to: number): Promise<void> {
  const [{ authors } = { authors: 0 }] = await sql<{ authors: number }[]>`
    select count(*)::int as authors from bench_authors`;
  await bulkInsert(
    sql,
    'posts',
    (tx) => tx`
    insert into posts (title, content, type, author, author_id, created_at, updated_at)
    select 'Post ' || g, 'Bench content of post ' || g, 'GENERAL', a.nickname, a.id,
           ${EPOCH}::timestamptz - g * interval '1 second', ${EPOCH}::timestamptz - g * interval '1 second'
    from generate_series(${from}::int, ${to}::int) as g
    join bench_authors a on a.n = g % ${authors}`,
  );
}

/**
 * A post with a realistic set of interactions for GET /post/:id: comments, likes and reports by
 * the first users, with the counters the service would have kept.
 */
export async function seedInteractions(
  sql: Sql,
  postTitle: string,
  users: SeededUser[],
  counts: { comments: number; likes: number; reports: number },
): Promise<string> {
  const [post] = await sql<{ id: string }[]>`select id from posts where title = ${postTitle}`;
  if (!post) throw new Error(`no post titled ${postTitle}`);
  const at = (i: number) => new Date(Date.parse(EPOCH) + i * 60_000);
  await sql.begin(async (tx) => {
    for (let i = 0; i < counts.comments; i++) {
      await tx`insert into post_comments (post_id, author_id, content, created_at)
               values (${post.id}, ${users[i]!.id}, ${`Comment ${i + 1} on the bench post`}, ${at(i)})`;
    }
    for (let i = 0; i < counts.likes; i++) {
      await tx`insert into post_likes (post_id, user_id, created_at) values (${post.id}, ${users[i]!.id}, ${at(i)})`;
    }
    for (let i = 0; i < counts.reports; i++) {
      await tx`insert into post_reports (post_id, user_id, reason, created_at)
               values (${post.id}, ${users[i]!.id}, ${`Report ${i + 1}`}, ${at(i)})`;
    }
    await tx`update posts set comments_count = ${counts.comments}, likes_count = ${counts.likes}
             where id = ${post.id}`;
  });
  return post.id;
}

/**
 * `count` matches a week ahead, maxPlayers 10…100, authored round-robin; the first gets `players`
 * players (alternating teams) for GET /match/:id. Returns the ids in order.
 */
export async function seedMatches(
  sql: Sql,
  count: number,
  users: SeededUser[],
  players: number,
): Promise<string[]> {
  await bulkInsert(
    sql,
    'matches',
    (tx) => tx`
    insert into matches (title, author_id, max_players, match_date, location, created_at, updated_at)
    select 'Match ' || g, a.id, 10 + (g % 10) * 10, now() + interval '7 days' + g * interval '1 minute',
           'Court ' || (g % 20), now(), now()
    from generate_series(1, ${count}::int) as g
    join bench_authors a on a.n = g % (select count(*) from bench_authors)`,
  );
  const ids = (
    await sql<{ id: string }[]>`
    select id from matches where title like 'Match %' order by substr(title, 7)::int`
  ).map((r) => r.id);
  const first = ids[0]!;
  await sql`update matches set max_players = 100 where id = ${first}`;
  for (let i = 0; i < players; i++) {
    await sql`insert into match_players (match_id, user_id, team) values (${first}, ${users[i]!.id}, ${i % 2 === 0 ? 'A' : 'B'})`;
  }
  return ids;
}
