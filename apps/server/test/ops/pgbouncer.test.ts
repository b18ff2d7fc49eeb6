import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgbouncer } from '@campus/core/testing';
import {
  callJson,
  killServers,
  readyServers,
  scratchDatabase,
  seedUser,
  type ServerProcess,
} from '../support/process';
import { openStream } from '../support/sse';

type User = Awaited<ReturnType<typeof seedUser>>;
/** The fields these flows read from the answers. */
type Body = { id?: string; data?: { id: string }[]; likesCount?: number; likedByMe?: boolean };

/**
 * Two server processes deployed behind PgBouncer in transaction mode (Debian's, started here):
 * DATABASE_URL through the pooler, DATABASE_DIRECT_URL straight to PostgreSQL for LISTEN, the
 * setup lock, migrations and the job queue. The flows a user relies on work, and live updates
 * written through one process reach a stream on the other.
 */
describe(
  'through PgBouncer in transaction mode',
  { tags: ['postgres-only', 'pgbouncer'], timeout: 60_000 },
  () => {
    let database: Awaited<ReturnType<typeof scratchDatabase>>;
    let pooler: Awaited<ReturnType<typeof startPgbouncer>>;
    let a: ServerProcess;
    let b: ServerProcess;
    let author: User;
    let reader: User;

    beforeAll(async () => {
      database = await scratchDatabase(process.env.TEST_DATABASE_URL!);
      pooler = await startPgbouncer(database.url, { poolSize: 10 });
      [a, b] = (await readyServers(2, {
        DATABASE_URL: pooler.url,
        DATABASE_DIRECT_URL: database.url,
        DATABASE_POOL_MAX: '5',
      })) as [ServerProcess, ServerProcess];
      author = await seedUser(database.url);
      reader = await seedUser(database.url);
    }, 180_000);

    afterAll(async () => {
      await killServers([a, b]);
      await pooler?.stop();
      await database?.drop();
    });

    const call = (server: ServerProcess, method: string, path: string, as: User, body?: unknown) =>
      callJson<Body>(server, method, path, as.auth, body);

    it('feed: a post created through one process is listed and liked through the other', async () => {
      const created = await call(a, 'POST', '/post', author, {
        title: 'Treino aberto',
        content: 'Quadra 1',
        type: 'GENERAL',
        author: 'x',
        authorId: author.id,
      });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      // The same statements again and again: unnamed statements work on any server connection.
      for (let i = 0; i < 3; i++) {
        const list = await call(b, 'GET', '/post', reader);
        expect(list.status).toBe(200);
        expect(list.body.data!.map((p) => p.id)).toContain(id);
      }
      expect((await call(b, 'POST', `/post/${id}/like`, reader)).status).toBe(201);
      const read = await call(a, 'GET', `/post/${id}`, reader);
      expect(read.body).toMatchObject({ id, likesCount: 1, likedByMe: true });
    });

    it('matches: subscribing through either process fills the match once per player', async () => {
      const match = await call(a, 'POST', '/match', author, {
        userId: author.id,
        title: 'Racha',
        maxPlayers: 6,
        MatchDate: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        location: 'Ginásio',
      });
      expect(match.status).toBe(201);
      const players = await Promise.all(Array.from({ length: 4 }, () => seedUser(database.url)));
      const answers = await Promise.all(
        players.map((p, i) => call(i % 2 ? a : b, 'POST', `/match/${match.body.id}/subscribe`, p)),
      );
      expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201]);
      const sql = postgres(database.url, { max: 1, onnotice: () => {} });
      const [row] =
        await sql`select count(*)::int as n from match_players where match_id = ${match.body.id!}`;
      await sql.end();
      expect(row!.n).toBe(4);
    });

    it('notifications: a comment through one process reaches a stream on the other (NOTIFY on the direct URL)', async () => {
      const post = await call(a, 'POST', '/post', author, {
        title: 'Aviso',
        type: 'GENERAL',
        author: 'x',
        authorId: author.id,
      });
      const stream = await openStream(`${b.url}/notifications/stream`, author.auth);
      try {
        await stream.next(1);
        const comment = await call(a, 'POST', `/post/${post.body.id}/comment`, reader, {
          content: 'Estarei lá',
        });
        expect(comment.status).toBe(201);
        const [, event] = await stream.next(2, 10_000);
        expect(event!.data).toMatchObject({
          kind: 'notification',
          notification: { data: { commentId: comment.body.id } },
        });
      } finally {
        await stream.close();
      }
    });

    it('the queries went through the pooler; LISTEN and the job queue did not', async () => {
      const admin = new URL(pooler.url);
      admin.pathname = '/pgbouncer';
      const console = postgres(admin.toString(), {
        max: 1,
        fetch_types: false,
        onnotice: () => {},
      });
      const stats = await console.unsafe('show stats').simple();
      await console.end();
      const name = new URL(database.url).pathname.slice(1);
      const mine = stats.find((s) => s.database === name);
      expect(Number(mine?.total_xact_count)).toBeGreaterThan(10);
      const sql = postgres(database.url, { max: 1, onnotice: () => {} });
      const sessions = await sql<{ application_name: string; query: string }[]>`
        select application_name, query from pg_stat_activity where datname = current_database()`;
      await sql.end();
      expect(sessions.filter((s) => /^listen /i.test(s.query)).length).toBe(2);
      expect(sessions.filter((s) => s.application_name === 'campus-jobs').length).toBeGreaterThan(
        0,
      );
    });

    it("the statement timeout reaches the pooled connections as the role's default", async () => {
      const pooled = postgres(pooler.url, { max: 1, prepare: false, onnotice: () => {} });
      const [row] = await pooled<{ statement_timeout: string }[]>`show statement_timeout`;
      await pooled.end();
      expect(row!.statement_timeout).toBe('8s');
    });
  },
);
