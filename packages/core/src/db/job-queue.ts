import { sql } from 'drizzle-orm';
import type { Database } from './client';
import { rowsOf } from './rows';

/**
 * Seconds since the oldest due, not started job of each queue was created (for /metrics). Read
 * from pg-boss's own table (schema `pgboss`, as pg-boss documents it): its API counts jobs but
 * gives no ages.
 */
export async function oldestDueJobAges(db: Database): Promise<Map<string, number>> {
  const result = await db.execute(sql`
    select name, extract(epoch from now() - min(created_on))::float8 as age
    from pgboss.job
    where state in ('created', 'retry') and start_after <= now()
    group by name`);
  return new Map(rowsOf<{ name: string; age: number }>(result).map((r) => [r.name, Number(r.age)]));
}
