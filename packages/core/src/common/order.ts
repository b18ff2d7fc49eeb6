import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * `created_at desc, id desc`, spelled as the `(created_at desc, id desc)` indexes are built
 * (`desc nulls last`): a bare DESC means NULLS FIRST, which PostgreSQL cannot serve from those
 * indexes and sorts the whole table instead. The columns are NOT NULL, so the order is the same.
 */
export const newestFirst = (createdAt: AnyPgColumn, id: AnyPgColumn) =>
  sql`${createdAt} desc nulls last, ${id} desc nulls last`;
