import { notifications } from '@campus/core';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp, type TestUser } from '../support/app';
import { createPost } from '../support/feed';
import { createMatch } from '../support/matches';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const comment = (user: TestUser, postId: string, content = 'Bora!') =>
  t.request.post(`/post/${postId}/comment`).set(user.auth).send({ content });
const inbox = (user: TestUser, query = '') =>
  t.request.get(`/notifications${query}`).set(user.auth);
const unread = async (user: TestUser) => {
  const res = await t.request.get('/notifications/unread-count').set(user.auth);
  expect(res.status).toBe(200);
  return (res.body as { count: number }).count;
};

describe('POST_COMMENT', () => {
  it("tells the post's author, in Portuguese, with the post and comment ids", async () => {
    const author = await t.createUser();
    const other = await t.createUser();
    const post = await createPost(t, author);
    const res = await comment(other, post.id);
    expect(res.status).toBe(201);

    const list = await inbox(author);
    expect(list.status).toBe(200);
    expect(list.body.meta).toMatchObject({ page: 1, limit: 10, totalCount: 1 });
    expect(list.body.data).toEqual([
      {
        id: expect.any(String),
        type: 'POST_COMMENT',
        message: `${other.nickname} comentou na sua publicação “Study group tonight”`,
        data: { postId: post.id, commentId: res.body.id },
        read: false,
        createdAt: expect.any(String),
      },
    ]);
    expect(await unread(author)).toBe(1);
    expect((await inbox(other)).body.data).toEqual([]);
  });

  it('is not sent for a comment on your own post', async () => {
    const author = await t.createUser();
    const post = await createPost(t, author);
    expect((await comment(author, post.id)).status).toBe(201);
    expect(await unread(author)).toBe(0);
  });

  it('a comment that rolls back never notifies; one that commits always does', async () => {
    const author = await t.createUser();
    const other = await t.createUser();
    const post = await createPost(t, author);
    // Fails the comment's transaction at COMMIT, after the notification was written in it.
    await t.db.execute(sql`
      create or replace function fail_marked_comment() returns trigger language plpgsql as $$
      begin
        if new.content = 'rollback-me' then raise exception 'comment refused at commit'; end if;
        return new;
      end $$`);
    const announced: unknown[] = [];
    const stop = await t.bus.subscribe('notification', author.id, {
      onEvent: (event) => announced.push(event),
      onResync: () => {},
    });
    await t.db.execute(sql`
      create constraint trigger fail_marked_comment after insert on post_comments
      deferrable initially deferred for each row execute function fail_marked_comment()`);
    try {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          comment(other, post.id, i % 2 ? 'rollback-me' : `ok ${i}`),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([
        ...Array(5).fill(201),
        ...Array(5).fill(500),
      ]);
    } finally {
      await t.db.execute(sql`drop trigger fail_marked_comment on post_comments`);
    }
    const rows = await t.db.select().from(notifications).where(eq(notifications.userId, author.id));
    expect(rows).toHaveLength(5);
    // The bus announced the five that committed, and nothing of the five that rolled back.
    await new Promise((resolve) => setTimeout(resolve, 300));
    stop();
    expect(announced).toHaveLength(5);
    const committed = await t.request.get(`/post/${post.id}`).set(author.auth);
    expect(committed.body.commentsCount).toBe(5);
    expect(rows.map((r) => r.data.commentId).sort()).toEqual(
      (committed.body.comments as Array<{ id: string }>).map((c) => c.id).sort(),
    );
  });
});

describe('the inbox endpoints', () => {
  it('lists newest first, pages, filters unread; marks one read; someone else’s is 404', async () => {
    const author = await t.createUser();
    const other = await t.createUser();
    const post = await createPost(t, author);
    for (const text of ['um', 'dois', 'três'])
      expect((await comment(other, post.id, text)).status).toBe(201);

    const all = await inbox(author, '?limit=2');
    expect(all.body.meta).toMatchObject({ totalCount: 3, totalPages: 2, hasNextPage: true });
    const page2 = await inbox(author, '?limit=2&page=2');
    const ids = [...all.body.data, ...page2.body.data].map((n: { id: string }) => n.id);
    expect(new Set(ids).size).toBe(3);
    const createdAt = [...all.body.data, ...page2.body.data].map(
      (n: { createdAt: string }) => n.createdAt,
    );
    expect([...createdAt].sort().reverse()).toEqual(createdAt);

    const newest = all.body.data[0].id as string;
    const read = await t.request.patch(`/notifications/${newest}/read`).set(author.auth);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: newest, read: true });
    expect((await t.request.patch(`/notifications/${newest}/read`).set(author.auth)).status).toBe(
      200,
    );
    expect(await unread(author)).toBe(2);

    const onlyUnread = await inbox(author, '?unread=true');
    expect(onlyUnread.body.meta.totalCount).toBe(2);
    expect(onlyUnread.body.data.map((n: { id: string }) => n.id)).not.toContain(newest);

    expectError(
      await t.request.patch(`/notifications/${newest}/read`).set(other.auth),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.request
        .patch('/notifications/3f1b7f9e-0000-4000-8000-000000000000/read')
        .set(author.auth),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.request.patch('/notifications/nope/read').set(author.auth),
      400,
      'BAD_REQUEST',
    );
    expectError(await inbox(author, '?unread=maybe'), 400, 'BAD_REQUEST');
    expectError(await inbox(author, '?limit=51'), 400, 'BAD_REQUEST');
    expectError(await t.request.get('/notifications'), 401, 'UNAUTHORIZED');

    const all2 = await t.request.post('/notifications/read-all').set(author.auth);
    expect(all2.status).toBe(200);
    expect(all2.body).toEqual({ updated: 2 });
    expect(await unread(author)).toBe(0);
    expect((await t.request.post('/notifications/read-all').set(author.auth)).body).toEqual({
      updated: 0,
    });
  });
});

describe('MATCH_CANCELLED', () => {
  it('tells every player but the one who cancelled, once', async () => {
    const organiser = await t.createUser();
    const players = [await t.createUser(), await t.createUser(), await t.createUser()];
    const match = await createMatch(t, organiser);
    for (const user of [organiser, ...players]) {
      expect((await t.request.post(`/match/${match.id}/subscribe`).set(user.auth)).status).toBe(
        201,
      );
    }
    const cancel = () =>
      t.request.patch(`/match/${match.id}`).set(organiser.auth).send({ MatchStatus: 'CANCELADA' });
    expect((await cancel()).status).toBe(200);
    expect((await cancel()).status).toBe(200); // already cancelled: a no-op, nobody told twice
    for (const user of players) {
      const list = await inbox(user);
      expect(list.body.data).toEqual([
        expect.objectContaining({
          type: 'MATCH_CANCELLED',
          message: 'A partida “Pelada de quinta” foi cancelada',
          data: { matchId: match.id },
        }),
      ]);
    }
    expect(await unread(organiser)).toBe(0);
  });
});
