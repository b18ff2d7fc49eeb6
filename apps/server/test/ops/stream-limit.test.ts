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

/** The per-user limit of open streams holds across processes: it is counted in the database. */
describe('open streams per user, across two processes', { tags: ['postgres-only'] }, () => {
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    database = await scratchDatabase(process.env.TEST_DATABASE_URL!);
    [a, b] = (await readyServers(2, { DATABASE_URL: database.url, STREAMS_PER_USER: '3' })) as [
      ServerProcess,
      ServerProcess,
    ];
  }, 180_000);

  afterAll(async () => {
    await killServers([a, b]);
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
});
