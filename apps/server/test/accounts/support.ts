import { sql } from 'drizzle-orm';
import type { TestApp } from '../support/app';

/** Rows of a raw query, whichever driver answered (PGlite: `{rows}`; postgres.js: an array). */
const rowsOf = <T>(result: unknown): T[] =>
  Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);

/** Every base table of the database, schema-qualified: the real list, not a hand-kept one. */
export async function allTables(t: TestApp): Promise<{ schema: string; name: string }[]> {
  const result = await t.db.execute(sql`
    select table_schema, table_name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
    order by 1, 2`);
  return rowsOf<{ table_schema: string; table_name: string }>(result).map((r) => ({
    schema: r.table_schema,
    name: r.table_name,
  }));
}

/** The tables (schema.name) holding a row whose text, any column, contains `value`. */
export async function tablesNaming(t: TestApp, value: string): Promise<string[]> {
  const found: string[] = [];
  for (const table of await allTables(t)) {
    const ref = sql.raw(`"${table.schema}"."${table.name}"`);
    const [row] = rowsOf<{ n: number }>(
      await t.db.execute(
        sql`select count(*)::int as n from ${ref} as r where strpos(lower(r::text), lower(${value})) > 0`,
      ),
    );
    if (row && Number(row.n) > 0) found.push(`${table.schema}.${table.name}`);
  }
  return found;
}
