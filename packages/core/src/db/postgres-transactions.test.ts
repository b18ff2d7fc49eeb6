import postgres from 'postgres';
import { describe, expect, it } from 'vitest';

/**
 * Regression tests for the patched postgres.js (patches/postgres@3.4.9.patch). #1189: under a full
 * pipeline or write backpressure, `sql.begin` sent BEGIN on a connection it had not reserved,
 * failing with UNSAFE_TRANSACTION and leaving connections idle in transaction. #1208, #1186,
 * #1142: a transaction whose connection died sent its ROLLBACK to a null socket (the process
 * ended from a timer) or into the connection's next session, which then never answered.
 */
describe('postgres.js transactions under pipelining', { tags: ['postgres-only'] }, () => {
  it('1,000 concurrent transactions on a pipeline of one all commit', async () => {
    const sql = postgres(process.env.TEST_DATABASE_URL!, {
      max: 4,
      onnotice: () => {},
      ...({ max_pipeline: 1 } as object),
    });
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 1000 }, (_, i) =>
          sql.begin(async (tx) => (await tx`select ${i}::int as n`)[0]!.n),
        ),
      );
      const failed = results.filter((r) => r.status === 'rejected');
      expect(failed).toEqual([]);
      const [row] = await sql<{ stuck: number }[]>`
        select count(*)::int as stuck from pg_stat_activity
        where state = 'idle in transaction' and datname = current_database()`;
      expect(row?.stuck).toBe(0);
    } finally {
      await sql.end();
    }
  });

  it('a transaction whose backend is killed fails, and the pool serves the next queries', async () => {
    const sql = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    const killer = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    try {
      let pid: number | undefined;
      const cut = sql.begin(async (tx) => {
        pid = (await tx<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]!.pid;
        await tx`select pg_sleep(2)`;
        await tx`select 1`;
      });
      while (pid === undefined) await new Promise((r) => setTimeout(r, 20));
      await killer`select pg_terminate_backend(${pid})`;
      await expect(cut).rejects.toThrow();
      expect((await sql<{ n: number }[]>`select 3 as n`)[0]!.n).toBe(3);
    } finally {
      await Promise.all([sql.end({ timeout: 1 }), killer.end()]);
    }
  });
});
