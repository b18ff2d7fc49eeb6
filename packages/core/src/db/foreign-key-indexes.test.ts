import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, type TestBackend } from '../testing';
import { rowsOf } from './rows';

/**
 * Every foreign key of ours has an index leading with its column (migration 0015 added the
 * missing ones). Without it, deleting the referenced row (an account: ON DELETE CASCADE or SET
 * NULL) makes PostgreSQL scan the whole referencing table once per key, and a user's own rows
 * (the LGPD export) can only be found by a full scan too.
 */
async function unindexedForeignKeys(backend: TestBackend, url?: string): Promise<string[]> {
  const handle = await createTestDatabase(backend, url);
  try {
    const result = await handle.db.execute(sql`
      select c.conrelid::regclass::text || '(' || a.attname || ')' as key
      from pg_constraint c
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      where c.contype = 'f'
        and c.connamespace = 'public'::regnamespace
        and not exists (
          select 1 from pg_index i
          where i.indrelid = c.conrelid and i.indkey[0] = c.conkey[1])
      order by 1`);
    return rowsOf<{ key: string }>(result).map((row) => row.key);
  } finally {
    await handle.close();
  }
}

describe('foreign keys', () => {
  it('PGlite: each has an index leading with its column', { timeout: 120_000 }, async () => {
    expect(await unindexedForeignKeys('pglite')).toEqual([]);
  });

  it('PostgreSQL: the same', { timeout: 120_000, tags: ['postgres-only'] }, async () => {
    expect(await unindexedForeignKeys('postgres', process.env.TEST_DATABASE_URL)).toEqual([]);
  });
});
