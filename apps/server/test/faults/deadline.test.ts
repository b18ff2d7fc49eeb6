import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import {
  callJson,
  isReady,
  runServer,
  scratchDatabase,
  seedUser,
  waitFor,
} from '../support/process';

/**
 * A create past its request's deadline (docs/operations.md, "A request past its deadline"): its
 * database work is called back before the answer, so nothing of it is stored later, and a 503
 * `DATABASE_UNAVAILABLE` means it was not done. Two creates run and wait on a lock the test holds; with two connections
 * in the pool, the third waits in the pool's queue. All outlive the 1 s deadline; once the lock is
 * released, none may be stored.
 */
// The timeout covers the start (up to 60 s) on a loaded machine.
describe(
  'a request past its deadline',
  { tags: ['postgres-only', 'async-context'], timeout: 120_000 },
  () => {
    it('has its running and queued statements called back: 503 not done, nothing stored later', async () => {
      const database = await scratchDatabase(process.env.TEST_DATABASE_URL!);
      const server = runServer({
        DATABASE_URL: database.url,
        DATABASE_POOL_MAX: '2',
        REQUEST_TIMEOUT_MS: '1000',
        // Node 22 carries the context cheaply only with this flag (Node 24 always does).
        ...(process.versions.node.startsWith('22.')
          ? { NODE_OPTIONS: '--experimental-async-context-frame' }
          : {}),
      });
      const sql = postgres(database.url, { max: 2, onnotice: () => {} });
      try {
        await waitFor(() => isReady(server), 60_000, 'server ready');
        const user = await seedUser(database.url);
        const create = (nome: string) =>
          callJson<{ reason?: string }>(server, 'POST', '/exemplos', user.auth, { nome });
        expect((await create('antes')).status).toBe(201);

        const lock = await sql.reserve();
        await lock`begin`;
        await lock`lock table examples in access exclusive mode`;
        const [running1, running2, queued] = await Promise.all(
          ['em execução 1', 'em execução 2', 'na fila'].map(create),
        );
        // Running: PostgreSQL answers that it cancelled them, so not done.
        for (const answer of [running1, running2])
          expect(answer).toMatchObject({ status: 503, body: { reason: 'DATABASE_UNAVAILABLE' } });
        // Queued: dropped by the driver, which cannot prove it never left (OUTCOME_UNKNOWN allowed).
        expect(queued!.status).toBe(503);
        expect(['DATABASE_UNAVAILABLE', 'OUTCOME_UNKNOWN']).toContain(queued!.body.reason);
        await lock`commit`;
        lock.release();

        // Time for anything still on its way to land, then: only what was answered 201.
        await new Promise((r) => setTimeout(r, 1500));
        const rows = await sql<{ nome: string }[]>`select nome from examples order by nome`;
        expect(rows.map((r) => r.nome)).toEqual(['antes']);
        expect((await create('depois')).status).toBe(201);
      } finally {
        server.child.kill('SIGKILL');
        await server.exited;
        await sql.end();
        await database.drop();
      }
    });
  },
);
