import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import {
  callJson,
  killServers,
  readyServers,
  scratchDatabase,
  seedUser,
  waitFor,
  type ServerProcess,
} from '../support/process';
import { startPushService } from '../support/push-service';

/**
 * Two server processes started at once on one database, each running the job queue: they end
 * with one VAPID pair, and a comment, a granted spot and a reminder, caused through either
 * process, each reach the push service (which verifies and decrypts them) exactly once.
 */
describe('push across processes', { tags: ['postgres-only'] }, () => {
  it('one key pair; every notification pushed once', async () => {
    const database = await scratchDatabase(process.env.TEST_DATABASE_URL!);
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    let servers: ServerProcess[] = [];
    // The key every process must sign with: the one they answered at the first start.
    let publicKey = '';
    const push = await startPushService(async () => publicKey);
    try {
      servers = await readyServers(2, {
        DATABASE_URL: database.url,
        PUSH_ENDPOINT_HOSTS: '127.0.0.1',
      });
      const [a, b] = servers as [ServerProcess, ServerProcess];
      const keys = await Promise.all(
        servers.map(
          async (s) => (await callJson(s, 'GET', '/notifications/push/public-key', {})).body,
        ),
      );
      expect(keys[0]).toEqual(keys[1]);
      publicKey = keys[0]!.publicKey as string;
      expect((await sql`select count(*)::int as n from push_vapid_keys`)[0]!.n).toBe(1);

      const [author, reader, organiser, waiting] = await Promise.all(
        [1, 2, 3, 4].map(() => seedUser(database.url)),
      );
      const subscriptions = [author!, waiting!].map(() => push.subscription());
      for (const [i, user] of [author!, waiting!].entries()) {
        const res = await callJson(
          servers[i]!,
          'POST',
          '/notifications/push/subscriptions',
          user.auth,
          subscriptions[i],
        );
        expect(res.status).toBe(201);
      }
      // A comment through B on a post made through A.
      const post = await callJson<{ id: string }>(a, 'POST', '/post', author!.auth, {
        title: 'Treino',
        content: 'Quem vem?',
        type: 'GENERAL',
        author: author!.nickname,
        authorId: author!.id,
      });
      expect(post.status).toBe(201);
      expect(
        (
          await callJson(b, 'POST', `/post/${post.body.id}/comment`, reader!.auth, {
            content: 'Eu!',
          })
        ).status,
      ).toBe(201);
      // A spot granted through B; the new player is reminded at once (inside the lead).
      const match = await callJson<{ id: string }>(a, 'POST', '/match', organiser!.auth, {
        userId: organiser!.id,
        title: 'Racha',
        description: 'Society',
        maxPlayers: 2,
        MatchDate: new Date(Date.now() + 3600_000).toISOString(),
        location: 'Quadra 1',
      });
      expect(match.status).toBe(201);
      expect(
        (await callJson(a, 'POST', `/match/${match.body.id}/subscribe`, organiser!.auth)).status,
      ).toBe(201);
      expect(
        (await callJson(b, 'POST', `/match/${match.body.id}/subscribe`, reader!.auth)).status,
      ).toBe(201);
      expect(
        (await callJson(a, 'POST', `/match/${match.body.id}/waitlist`, waiting!.auth)).status,
      ).toBe(201);
      expect(
        (await callJson(b, 'DELETE', `/match/${match.body.id}/unsubscribe`, reader!.auth)).status,
      ).toBe(200);

      const [phone, other] = subscriptions.map((s) => s.endpoint) as [string, string];
      await push.waitFor((m) => m.endpoint === phone && m.payload.type === 'POST_COMMENT');
      await push.waitFor((m) => m.endpoint === other && m.payload.type === 'MATCH_SPOT_GRANTED');
      await push.waitFor((m) => m.endpoint === other && m.payload.type === 'MATCH_REMINDER');
      await waitFor(
        async () =>
          (await sql`select count(*)::int as n from push_outbox where sent_at is null`)[0]!.n === 0,
        20_000,
        'outbox drained',
      );
      const expected = await sql<{ id: string; endpoint: string }[]>`
        select n.id, s.endpoint from notifications n join push_subscriptions s on s.user_id = n.user_id`;
      expect(expected.length).toBe(3);
      for (const row of expected) {
        const copies = push.received.filter(
          (m) => m.endpoint === row.endpoint && m.payload.notificationId === row.id,
        );
        expect(copies, row.id).toHaveLength(1);
      }
      expect(push.received).toHaveLength(3);

      // No process runs the queue when a comment commits: the message waits in the outbox, and
      // the next process to start sends it.
      await killServers(servers);
      servers = await readyServers(1, {
        DATABASE_URL: database.url,
        PUSH_ENDPOINT_HOSTS: '127.0.0.1',
        JOBS: 'off',
      });
      const late = await callJson(
        servers[0]!,
        'POST',
        `/post/${post.body.id}/comment`,
        reader!.auth,
        {
          content: 'Atrasado',
        },
      );
      expect(late.status).toBe(201);
      expect(
        (await sql`select count(*)::int as n from push_outbox where sent_at is null`)[0]!.n,
      ).toBe(1);
      const [waited] = await sql<{ id: string }[]>`
        select notification_id as id from push_outbox where sent_at is null`;
      await killServers(servers);
      servers = await readyServers(1, {
        DATABASE_URL: database.url,
        PUSH_ENDPOINT_HOSTS: '127.0.0.1',
      });
      await push.waitFor(
        (m) => m.endpoint === phone && m.payload.notificationId === waited!.id,
        30_000,
      );
      expect(push.received).toHaveLength(4);
      expect(push.refused).toEqual([]);
    } finally {
      await killServers(servers);
      await push.stop();
      await sql.end();
      await database.drop();
    }
  }, 300_000);
});
