import postgres from 'postgres';
import { describe, expect, it } from 'vitest';

/**
 * Regression test for the patched postgres.js (patches/postgres@3.4.9.patch, porsager/postgres
 * #1189): under a full pipeline or write backpressure, `sql.begin` sent BEGIN on a connection it
 * had not reserved, failing with UNSAFE_TRANSACTION and leaving connections idle in transaction.
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
});
