import { getTableName, sql, type Column, type SQL } from 'drizzle-orm';

/**
 * `"table"."column"`, whatever the query around it. drizzle leaves columns unqualified in a
 * query on a single table, and inside a correlated subquery an unqualified name means the inner
 * table's: `(select count(*) from match_players where match_id = id)` compares match_players.id.
 */
export const qualified = (column: Column): SQL =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
