import type { AppRouter } from '@campus/api';
import { signAccessToken } from '@campus/core';
import { createTRPCClient, httpSubscriptionLink } from '@trpc/client';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testAuthConfig, type TestApp, type TestUser } from '../support/app';
import { createPost } from '../support/feed';
import { createMatch } from '../support/matches';
import { openStream } from '../support/sse';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ maxStreamsPerUser: 3, streamHeartbeatMs: 200 });
});
afterAll(() => t.close());

const comment = (user: TestUser, postId: string, content = 'Bora!') =>
  t.request.post(`/post/${postId}/comment`).set(user.auth).send({ content });
const stream = (path: string, user: TestUser, headers: Record<string, string> = {}) =>
  openStream(`${t.baseUrl}${path}`, { ...user.auth, ...headers });

describe('GET /notifications/stream', () => {
  it('sends the unread count, then each new notification with its id, then count changes', async () => {
    const author = await t.createUser();
    const other = await t.createUser();
    const post = await createPost(t, author);
    const s = await stream('/notifications/stream', author);
    try {
      expect(s.response.status).toBe(200);
      expect(s.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect((await s.next(1))[0]!.data).toEqual({ kind: 'unread', unreadCount: 0 });
      const made = await comment(other, post.id);
      const [, second] = await s.next(2);
      expect(second!.id).toMatch(/^\d+$/);
      expect(second!.data).toMatchObject({
        kind: 'notification',
        unreadCount: 1,
        notification: { type: 'POST_COMMENT', data: { commentId: made.body.id }, read: false },
      });
      await t.request.post('/notifications/read-all').set(author.auth);
      expect((await s.next(3))[2]!.data).toEqual({ kind: 'unread', unreadCount: 0 });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(s.comments()).toBeGreaterThan(0); // heartbeats every 200 ms here
    } finally {
      await s.close();
    }
  });

  it('reconnected with Last-Event-ID, replays what it missed from the inbox, in order', async () => {
    const author = await t.createUser();
    const other = await t.createUser();
    const post = await createPost(t, author);
    const first = await stream('/notifications/stream', author);
    await first.next(1);
    await comment(other, post.id, 'antes');
    const [, seen] = await first.next(2);
    await first.close();
    for (const text of ['um', 'dois', 'três']) await comment(other, post.id, text);

    const again = await stream('/notifications/stream', author, { 'Last-Event-ID': seen!.id! });
    try {
      const events = await again.next(4);
      expect(events.slice(0, 3).map((e) => (e.data as { kind: string }).kind)).toEqual(
        Array(3).fill('notification'),
      );
      const ids = events.slice(0, 3).map((e) => Number(e.id));
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      expect(ids.every((id) => id > Number(seen!.id))).toBe(true);
      expect(events[3]!.data).toEqual({ kind: 'unread', unreadCount: 4 });
    } finally {
      await again.close();
    }
    const bad = await fetch(`${t.baseUrl}/notifications/stream`, {
      headers: { ...author.auth, 'Last-Event-ID': 'x' },
    });
    expect(bad.status).toBe(400);
  });

  it('needs a token in the Authorization header; ends when the token expires', async () => {
    const user = await t.createUser();
    expect((await fetch(`${t.baseUrl}/notifications/stream`)).status).toBe(401);
    // Two seconds: `exp` counts whole seconds, so a one-second token signed late in a second
    // could expire before the stream opened (a 401 on a loaded machine).
    const short = signAccessToken(
      { ...testAuthConfig, accessTokenTtl: 2 },
      {
        id: user.id,
        perfil: 'ALUNO',
        nickname: user.nickname,
      },
    );
    const s = await openStream(`${t.baseUrl}/notifications/stream`, {
      Authorization: `Bearer ${short}`,
    });
    expect(s.response.status).toBe(200);
    await s.done; // a stream the expiry did not end would hold the test to its timeout
    expect(s.ended()).toBe(true);
  });

  it('refuses a stream past the per-user limit (429) and frees the slot when one closes', async () => {
    const user = await t.createUser();
    const open = [];
    for (let i = 0; i < 3; i++) open.push(await stream('/notifications/stream', user));
    const refused = await fetch(`${t.baseUrl}/notifications/stream`, { headers: user.auth });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { reason: string }).reason).toBe('TOO_MANY_STREAMS');
    await open.pop()!.close();
    // The server frees the slot when it sees the connection close (a moment on a loaded machine).
    const closed = Date.now();
    let again = await stream('/notifications/stream', user);
    while (again.response.status === 429 && Date.now() - closed < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await stream('/notifications/stream', user);
    }
    expect(again.response.status).toBe(200);
    await Promise.all([...open, again].map((s) => s.close()));
    // The bus holds no subscription for streams that are gone.
    const ended = Date.now();
    while (t.bus.size('notification') > 0 && Date.now() - ended < 10_000)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(t.bus.size('notification')).toBe(0);
    expect(t.bus.size('account')).toBe(0);
  });
});

describe('GET /streams/feed', () => {
  it('is ready, then names each post as it is published, and nothing else', async () => {
    const author = await t.createUser();
    const reader = await t.createUser();
    const s = await stream('/streams/feed', reader);
    try {
      expect(s.response.status).toBe(200);
      expect((await s.next(1))[0]!.data).toEqual({ kind: 'ready' });
      const first = await createPost(t, author);
      // A like or a comment is no new post: the next event is the second post.
      await t.request.post(`/post/${first.id}/like`).set(reader.auth).expect(201);
      const second = await createPost(t, author);
      const [, one, two] = await s.next(3);
      expect(one!.data).toEqual({ kind: 'post', postId: first.id, authorId: author.id });
      expect(two!.data).toEqual({ kind: 'post', postId: second.id, authorId: author.id });
      // A post refused (a title too short) is never announced.
      await t.request
        .post('/post')
        .set(author.auth)
        .send({ title: '', type: 'GENERAL', author: author.nickname, authorId: author.id })
        .expect(400);
      const third = await createPost(t, author);
      expect((await s.next(4))[3]!.data).toMatchObject({ postId: third.id });
    } finally {
      await s.close();
    }
    const anonymous = await fetch(`${t.baseUrl}/streams/feed`);
    expect(anonymous.status).toBe(401);
  });
});

describe('GET /match/:id/stream and GET /post/:id/stream', () => {
  it('a match stream starts with the current state and follows spots, teams and deletion', async () => {
    const organiser = await t.createUser();
    const player = await t.createUser();
    const match = await createMatch(t, organiser, { maxPlayers: 4 });
    const s = await stream(`/match/${match.id}/stream`, player);
    expect((await s.next(1))[0]!.data).toMatchObject({
      kind: 'match',
      match: { id: match.id, spots: { totalMax: 4, totalFilled: 0 } },
    });
    await t.request.post(`/match/${match.id}/subscribe`).set(player.auth);
    expect((await s.next(2))[1]!.data).toMatchObject({
      match: { spots: { totalFilled: 1 }, teamA: { filled: 1 } },
    });
    await t.request.post(`/match/${match.id}/switch`).set(player.auth);
    expect((await s.next(3))[2]!.data).toMatchObject({ match: { teamB: { filled: 1 } } });
    await t.request.delete(`/match/${match.id}`).set(organiser.auth);
    expect((await s.next(4))[3]!.data).toEqual({ kind: 'deleted' });
    await s.done;
    expect(s.ended()).toBe(true);

    const missing = await fetch(`${t.baseUrl}/match/${match.id}/stream`, { headers: player.auth });
    expect(missing.status).toBe(404);
  });

  it('a post stream follows the counters and carries each new comment', async () => {
    const author = await t.createUser();
    const other = await t.createUser();
    const post = await createPost(t, author);
    const s = await stream(`/post/${post.id}/stream`, other);
    try {
      expect((await s.next(1))[0]!.data).toEqual({
        kind: 'post',
        counters: { likesCount: 0, commentsCount: 0, attendancesCount: 0 },
      });
      await t.request.post(`/post/${post.id}/like`).set(other.auth);
      expect((await s.next(2))[1]!.data).toMatchObject({ counters: { likesCount: 1 } });
      const made = await comment(other, post.id, 'Que legal');
      expect((await s.next(3))[2]!.data).toEqual({
        kind: 'post',
        counters: { likesCount: 1, commentsCount: 1, attendancesCount: 0 },
        comment: {
          id: made.body.id,
          content: 'Que legal',
          createdAt: made.body.createdAt,
          updatedAt: null,
          hidden: false,
          author: { id: other.id, userName: other.nickname, avatarUrl: null },
        },
      });
    } finally {
      await s.close();
    }
  });
});

describe('tRPC subscriptions over SSE', () => {
  it('streams.match answers the same events at /trpc, authenticated by header', async () => {
    const organiser = await t.createUser();
    const match = await createMatch(t, organiser);
    const input = encodeURIComponent(JSON.stringify({ id: match.id }));
    const s = await openStream(`${t.baseUrl}/trpc/streams.match?input=${input}`, organiser.auth);
    try {
      expect(s.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const first = (await s.next(2)).find((e) => (e.data as { kind?: string }).kind === 'match');
      expect(first?.data).toMatchObject({ kind: 'match', match: { id: match.id } });
    } finally {
      await s.close();
    }
  });

  it('over /trpc, a refused subscription is an error event, then the stream ends', async () => {
    const user = await t.createUser();
    const input = encodeURIComponent(JSON.stringify({ id: 'nope' }));
    const s = await openStream(`${t.baseUrl}/trpc/streams.match?input=${input}`, user.auth);
    await s.done;
    expect(s.events.find((e) => e.event === 'serialized-error')?.data).toMatchObject({
      data: { httpStatus: 400 },
    });
  });

  it('a @trpc/client with httpSubscriptionLink and a header-sending EventSource gets tracked notifications', async () => {
    const author = await t.createUser();
    const other = await t.createUser();
    const post = await createPost(t, author);
    const client = createTRPCClient<AppRouter>({
      links: [
        httpSubscriptionLink({
          url: `${t.baseUrl}/trpc`,
          EventSource,
          // The token travels in a header, never in the URL (no connectionParams).
          eventSourceOptions: () => ({
            fetch: (input, init) =>
              fetch(input, { ...init, headers: { ...init?.headers, ...author.auth } }),
          }),
        }),
      ],
    });
    const received: unknown[] = [];
    const sub = client.streams.notifications.subscribe(undefined, {
      onData: (data) => received.push(data),
    });
    try {
      await waitUntil(() => received.length >= 1);
      await comment(other, post.id, 'via tRPC');
      await waitUntil(() => received.length >= 2);
      expect(received[1]).toMatchObject({
        id: expect.stringMatching(/^\d+$/),
        data: { kind: 'notification', notification: { type: 'POST_COMMENT' } },
      });
    } finally {
      sub.unsubscribe();
    }
  });
});

async function waitUntil(check: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
