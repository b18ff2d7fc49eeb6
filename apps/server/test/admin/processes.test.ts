import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isReady,
  runServer,
  scratchDatabase,
  seedUser,
  waitFor,
  type ServerProcess,
} from '../support/process';
import { openStream } from '../support/sse';

/**
 * Each process keeps its callers' accounts in memory (no read per request); a change of an
 * account made through one process, or by SQL, reaches the other through LISTEN/NOTIFY (the time it takes is
 * measured in bench/), and a process whose listener connection dropped stops trusting what it kept.
 */
// Each test waits on the other process (streams ending, notifications arriving): 60 s each.
describe(
  'account changes across two processes',
  { tags: ['postgres-only'], timeout: 60_000 },
  () => {
    let database: Awaited<ReturnType<typeof scratchDatabase>>;
    let a: ServerProcess;
    let b: ServerProcess;
    let sql: postgres.Sql;
    type User = Awaited<ReturnType<typeof seedUser>>;
    let admin: User;

    beforeAll(async () => {
      database = await scratchDatabase(process.env.TEST_DATABASE_URL!);
      const env = { DATABASE_URL: database.url };
      a = runServer(env);
      await waitFor(() => isReady(a), 60_000, 'first process ready');
      b = runServer(env);
      await waitFor(() => isReady(b), 60_000, 'second process ready');
      sql = postgres(database.url, { max: 1, onnotice: () => {} });
      admin = await seedUser(database.url);
      await sql`update users set perfil = 'ADMIN' where id = ${admin.id}`;
    }, 150_000);

    afterAll(async () => {
      a?.child.kill('SIGKILL');
      b?.child.kill('SIGKILL');
      await Promise.all([a?.exited, b?.exited]);
      await sql?.end();
      await database?.drop();
    });

    const statusOn = async (server: ServerProcess, user: User) =>
      (await fetch(`${server.url}/notifications/unread-count`, { headers: user.auth })).status;

    /**
     * Polls `server` until `user` is refused (200 until then). Without the event the cache would
     * accept them for good, so the generous bound only keeps a broken build from hanging.
     */
    async function expectRefusedBy(server: ServerProcess, user: User) {
      let status = 200;
      const changed = async () => (status = await statusOn(server, user)) !== 200;
      await waitFor(changed, 10_000, `a refusal on port ${server.port}`);
      expect(status).toBe(401);
    }

    /** A user whose account process `b` has in its cache (it answered one of their requests). */
    async function knownToB() {
      const user = await seedUser(database.url);
      expect(await statusOn(b, user)).toBe(200);
      expect(await statusOn(b, user)).toBe(200);
      return user;
    }

    it('an account blocked through one process is refused by the other, and its streams there end', async () => {
      const user = await knownToB();
      const stream = await openStream(`${b.url}/notifications/stream`, user.auth);
      await stream.next(1);
      const res = await fetch(`${a.url}/admin/usuarios/${user.id}/status`, {
        method: 'PATCH',
        headers: { ...admin.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'INATIVO' }),
      });
      expect(res.status).toBe(200);
      await expectRefusedBy(b, user);
      await stream.done;
      expect(await statusOn(a, user)).toBe(401);
    });

    it.each([
      ['deleted', (id: string) => sql`delete from users where id = ${id}`],
      ['made PENDENTE', (id: string) => sql`update users set status = 'PENDENTE' where id = ${id}`],
      [
        'logged out everywhere',
        (id: string) =>
          sql`update users set sessions_revoked_at = now() + interval '1 second' where id = ${id}`,
      ],
    ])('an account %s by SQL is refused by both processes', async (_, change) => {
      const user = await knownToB();
      expect(await statusOn(a, user)).toBe(200);
      await change(user.id);
      await expectRefusedBy(b, user);
      await expectRefusedBy(a, user);
    });

    it('a role change reaches the other process: a new ADMIN is let in at once', async () => {
      const user = await knownToB();
      const list = () => fetch(`${b.url}/admin/usuarios`, { headers: user.auth });
      expect((await list()).status).toBe(403);
      await sql`update users set perfil = 'ADMIN' where id = ${user.id}`;
      await waitFor(
        async () => (await list()).status === 200,
        10_000,
        'ADMIN on the other process',
      );
    });

    it('a process whose listener connection dropped forgets the accounts it kept', async () => {
      const user = await knownToB();
      // A change whose NOTIFY never reaches anyone (triggers off), as when it commits while the
      // listener is down: the cache still answers with the account as it was.
      await sql.begin(async (tx) => {
        await tx`set local session_replication_role = replica`;
        await tx`update users set status = 'INATIVO' where id = ${user.id}`;
      });
      expect(await statusOn(b, user)).toBe(200);
      const killed = await sql`
      select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and query ilike 'listen %'`;
      expect(killed.length).toBeGreaterThanOrEqual(2);
      await waitFor(async () => (await statusOn(b, user)) === 401, 3000, 'cache emptied');
      // Listening again: events arrive and the cache is in use again.
      const other = await knownToB();
      await sql`update users set status = 'INATIVO' where id = ${other.id}`;
      await expectRefusedBy(b, other);
    });
  },
);
