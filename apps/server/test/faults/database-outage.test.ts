import { describe, expect, it } from 'vitest';
import { isReady, privateCluster, runServer, seedUser, waitFor } from '../support/process';

/**
 * PostgreSQL stopped and started under a running server: /ready says 503 while it is down,
 * requests fail cleanly in the error format, and the server recovers with no restart.
 * Runs on a private cluster so that the shared test server is never stopped.
 */
// Independent of the suite's backend: run once, in the PGlite project that always exists. The
// timeout covers the waits below (60 + 20 + 30 + 30 s): the PGlite project runs three files at once.
describe(
  'fault: the database goes away and comes back',
  { tags: ['private-cluster', 'pglite-only'], timeout: 150_000 },
  () => {
    it('reports 503 on /ready, answers 503 with Retry-After in the error format, and recovers by itself', async () => {
      const cluster = privateCluster();
      const server = runServer({ DATABASE_URL: cluster.url, DATABASE_POOL_MAX: '4' });
      try {
        await waitFor(() => isReady(server), 60_000, 'server ready');
        const user = await seedUser(cluster.url);
        const create = () =>
          fetch(`${server.url}/exemplos`, {
            method: 'POST',
            headers: { ...user.auth, 'content-type': 'application/json' },
            body: JSON.stringify({ nome: 'Antes da queda' }),
          });
        expect((await create()).status).toBe(201);

        cluster.stop();
        await waitFor(
          async () => (await fetch(`${server.url}/ready`)).status === 503,
          20_000,
          '/ready 503',
        );
        expect((await fetch(`${server.url}/health`)).status).toBe(200);
        const failed = await create();
        expect(failed.status).toBe(503);
        expect(Number(failed.headers.get('retry-after'))).toBeGreaterThan(0);
        const body = await failed.json();
        expect(body).toEqual({
          code: 'SERVICE_UNAVAILABLE',
          message: expect.any(String),
          reason: expect.stringMatching(/^(DATABASE_UNAVAILABLE|OUTCOME_UNKNOWN)$/),
        });
        expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|postgres|at /);

        cluster.start();
        await waitFor(() => isReady(server), 30_000, '/ready 200 again');
        await waitFor(async () => (await create()).status === 201, 30_000, 'writes again');
        expect(server.child.exitCode).toBeNull();
      } finally {
        server.child.kill('SIGKILL');
        cluster.destroy();
      }
    });
  },
);
