import { sql, type Placeholder } from 'drizzle-orm';

/**
 * A LIMIT or OFFSET written into the statement's text instead of bound as a parameter.
 * PostgreSQL costs `LIMIT $1 OFFSET $2` in a generic plan as if they let a tenth of the table
 * through, so a prepared statement with them never settles on its generic plan: it is planned
 * again on every execution, which for the feed's page cost as much as running it (pgbench: 11k
 * executions/s against 23k with the numbers in the text). Each distinct pair is then a statement
 * of its own, so callers keep the pairs few. Over HTTP, GET /post with the numbers bound took
 * 133–152 µs more of the database per request, 16–36% of its CPU (docs/decisions.md, "Complexity
 * that must pay"), so this stays where the feed's unfiltered pages are read.
 */
export function literalCount(n: number): Placeholder {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a row count: ${n}`);
  // drizzle writes any SQL chunk given as a limit or offset as it is (its types say Placeholder).
  return sql.raw(String(n)) as unknown as Placeholder;
}
