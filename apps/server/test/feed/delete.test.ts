import { describe, expect, it } from 'vitest';
import { expectError, type TestUser, onTestAppWithUsers } from '../support/app';
import {
  UNKNOWN_ID,
  postRow,
  createEvent,
  createPost,
  postState,
  postTotals,
} from '../support/feed';

/** DELETE /post/{id}: who may, and that everything hanging from the post goes with it. */
const {
  t,
  users: [author, other, admin],
} = onTestAppWithUsers({}, {}, { perfil: 'ADMIN' });

describe('DELETE /post/{id}', () => {
  const remove = (id: string, user: TestUser) => t.request.delete(`/post/${id}`).set(user.auth);

  it('another user: 403, the post stays', async () => {
    const post = await createPost(t, author);
    expect(expectError(await remove(post.id, other), 403, 'FORBIDDEN').reason).toBe('NOT_OWNER');
    expect(await postRow(t, post.id)).toBeDefined();
  });

  it('the author: 204 with no body; the row is gone; then 404', async () => {
    const post = await createPost(t, author);
    const res = await remove(post.id, author);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await postRow(t, post.id)).toBeUndefined();
    expectError(await remove(post.id, author), 404, 'NOT_FOUND');
    expectError(await t.request.get(`/post/${post.id}`).set(author.auth), 404, 'NOT_FOUND');
  });

  it('an ADMIN: 204', async () => {
    const post = await createPost(t, author);
    expect((await remove(post.id, admin)).status).toBe(204);
    expect(await postRow(t, post.id)).toBeUndefined();
  });

  it('removes its comments, likes, attendances and reports, and counts one post less', async () => {
    const post = await createEvent(t, author);
    for (const user of [author, other, admin]) {
      await t.request
        .post(`/post/${post.id}/comment`)
        .set(user.auth)
        .send({ content: 'hi' })
        .expect(201);
      await t.request.post(`/post/${post.id}/like`).set(user.auth).expect(201);
      await t.request.post(`/post/${post.id}/attendance`).set(user.auth).expect(201);
      await t.request
        .post(`/post/${post.id}/report`)
        .set(user.auth)
        .send({ reason: 'r' })
        .expect(201);
    }
    expect(await postState(t, post.id)).toMatchObject({
      comments: 3,
      likes: 3,
      attendances: 3,
      reports: 3,
    });
    const before = await postTotals(t);
    await remove(post.id, author).expect(204);
    expect(await postState(t, post.id)).toEqual({
      post: undefined,
      comments: 0,
      likes: 0,
      attendances: 0,
      reports: 0,
    });
    expect(await postTotals(t)).toEqual({ kept: before.kept - 1, real: before.real - 1 });
  });

  it('400 for a non-UUID id, 401 without a token, /post/{id}/ works', async () => {
    expectError(await remove('123', author), 400, 'BAD_REQUEST');
    expectError(await t.request.delete(`/post/${UNKNOWN_ID}`), 401, 'UNAUTHORIZED');
    const post = await createPost(t, author);
    expect((await t.request.delete(`/post/${post.id}/`).set(author.auth)).status).toBe(204);
  });
});
