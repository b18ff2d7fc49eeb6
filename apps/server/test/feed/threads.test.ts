import { postComments } from '@campus/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, onTestAppWithUsers, UNKNOWN_ID } from '../support/app';
import { createEvent, createPost } from '../support/feed';

/*
 * A post's threads (docs/contract/feed.md, Bounded reads): paged comments, likes and attendances,
 * comment edits, and the bounded read of GET /post/{id} (at most the 50 newest of each collection).
 */

const { t, users } = onTestAppWithUsers({}, {}, { perfil: 'ADMIN' });
const [author, reader, admin] = users;

const comment = (postId: string, content: string, as = reader) =>
  t.request.post(`/post/${postId}/comment`).set(as.auth).send({ content });

describe('GET /post/{id}/comment', () => {
  it('newest first, paged, with an exact total; 404 for an unknown post', async () => {
    const post = await createPost(t, author);
    for (const n of [1, 2, 3]) expect((await comment(post.id, `c${n}`)).status).toBe(201);
    const first = await t.request.get(`/post/${post.id}/comment?limit=2`).set(reader.auth);
    expect(first.status).toBe(200);
    expect(first.body.data.map((c: { content: string }) => c.content)).toEqual(['c3', 'c2']);
    expect(first.body.meta).toMatchObject({ totalCount: 3, totalPages: 2, hasNextPage: true });
    const second = await t.request.get(`/post/${post.id}/comment?limit=2&page=2`).set(reader.auth);
    expect(second.body.data.map((c: { content: string }) => c.content)).toEqual(['c1']);
    expectError(
      await t.request.get(`/post/${UNKNOWN_ID}/comment`).set(reader.auth),
      404,
      'NOT_FOUND',
    );
  });
});

describe('PATCH /comment/{id}', () => {
  it('its author edits it: 200 with updatedAt; the row changes', async () => {
    const post = await createPost(t, author);
    const created = await comment(post.id, 'Firts!');
    expect(created.body.updatedAt).toBeNull();
    const res = await t.request
      .patch(`/comment/${created.body.id}`)
      .set(reader.auth)
      .send({ content: '  First!  ' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.body.id, content: 'First!', hidden: false });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(
      Date.parse(created.body.createdAt),
    );
    const [row] = await t.db
      .select()
      .from(postComments)
      .where(eq(postComments.id, created.body.id));
    expect(row).toMatchObject({ content: 'First!' });
    const listed = await t.request.get(`/post/${post.id}/comment`).set(author.auth);
    expect(listed.body.data[0]).toMatchObject({ content: 'First!', updatedAt: res.body.updatedAt });
  });

  it('403 for anyone else (the post author and an ADMIN too), 404 unknown, 400 empty', async () => {
    const post = await createPost(t, author);
    const created = await comment(post.id, 'Mine');
    for (const other of [author, admin]) {
      const res = await t.request
        .patch(`/comment/${created.body.id}`)
        .set(other.auth)
        .send({ content: 'Not yours' });
      expectError(res, 403, 'FORBIDDEN');
    }
    const unknown = await t.request
      .patch(`/comment/${UNKNOWN_ID}`)
      .set(reader.auth)
      .send({ content: 'x' });
    expectError(unknown, 404, 'NOT_FOUND');
    const empty = await t.request
      .patch(`/comment/${created.body.id}`)
      .set(reader.auth)
      .send({ content: ' ' });
    expectError(empty, 400, 'BAD_REQUEST');
  });
});

describe('bounded reads', () => {
  it('GET /post/{id} embeds the 50 newest; the sub-lists page through all', async () => {
    const post = await createEvent(t, author);
    const crowd = await Promise.all(Array.from({ length: 55 }, () => t.createUser()));
    for (const u of crowd) {
      expect((await t.request.post(`/post/${post.id}/like`).set(u.auth)).status).toBe(201);
    }
    for (const u of crowd.slice(0, 3)) {
      expect((await t.request.post(`/post/${post.id}/attendance`).set(u.auth)).status).toBe(201);
    }
    for (let n = 0; n < 52; n++) expect((await comment(post.id, `n${n}`)).status).toBe(201);

    const read = await t.request.get(`/post/${post.id}`).set(reader.auth);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ likesCount: 55, commentsCount: 52, attendancesCount: 3 });
    expect(read.body.likes).toHaveLength(50);
    expect(read.body.comments).toHaveLength(50);
    expect(read.body.comments[0].content).toBe('n51');
    expect(read.body.likes[0].userId).toBe(crowd[54]!.id);
    expect(read.body.attendances).toHaveLength(3);

    const likes = await t.request.get(`/post/${post.id}/like?limit=50&page=2`).set(reader.auth);
    expect(likes.status).toBe(200);
    expect(likes.body.meta).toMatchObject({ totalCount: 55, totalPages: 2 });
    expect(likes.body.data.map((l: { userId: string }) => l.userId)).toEqual(
      crowd
        .slice(0, 5)
        .map((u) => u.id)
        .reverse(),
    );
    const attendances = await t.request.get(`/post/${post.id}/attendance`).set(reader.auth);
    expect(attendances.body.meta.totalCount).toBe(3);
    expect(attendances.body.data[0].userId).toBe(crowd[2]!.id);
  });
});
