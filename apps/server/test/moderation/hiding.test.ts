import { notifications, posts, rowCounts } from '@campus/core';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, onTestAppWithUsers, type TestUser } from '../support/app';
import { commentOn, createPost, generalBody } from '../support/feed';

/*
 * Reports and automatic hiding (docs/contract/feed.md, Moderation): at MODERATION_THRESHOLD (5)
 * distinct reporters a post or comment is hidden at once; only its author (hidden: true) and site
 * ADMINs still see it; lists, totals and counters leave it out for everyone else.
 */

const { t, users } = onTestAppWithUsers({}, {}, { perfil: 'ADMIN' });
const [author, reader, admin] = users;

const reporters = () => Promise.all(Array.from({ length: 5 }, () => t.createUser()));
const reportPost = (id: string, as: TestUser) =>
  t.request.post(`/post/${id}/report`).set(as.auth).send({ reason: 'Spam' });
const reportComment = (id: string, as: TestUser) =>
  t.request.post(`/comment/${id}/report`).set(as.auth).send({ reason: 'Ofensivo' });
const totalFor = async (as: TestUser, query = '') =>
  (await t.request.get(`/post${query}`).set(as.auth)).body.meta.totalCount as number;
const hiddenNotices = (userId: string) =>
  t.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, 'CONTENT_HIDDEN')));

describe('POST /comment/{id}/report', () => {
  it('201 once per user and comment, then 409; 404 for an unknown comment', async () => {
    const post = await createPost(t, author);
    const c = await commentOn(t, post.id, author, 'Oi');
    const first = await reportComment(c.body.id, reader);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.any(String),
      reason: 'Ofensivo',
      createdAt: expect.any(String),
    });
    expectError(await reportComment(c.body.id, reader), 409, 'CONFLICT');
    expectError(await reportComment(post.id, reader), 404, 'NOT_FOUND');
  });
});

describe('a post reported by 5 distinct users', () => {
  it('is hidden at the 5th: 404 and out of lists and totals for others; the author sees hidden: true', async () => {
    const writer = await t.createUser();
    const post = await createPost(t, writer, generalBody(writer, { title: 'Propaganda' }));
    const before = await totalFor(reader);
    const crowd = await reporters();
    for (const [i, u] of crowd.entries()) {
      expect((await reportPost(post.id, u)).status).toBe(201);
      const [row] = await t.db.select().from(posts).where(eq(posts.id, post.id));
      expect(row!.hiddenAt === null).toBe(i < 4);
    }
    expectError(await t.request.get(`/post/${post.id}`).set(reader.auth), 404, 'NOT_FOUND');
    expectError(await t.request.post(`/post/${post.id}/like`).set(reader.auth), 404, 'NOT_FOUND');
    expect(await totalFor(reader)).toBe(before - 1);
    expect(await totalFor(reader, `?authorId=${writer.id}`)).toBe(0);
    const own = await t.request.get(`/post/${post.id}`).set(writer.auth);
    expect(own.status).toBe(200);
    expect(own.body.hidden).toBe(true);
    const ownList = await t.request.get(`/post?authorId=${writer.id}`).set(writer.auth);
    expect(ownList.body.data).toMatchObject([{ id: post.id, hidden: true }]);
    expect(await totalFor(writer)).toBe(before);
    expect(await totalFor(admin)).toBe(before);
    const [rows] = await t.db.select().from(rowCounts).where(eq(rowCounts.tableName, 'posts'));
    expect(await totalFor(admin)).toBe(Number(rows!.rowCount));
    // The author is told, once, in the same transaction as the hide.
    const notices = await hiddenNotices(writer.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ data: { postId: post.id } });
    expect(notices[0]!.message).toContain('Propaganda');
  });
});

describe('a comment reported by 5 distinct users', () => {
  it('is hidden: out of the post read, the thread and commentsCount for others', async () => {
    const post = await createPost(t, author);
    const writer = await t.createUser();
    const bad = await commentOn(t, post.id, writer, 'Xingamento');
    await commentOn(t, post.id, reader, 'Ok');
    for (const u of await reporters())
      expect((await reportComment(bad.body.id, u)).status).toBe(201);

    const read = await t.request.get(`/post/${post.id}`).set(reader.auth);
    expect(read.body.commentsCount).toBe(1);
    expect(read.body.comments.map((c: { content: string }) => c.content)).toEqual(['Ok']);
    const thread = await t.request.get(`/post/${post.id}/comment`).set(reader.auth);
    expect(thread.body.meta.totalCount).toBe(1);
    const asWriter = await t.request.get(`/post/${post.id}/comment`).set(writer.auth);
    expect(asWriter.body.meta.totalCount).toBe(2);
    expect(asWriter.body.data).toContainEqual(
      expect.objectContaining({ id: bad.body.id, hidden: true }),
    );
    const asAdmin = await t.request.get(`/post/${post.id}`).set(admin.auth);
    expect(asAdmin.body.comments).toHaveLength(2);
    expectError(await reportComment(bad.body.id, reader), 404, 'NOT_FOUND');
    expect(await hiddenNotices(writer.id)).toMatchObject([
      { data: { postId: post.id, commentId: bad.body.id } },
    ]);
    // Deleting the hidden comment leaves the visible count alone.
    expect((await t.request.delete(`/comment/${bad.body.id}`).set(writer.auth)).status).toBe(204);
    const after = await t.request.get(`/post/${post.id}`).set(reader.auth);
    expect(after.body.commentsCount).toBe(1);
  });
});
