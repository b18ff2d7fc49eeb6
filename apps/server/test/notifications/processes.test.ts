import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callJson,
  killServers,
  readyServers,
  scratchDatabase,
  seedUser,
  waitFor,
  type ServerProcess,
} from '../support/process';
import { openStream } from '../support/sse';

/**
 * Live updates between two real server processes on one PostgreSQL database: what changes through
 * one reaches streams on the other through LISTEN/NOTIFY, and a lost listener connection
 * recovers and resynchronises.
 */
describe('live updates across two processes', { tags: ['postgres-only'] }, () => {
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;
  let admin: postgres.Sql;
  type User = Awaited<ReturnType<typeof seedUser>>;
  let author: User;
  let other: User;

  beforeAll(async () => {
    database = await scratchDatabase(process.env.TEST_DATABASE_URL!);
    [a, b] = (await readyServers(2, { DATABASE_URL: database.url })) as [
      ServerProcess,
      ServerProcess,
    ];
    admin = postgres(database.url, { max: 1, onnotice: () => {} });
    author = await seedUser(database.url);
    other = await seedUser(database.url);
  }, 150_000);

  afterAll(async () => {
    await killServers([a, b]);
    await admin?.end();
    await database?.drop();
  });

  const call = callJson;
  const newPost = async () => {
    const res = await call(a, 'POST', '/post', author.auth, {
      title: 'Treino aberto',
      type: 'GENERAL',
      author: 'x',
      authorId: author.id,
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const commentOn = (postId: string, content: string) =>
    call(a, 'POST', `/post/${postId}/comment`, other.auth, { content });

  it('a comment made through one process reaches a stream on the other', async () => {
    const postId = await newPost();
    const s = await openStream(`${b.url}/notifications/stream`, author.auth);
    try {
      await s.next(1);
      // How fast it arrives is measured in bench/ (fan-out); here, that each one does.
      for (let i = 0; i < 5; i++) {
        const res = await commentOn(postId, `comentário ${i}`);
        expect(res.status).toBe(201);
        const event = (await s.next(2 + i, 10_000))[1 + i]!;
        expect(event.data).toMatchObject({
          kind: 'notification',
          notification: { data: { commentId: res.body.id } },
        });
      }
    } finally {
      await s.close();
    }
  });

  it('a stream reconnected on the other process with Last-Event-ID gets what it missed', async () => {
    const postId = await newPost();
    const first = await openStream(`${b.url}/notifications/stream`, author.auth);
    await first.next(1);
    await commentOn(postId, 'visto');
    const seen = (await first.next(2))[1]!;
    await first.close();
    const missed = [];
    for (const text of ['perdido 1', 'perdido 2'])
      missed.push((await commentOn(postId, text)).body.id);
    const again = await openStream(`${a.url}/notifications/stream`, {
      ...author.auth,
      'Last-Event-ID': seen.id!,
    });
    try {
      const events = await again.next(3);
      expect(
        events
          .slice(0, 2)
          .map(
            (e) =>
              (e.data as { notification: { data: { commentId: string } } }).notification.data
                .commentId,
          ),
      ).toEqual(missed);
    } finally {
      await again.close();
    }
  });

  it('a listener connection killed with pg_terminate_backend recovers and resyncs', async () => {
    const match = await call(a, 'POST', '/match', author.auth, {
      userId: author.id,
      title: 'Racha',
      maxPlayers: 6,
      MatchDate: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      location: 'Ginásio',
    });
    expect(match.status).toBe(201);
    const matchStream = await openStream(
      `${b.url}/match/${match.body.id as string}/stream`,
      other.auth,
    );
    const inbox = await openStream(`${b.url}/notifications/stream`, author.auth);
    try {
      await matchStream.next(1);
      await inbox.next(1);
      // Changes whose NOTIFY never reached the listener (written here without one), as when they
      // commit while a listener connection is down: only a resync can deliver them.
      const matchId = match.body.id as string;
      await admin`insert into match_players (match_id, user_id, team) values (${matchId}, ${other.id}, 'A')`;
      const [missed] = await admin<{ id: string }[]>`
        insert into notifications (user_id, type, message, data)
        values (${author.id}, 'MATCH_CANCELLED', 'perdida', ${admin.json({ matchId })})
        returning id`;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(matchStream.events).toHaveLength(1);
      expect(inbox.events).toHaveLength(1);

      const killed = await admin<{ pid: number }[]>`
        select pg_terminate_backend(pid) as pid from pg_stat_activity
        where datname = current_database() and query ilike 'listen %'`;
      expect(killed.length).toBeGreaterThanOrEqual(2); // each process's listener

      // The driver listens again and calls onlisten: the match stream sends its current state,
      // the inbox replays from the table.
      const [resynced] = await matchStream.next(2, 10_000).then((e) => e.slice(1));
      expect(resynced!.data).toMatchObject({ match: { spots: { totalFilled: 1 } } });
      await waitFor(
        async () =>
          inbox.events.some(
            (e) => (e.data as { notification?: { id: string } }).notification?.id === missed!.id,
          ),
        10_000,
        'inbox resynchronised',
      );
      // And it listens again: a later change arrives live.
      const before = matchStream.events.length;
      expect((await call(a, 'DELETE', `/match/${matchId}/unsubscribe`, other.auth)).status).toBe(
        200,
      );
      await matchStream.next(before + 1, 3000);
      expect(matchStream.events.at(-1)!.data).toMatchObject({
        match: { spots: { totalFilled: 0 } },
      });
    } finally {
      await Promise.all([matchStream.close(), inbox.close()]);
    }
  });
  it('SIGTERM ends the open streams at once (REST and tRPC) and the process exits 0', async () => {
    const input = encodeURIComponent(JSON.stringify({}));
    const rest = await openStream(`${b.url}/notifications/stream`, author.auth);
    const trpc = await openStream(
      `${b.url}/trpc/streams.notifications?input=${input}`,
      author.auth,
    );
    await rest.next(1);
    b.child.kill('SIGTERM');
    // Streams left open would hold the shutdown until its 10 s drain gives up: they end before.
    const drainOver = new Promise((resolve) => setTimeout(resolve, 9_000, 'held to the drain'));
    const ended = Promise.all([rest.done, trpc.done]).then(() => 'ended');
    expect(await Promise.race([ended, drainOver])).toBe('ended');
    expect(await b.exited).toBe(0);
  });
});
