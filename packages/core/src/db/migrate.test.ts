import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { createDatabase } from './client';

/** Servers started together on a new database (replicas of one deployment) all come up. */
describe('migrations on PostgreSQL', { tags: ['postgres-only'] }, () => {
  it(
    'four handles migrating one new database at once all succeed, and the schema is applied once',
    { timeout: 120_000 },
    async () => {
      const name = `campus_migrate_${randomBytes(5).toString('hex')}`;
      const admin = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      const handles = await Promise.all(
        Array.from({ length: 4 }, () =>
          createDatabase({ kind: 'postgres', url: url.toString(), maxConnections: 2 }),
        ),
      );
      try {
        const results = await Promise.allSettled(handles.map((handle) => handle.migrate()));
        expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
        const check = postgres(url.toString(), { max: 1, onnotice: () => {} });
        const migrations = await check<
          { hash: string }[]
        >`select hash from drizzle.__drizzle_migrations`;
        await check.end();
        expect(migrations.length).toBeGreaterThan(0);
        expect(new Set(migrations.map((m) => m.hash)).size).toBe(migrations.length);
        expect(await handles[0]!.ping()).toBe(true);
      } finally {
        await Promise.all(handles.map((handle) => handle.close()));
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
  );
});
