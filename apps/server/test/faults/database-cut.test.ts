import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { isReady, runServer, scratchDatabase, seedUser, waitFor } from '../support/process';
import { tcpProxy } from '../support/tcp-proxy';

const REQUEST_TIMEOUT_MS = 2000;

/**
 * A TCP proxy between the server and PostgreSQL, cut for a few seconds under a steady stream of
 * writes, as a network partition or a failover would: every request is answered within the
 * configured bound (503 with Retry-After while the database cannot be reached), nothing that was
 * acknowledged is lost, and the server recovers without a restart.
 */
describe(
  'fault: the connection to the database is cut under load',
  { tags: ['postgres-only'] },
  () => {
    it('answers within the bound (503 + Retry-After while cut), loses no acknowledged write, recovers', async () => {
      const database = await scratchDatabase(process.env.TEST_DATABASE_URL!);
      const target = new URL(database.url);
      // The first start migrates directly; the server under test then talks through the proxy.
      const direct = runServer({ DATABASE_URL: database.url });
      await waitFor(() => isReady(direct), 60_000, 'migrated');
      direct.child.kill('SIGTERM');
      await direct.exited;

      const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const viaProxy = new URL(database.url);
      viaProxy.host = `127.0.0.1:${proxy.port}`;
      const server = runServer({
        DATABASE_URL: viaProxy.toString(),
        DATABASE_POOL_MAX: '4',
        DATABASE_CONNECT_TIMEOUT_S: '1',
        DATABASE_STATEMENT_TIMEOUT_MS: '1500',
        REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      });
      const results: Array<{
        status: number;
        retryAfter: string | null;
        id?: string;
        reason?: string;
        nome: string;
        phase: string;
      }> = [];
      let phase = 'before';
      try {
        await waitFor(() => isReady(server), 60_000, 'server ready');
        const user = await seedUser(database.url);
        const write = async (n: number) => {
          const startedIn = phase;
          const nome = `carga ${n} ${Math.random().toString(36).slice(2)}`;
          const response = await fetch(`${server.url}/exemplos`, {
            method: 'POST',
            headers: { ...user.auth, 'content-type': 'application/json' },
            body: JSON.stringify({ nome }),
          });
          const body = (await response.json()) as { dados?: { id: string }; reason?: string };
          results.push({
            status: response.status,
            retryAfter: response.headers.get('retry-after'),
            phase: startedIn,
            nome,
            ...(body.reason ? { reason: body.reason } : {}),
            ...(body.dados ? { id: body.dados.id } : {}),
          });
        };
        // About 20 writes a second for 9 s: 2 s before, 3 s cut, 4 s after (reconnecting takes a moment).
        const writes: Promise<void>[] = [];
        let n = 0;
        const load = setInterval(() => writes.push(write(n++)), 50);
        await new Promise((r) => setTimeout(r, 2000));
        phase = 'cut';
        await proxy.close();
        const ready = await fetch(`${server.url}/ready`);
        await new Promise((r) => setTimeout(r, 3000));
        await proxy.reopen();
        phase = 'after';
        await new Promise((r) => setTimeout(r, 4000));
        clearInterval(load);
        await Promise.all(writes);

        // The bound is proven by its outcome: requests sent while the database was out of reach
        // were answered 503 (the cut outlasts REQUEST_TIMEOUT_MS), not held until it came back.
        expect(ready.status).toBe(503);
        for (const result of results) {
          expect([201, 503], JSON.stringify(result)).toContain(result.status);
          if (result.status === 503) expect(Number(result.retryAfter)).toBeGreaterThan(0);
        }
        expect(results.filter((r) => r.phase === 'cut' && r.status === 503).length).toBeGreaterThan(
          0,
        );
        expect(
          results.filter((r) => r.phase === 'after' && r.status === 201).length,
        ).toBeGreaterThan(0);

        const acknowledged = results.flatMap((r) => (r.id ? [r.id] : []));
        const sql = postgres(database.url, { max: 1, onnotice: () => {} });
        const stored = await sql<
          { id: string }[]
        >`select id from examples where id = any(${acknowledged}::uuid[])`;
        // A refusal means "not done": no write answered 503 DATABASE_UNAVAILABLE is stored
        // (OUTCOME_UNKNOWN: the connection died after the write was sent, it cannot be known).
        const refused = results.flatMap((r) =>
          r.reason === 'DATABASE_UNAVAILABLE' ? [r.nome] : [],
        );
        const refusedStored = await sql<
          { nome: string }[]
        >`select nome from examples where nome = any(${refused}::text[])`;
        await sql.end();
        expect(stored.length).toBe(acknowledged.length);
        expect(refusedStored).toEqual([]);
        for (const result of results.filter((r) => r.status === 503))
          expect(['DATABASE_UNAVAILABLE', 'OUTCOME_UNKNOWN']).toContain(result.reason);
        expect(server.child.exitCode).toBeNull();
      } finally {
        server.child.kill('SIGKILL');
        await server.exited;
        await proxy.close().catch(() => {});
        await database.drop();
      }
    }, 120_000);
  },
);
