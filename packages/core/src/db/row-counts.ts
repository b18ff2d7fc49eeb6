import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Exact row counts of large tables, kept by triggers in the same transaction as each insert and
 * delete (migration 0001), so list endpoints report `totalCount` without a COUNT(*) scan.
 */
export const rowCounts = pgTable('row_counts', {
  tableName: text('table_name').primaryKey(),
  rowCount: bigint('row_count', { mode: 'number' }).notNull(),
});
