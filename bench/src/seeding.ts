/** The benchmark's databases: seeded once (or reused with BENCH_REUSE_DB=1), migrated by the built server. */
import { execFileSync } from 'node:child_process';
import postgres from 'postgres';
import { MATCH_PLAYERS, READ_POST, REUSE, scale } from './options';
import { seedInteractions, seedMatches, seedPosts, seedUsers, type SeededUser } from './seed';
import { JWT_SECRET, ROOT, databaseUrl, freshDatabase, log } from './support';

/** Applies the migrations with the built server's own migrator. */
export function migrate(url: string) {
  execFileSync(process.execPath, ['apps/server/dist/migrate.js'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, NODE_ENV: 'production', JWT_SECRET },
    stdio: 'ignore',
  });
}

export interface Seeded {
  url: string;
  users: SeededUser[];
  posts: number;
  postId?: string;
  matchIds?: string[];
}

export async function seedDatabase(
  name: string,
  posts: number,
  full: boolean,
  passwordHash: string,
): Promise<Seeded> {
  const url = databaseUrl(name);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    if (REUSE) {
      const [found] = await sql<
        { n: string }[]
      >`select row_count as n from row_counts where table_name = 'posts'`.catch(() => []);
      if (found) {
        log(`reusing ${name}`);
        // Undo what the previous run wrote: its created posts and its subscriptions.
        await sql`delete from posts where title = 'Bench new post'`;
        await sql`delete from match_players where match_id = (select id from matches where title = ${`Match ${scale.matches}`})`;
        const users = await sql<
          SeededUser[]
        >`select id, nickname, email from bench_authors order by n`;
        const [post] = await sql<{ id: string }[]>`select id from posts where title = ${READ_POST}`;
        const matchIds = (
          await sql<
            { id: string }[]
          >`select id from matches where title like 'Match %' order by substr(title, 7)::int`
        ).map((r) => r.id);
        const [count] = await sql<
          { n: string }[]
        >`select row_count as n from row_counts where table_name = 'posts'`;
        return {
          url,
          users,
          posts: Number(count!.n),
          ...(post ? { postId: post.id } : {}),
          matchIds,
        };
      }
    }
    await sql.end();
    await freshDatabase(name);
    migrate(url);
    const seeding = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const users = await seedUsers(seeding, scale.users, passwordHash);
      await seedPosts(seeding, 1, posts);
      if (!full) return { url, users, posts };
      const postId = await seedInteractions(seeding, READ_POST, users, {
        comments: 5,
        likes: 10,
        reports: 2,
      });
      const matchIds = await seedMatches(seeding, scale.matches, users, MATCH_PLAYERS);
      await seeding`vacuum analyze`;
      return { url, users, posts, postId, matchIds };
    } finally {
      await seeding.end();
    }
  } finally {
    await sql.end();
  }
}
