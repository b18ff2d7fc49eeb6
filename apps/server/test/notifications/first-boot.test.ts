import { createServices } from '@campus/core';
import { createDatabase } from '@campus/core/db';
import pino from 'pino';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { startJobs } from '../../src/jobs';
import { testAuthConfig } from '../support/app';
import { scratchDatabase, withProcesses } from '../support/process';

/**
 * Two server processes started at the same instant on a new database: both migrate (one after the
 * other, under the migrations' lock) and both make pg-boss's first boot. Each must become ready,
 * with the job queue created once. A few rounds, as the race did not show every time.
 */
describe('first boot of two processes at once', { tags: ['postgres-only'] }, () => {
  // The cause, without processes: two job queues starting at the same instant on a new database.
  // Unserialised, one of them failed every time here ("deadlock detected" in createQueue).
  it('two job queues set up at once on a new database both start', async () => {
    for (let round = 0; round < 3; round++) {
      const database = await scratchDatabase(process.env.TEST_DATABASE_URL!);
      const handles = await Promise.all(
        [0, 1].map(() =>
          createDatabase({ kind: 'postgres', url: database.url, maxConnections: 3 }),
        ),
      );
      await handles[0]!.migrate();
      const started = await Promise.allSettled(
        handles.map((handle) =>
          startJobs(handle, createServices(handle.db, testAuthConfig), pino({ level: 'silent' })),
        ),
      );
      try {
        expect(
          started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'started')),
        ).toEqual(['started', 'started']);
      } finally {
        for (const s of started) if (s.status === 'fulfilled') await s.value.stop();
        await Promise.all(handles.map((handle) => handle.close()));
        await database.drop();
      }
    }
  }, 300_000);

  it('both become ready, each round, with the queue schema created once', async () => {
    for (let round = 0; round < 3; round++) {
      await withProcesses(2, async (_servers, database) => {
        const sql = postgres(database.url, { max: 1, onnotice: () => {} });
        try {
          const queues = await sql<{ name: string }[]>`select name from pgboss.queue order by name`;
          expect(queues.map((q) => q.name)).toContain('reminders-sweep');
          expect(new Set(queues.map((q) => q.name)).size).toBe(queues.length);
        } finally {
          await sql.end();
        }
      });
    }
  }, 600_000);
});
