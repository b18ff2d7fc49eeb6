import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  killServers,
  readyServers,
  scratchDatabase,
  seedUser,
  waitFor,
  type ServerProcess,
} from '../support/process';
import { openStream } from '../support/sse';

/** A Redis server of the test's own on a port the OS chose, without persistence. */
async function startRedis() {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  await waitFor(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
      }),
    10_000,
    'redis',
  );
  return { url, stop: () => child.kill('SIGKILL') };
}

/**
 * The per-user limit of open streams holds across processes: counted in the database, or in
 * Redis when REDIS_URL is set.
 */
describe('open streams per user, across two processes', { tags: ['postgres-only'] }, () => {
  describe('counted in PostgreSQL', () => limitSuite(false));
  describe('counted in Redis (REDIS_URL)', { tags: ['redis-server'] }, () => limitSuite(true));
});

function limitSuite(withRedis: boolean) {
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    database = await scratchDatabase(process.env.TEST_DATABASE_URL!);
    redis = withRedis ? await startRedis() : undefined;
    [a, b] = (await readyServers(2, {
      DATABASE_URL: database.url,
      STREAMS_PER_USER: '3',
      ...(redis ? { REDIS_URL: redis.url } : {}),
    })) as [ServerProcess, ServerProcess];
  }, 180_000);

  afterAll(async () => {
    await killServers([a, b]);
    redis?.stop();
    await database?.drop();
  });

  it('streams held on one process count on the other; one closed frees a slot for either', async () => {
    const user = await seedUser(database.url);
    const url = (server: ServerProcess) => `${server.url}/notifications/stream`;
    const held = [
      await openStream(url(a), user.auth),
      await openStream(url(a), user.auth),
      await openStream(url(b), user.auth),
    ];
    try {
      for (const stream of held) expect(stream.response.status).toBe(200);
      // Counted where configured: the leases are rows only without Redis.
      const sql = postgres(database.url, { max: 1, onnotice: () => {} });
      const [leases] = await sql<{ n: number }[]>`select count(*)::int as n from stream_leases`;
      await sql.end();
      expect(leases!.n).toBe(withRedis ? 0 : 3);
      for (const server of [a, b]) {
        const refused = await fetch(url(server), { headers: user.auth });
        expect(refused.status).toBe(429);
        expect(await refused.json()).toMatchObject({ reason: 'TOO_MANY_STREAMS' });
      }
      // Another user is not affected.
      const other = await openStream(url(b), (await seedUser(database.url)).auth);
      expect(other.response.status).toBe(200);
      await other.close();

      await held.shift()!.close();
      // The slot comes back once process a has seen the client go and deleted its lease.
      let again: Awaited<ReturnType<typeof openStream>> | undefined;
      await waitFor(
        async () => {
          const attempt = await openStream(url(b), user.auth);
          if (attempt.response.status === 200) again = attempt;
          else await attempt.close();
          return again !== undefined;
        },
        10_000,
        'a freed slot',
      );
      held.push(again!);
    } finally {
      await Promise.all(held.map((s) => s.close()));
    }
  });

  it('many simultaneous opens through both processes never exceed the limit', async () => {
    const user = await seedUser(database.url);
    const streams = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        openStream(`${(i % 2 ? a : b).url}/notifications/stream`, user.auth),
      ),
    );
    try {
      const statuses = streams.map((s) => s.response.status).sort();
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
    } finally {
      await Promise.all(streams.map((s) => s.close()));
    }
  });
}
