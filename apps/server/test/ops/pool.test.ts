import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { killServers, readyServers, scratchDatabase, seedUser, waitFor } from '../support/process';

/** The query pool grows under a burst up to DATABASE_POOL_MAX and gives connections back when idle. */
describe('the query pool', { tags: ['postgres-only'], timeout: 120_000 }, () => {
  it('never exceeds DATABASE_POOL_MAX and shrinks after DATABASE_POOL_IDLE_TIMEOUT_S', async () => {
    const database = await scratchDatabase(process.env.TEST_DATABASE_URL!);
    const [server] = await readyServers(1, {
      DATABASE_URL: database.url,
      // Straight to PostgreSQL even in a run through a pooler: its own connections are counted.
      DATABASE_DIRECT_URL: '',
      DATABASE_POOL_MAX: '6',
      DATABASE_POOL_IDLE_TIMEOUT_S: '1',
      JOBS: 'off',
    });
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    // The query pool's connections are named `campus-api <pid> <host>` (docs/operations.md).
    const poolConnections = async () => {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and application_name like 'campus-api %'`;
      return row!.n;
    };
    try {
      const user = await seedUser(database.url);
      let most = 0;
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all(
          Array.from({ length: 40 }, () =>
            fetch(`${server!.url}/post`, { headers: user.auth }).then((r) => r.status),
          ),
        );
        expect(new Set(answers)).toEqual(new Set([200]));
        most = Math.max(most, await poolConnections());
      }
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(6);
      await waitFor(async () => (await poolConnections()) === 0, 30_000, 'the pool to shrink');
    } finally {
      await sql.end();
      await killServers([server]);
      await database.drop();
    }
  });
});
