import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { isReady, runServer, scratchDatabase, seedUser, waitFor } from '../support/process';
import { tcpProxy } from '../support/tcp-proxy';

/**
 * PostgreSQL black-holed (a partition: connections open, nothing answered, new ones accepted and
 * never served) under a steady stream of writes, with and without `Idempotency-Key`, at the
 * default request deadline (10 s). The process knows the database is out of reach within about
 * a second (docs/operations.md, "When the database is out of reach"), so the writes sent once it
 * knows are answered 503 with Retry-After while the partition still lasts, keyed or not, instead
 * of each waiting for its deadline; it recovers without a restart and loses nothing acknowledged.
 */
describe('fault: the database is black-holed under load', { tags: ['postgres-only'] }, () => {
  it('answers 503 at once once the cut is known, keyed writes too, and recovers', async () => {
    const database = await scratchDatabase(process.env.TEST_DATABASE_URL!);
    const target = new URL(database.url);
    const direct = runServer({ DATABASE_URL: database.url });
    await waitFor(() => isReady(direct), 60_000, 'migrated');
    direct.child.kill('SIGTERM');
    await direct.exited;

    const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(database.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    // The defaults that matter here: REQUEST_TIMEOUT_MS 10 s, DATABASE_CONNECT_TIMEOUT_S 2 s.
    const server = runServer({ DATABASE_URL: viaProxy.toString(), DATABASE_POOL_MAX: '4' });
    type Result = {
      status: number;
      retryAfter: string | null;
      keyed: boolean;
      nome: string;
      reason?: string;
      id?: string;
    };
    const results: Array<Result & { sent: string; waitedMs: number }> = [];
    let phase = 'before';
    try {
      await waitFor(() => isReady(server), 60_000, 'server ready');
      const user = await seedUser(database.url);
      const write = async (n: number) => {
        const sent = phase;
        const sentAt = Date.now();
        const keyed = n % 2 === 0;
        const nome = `carga ${n} ${randomBytes(4).toString('hex')}`;
        const response = await fetch(`${server.url}/exemplos`, {
          method: 'POST',
          headers: {
            ...user.auth,
            'content-type': 'application/json',
            ...(keyed ? { 'idempotency-key': randomBytes(8).toString('hex') } : {}),
          },
          body: JSON.stringify({ nome }),
        });
        const body = (await response.json()) as { dados?: { id: string }; reason?: string };
        results.push({
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          keyed,
          nome,
          ...(body.reason ? { reason: body.reason } : {}),
          sent,
          waitedMs: Date.now() - sentAt,
          ...(body.dados ? { id: body.dados.id } : {}),
        });
      };
      const writes: Promise<void>[] = [];
      let n = 0;
      const load = setInterval(() => writes.push(write(n++)), 100);
      await new Promise((r) => setTimeout(r, 2000));
      phase = 'cut';
      proxy.blackHole();
      // Well past the probe's interval and timeout (1 s each), well before the 10 s deadline.
      await new Promise((r) => setTimeout(r, 3000));
      phase = 'known';
      await new Promise((r) => setTimeout(r, 4000));
      phase = 'after';
      proxy.restore();
      await new Promise((r) => setTimeout(r, 6000));
      clearInterval(load);
      await Promise.all(writes);

      for (const result of results) {
        expect([201, 503], JSON.stringify(result)).toContain(result.status);
        if (result.status === 503) expect(Number(result.retryAfter)).toBeGreaterThan(0);
      }
      // Sent once the cut was known: refused, keyed or not, without waiting for the 10 s deadline
      // (on a loaded machine the last of them may be answered just after the partition ends, so
      // the answer's wait is what is checked, not the phase it lands in).
      const known = results.filter((r) => r.sent === 'known');
      expect(known.filter((r) => r.keyed).length).toBeGreaterThan(0);
      expect(known.filter((r) => !r.keyed).length).toBeGreaterThan(0);
      for (const result of known)
        expect(result, JSON.stringify(result)).toMatchObject({
          status: 503,
          waitedMs: expect.toSatisfy((ms: number) => ms < 8_000),
        });
      expect(results.filter((r) => r.sent === 'after' && r.status === 201).length).toBeGreaterThan(
        0,
      );

      const acknowledged = results.flatMap((r) => (r.id ? [r.id] : []));
      const sql = postgres(database.url, { max: 1, onnotice: () => {} });
      const stored = await sql<
        { id: string }[]
      >`select id from examples where id = any(${acknowledged}::uuid[])`;
      // A refusal means "not done": no write answered 503 DATABASE_UNAVAILABLE was stored, then or
      // later (OUTCOME_UNKNOWN says it cannot be known: the connection went silent after sending).
      const refused = results.flatMap((r) => (r.reason === 'DATABASE_UNAVAILABLE' ? [r.nome] : []));
      expect(refused.length).toBeGreaterThan(0);
      const refusedStored = await sql<
        { nome: string }[]
      >`select nome from examples where nome = any(${refused}::text[])`;
      await sql.end();
      expect(stored.length).toBe(acknowledged.length);
      expect(refusedStored).toEqual([]);
      expect(server.child.exitCode).toBeNull();
    } finally {
      server.child.kill('SIGKILL');
      await server.exited;
      await proxy.close().catch(() => {});
      await database.drop();
    }
  }, 120_000);
});
