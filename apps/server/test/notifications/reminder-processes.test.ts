import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { isReady, runServer, scratchDatabase, seedUser, waitFor } from '../support/process';

/**
 * Reminders on pg-boss with real server processes: a reminder that fell due while no process ran
 * is sent when they start, and two processes running the queue send it once per person.
 */
describe('reminders across processes', { tags: ['postgres-only'] }, () => {
  it('a reminder due while no process ran is sent once; two processes run the queue', async () => {
    const database = await scratchDatabase(process.env.TEST_DATABASE_URL!);
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    const env = { DATABASE_URL: database.url };
    let a = runServer({ ...env, JOBS: 'off' });
    let b: ReturnType<typeof runServer> | undefined;
    try {
      // The schema, then no process at all while the match falls due.
      await waitFor(() => isReady(a), 60_000, 'migrating process ready');
      a.child.kill('SIGKILL');
      await a.exited;
      const organiser = await seedUser(database.url);
      const players = await Promise.all([1, 2, 3, 4].map(() => seedUser(database.url)));
      const [match] = await sql<{ id: string }[]>`
        insert into matches (title, author_id, max_players, match_date, location)
        values ('Racha', ${organiser.id}, 10, now() + interval '90 minutes', 'Quadra')
        returning id`;
      for (const [i, player] of players.entries()) {
        await sql`insert into match_players (match_id, user_id, team)
                  values (${match!.id}, ${player.id}, ${i % 2 ? 'B' : 'A'})`;
      }

      // Both at once: pg-boss's first boot on this database (see first-boot.test.ts).
      a = runServer(env);
      b = runServer(env);
      await Promise.all([
        waitFor(() => isReady(a), 150_000, 'first ready'),
        waitFor(() => isReady(b!), 150_000, 'second ready'),
      ]);
      const reminders = () => sql<{ user_id: string; n: number }[]>`
        select user_id, count(*)::int as n from notifications
        where type = 'MATCH_REMINDER' group by user_id`;
      await waitFor(async () => (await reminders()).length === players.length, 30_000, 'reminders');
      // Both processes ran their boot sweep and the schedule; nobody got a second one.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const rows = await reminders();
      expect(rows.map((r) => r.user_id).sort()).toEqual(players.map((p) => p.id).sort());
      expect(rows.every((r) => r.n === 1)).toBe(true);
      const [queue] = await sql<{ n: number }[]>`
        select count(*)::int as n from pgboss.job where name = 'reminders-sweep'`;
      expect(queue!.n).toBeGreaterThanOrEqual(1);
    } finally {
      a.child.kill('SIGKILL');
      b?.child.kill('SIGKILL');
      await Promise.all([a.exited, b?.exited]);
      await sql.end();
      await database.drop();
    }
  }, 300_000);
});
