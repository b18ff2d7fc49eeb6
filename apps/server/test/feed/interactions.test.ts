import { postComments, postReports } from '@campus/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, type TestApp, type TestUser, onTestApp } from '../support/app';
import { UNKNOWN_ID, createEvent, createPost, expectCountersMatchRows } from '../support/feed';

let t: TestApp;
let author: TestUser;
let commenter: TestUser;
let other: TestUser;
let admin: TestUser;
onTestApp(async (app) => {
  t = app;
  [author, commenter, other, admin] = await t.createUsers({}, {}, {}, { perfil: 'ADMIN' });
});

/** `content` as given; `{}` as the body when it is undefined (no default: "missing" is a case). */
const comment = (postId: string, user: TestUser, content: unknown) =>
  t.request
    .post(`/post/${postId}/comment`)
    .set(user.auth)
    .send(content === undefined ? {} : { content });

describe('POST /post/{id}/comment', () => {
  it('201 with the comment; the row is stored and commentsCount moves', async () => {
    const post = await createPost(t, author);
    const res = await comment(post.id, commenter, '  Count me in  ');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      content: 'Count me in',
      createdAt: expect.any(String),
      updatedAt: null,
      hidden: false,
      author: { id: commenter.id, userName: commenter.nickname, avatarUrl: null },
    });
    const [row] = await t.db.select().from(postComments).where(eq(postComments.id, res.body.id));
    expect(row).toMatchObject({ postId: post.id, authorId: commenter.id, content: 'Count me in' });
    expect((await expectCountersMatchRows(t, post.id)).comments).toBe(1);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['only spaces', '   '],
    ['over 2000', 'c'.repeat(2001)],
    ['not a string', 5],
  ])('400 when content is %s; nothing written', async (_case, content) => {
    const post = await createPost(t, author);
    const res = expectError(await comment(post.id, commenter, content), 400, 'BAD_REQUEST');
    expect(res.issues).toEqual([expect.objectContaining({ path: 'content' })]);
    expect((await expectCountersMatchRows(t, post.id)).comments).toBe(0);
  });

  it('2000 characters is fine', async () => {
    const post = await createPost(t, author);
    expect((await comment(post.id, commenter, 'c'.repeat(2000))).status).toBe(201);
  });

  it('404 for an unknown post, 400 for a non-UUID id, 401 without a token', async () => {
    expect(expectError(await comment(UNKNOWN_ID, commenter, 'x'), 404, 'NOT_FOUND').message).toBe(
      'Post not found',
    );
    expectError(await comment('nope', commenter, 'x'), 400, 'BAD_REQUEST');
    expectError(
      await t.request.post(`/post/${UNKNOWN_ID}/comment`).send({ content: 'x' }),
      401,
      'UNAUTHORIZED',
    );
  });
});

describe('DELETE /comment/{id}', () => {
  const removeComment = (id: string, user: TestUser) =>
    t.request.delete(`/comment/${id}`).set(user.auth);
  const commentRow = async (id: string) =>
    (await t.db.select().from(postComments).where(eq(postComments.id, id)))[0];

  async function commentedPost() {
    const post = await createPost(t, author);
    const res = await comment(post.id, commenter, 'Count me in');
    expect(res.status).toBe(201);
    return { postId: post.id, commentId: res.body.id as string };
  }

  it.each([
    ['the comment author', () => commenter],
    ['the post author', () => author],
    ['an ADMIN', () => admin],
  ])('%s: 204, the row is gone, commentsCount back to 0', async (_who, who) => {
    const { postId, commentId } = await commentedPost();
    const res = await removeComment(commentId, who());
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await commentRow(commentId)).toBeUndefined();
    expect((await expectCountersMatchRows(t, postId)).comments).toBe(0);
  });

  it('another user: 403, the comment stays', async () => {
    const { postId, commentId } = await commentedPost();
    expect(expectError(await removeComment(commentId, other), 403, 'FORBIDDEN').reason).toBe(
      'NOT_OWNER',
    );
    expect(await commentRow(commentId)).toBeDefined();
    expect((await expectCountersMatchRows(t, postId)).comments).toBe(1);
  });

  it('404 for an unknown comment and for one already deleted', async () => {
    const { postId, commentId } = await commentedPost();
    expectError(await removeComment(UNKNOWN_ID, admin), 404, 'NOT_FOUND');
    await removeComment(commentId, commenter).expect(204);
    expect(expectError(await removeComment(commentId, commenter), 404, 'NOT_FOUND').message).toBe(
      'Comment not found',
    );
    expect((await expectCountersMatchRows(t, postId)).comments).toBe(0);
  });

  it('400 for a non-UUID id, 401 without a token, /comment/{id}/ works', async () => {
    expectError(await removeComment('1', admin), 400, 'BAD_REQUEST');
    expectError(await t.request.delete(`/comment/${UNKNOWN_ID}`), 401, 'UNAUTHORIZED');
    const { commentId } = await commentedPost();
    expect((await t.request.delete(`/comment/${commentId}/`).set(commenter.auth)).status).toBe(204);
  });
});

describe.each([
  ['like', createPost, 'likes'],
  ['attendance', createEvent, 'attendances'],
] as const)('POST and DELETE /post/{id}/%s', (path, create, counter) => {
  const add = (id: string, user: TestUser) => t.request.post(`/post/${id}/${path}`).set(user.auth);
  const remove = (id: string, user: TestUser) =>
    t.request.delete(`/post/${id}/${path}`).set(user.auth);

  it(`POST 201 with the record (no body needed); the ${counter} count is 1`, async () => {
    const post = await create(t, author);
    const res = await add(post.id, other);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      userId: other.id,
      userName: other.nickname,
      avatarUrl: null,
      createdAt: expect.any(String),
    });
    expect(await expectCountersMatchRows(t, post.id)).toMatchObject({ [counter]: 1 });
  });

  it('404 for an unknown post, 400 for a non-UUID id, 401 without a token', async () => {
    expectError(await add(UNKNOWN_ID, other), 404, 'NOT_FOUND');
    expectError(await remove(UNKNOWN_ID, other), 404, 'NOT_FOUND');
    expectError(await add('x', other), 400, 'BAD_REQUEST');
    expectError(await remove('x', other), 400, 'BAD_REQUEST');
    expectError(await t.request.post(`/post/${UNKNOWN_ID}/${path}`), 401, 'UNAUTHORIZED');
    expectError(await t.request.delete(`/post/${UNKNOWN_ID}/${path}`), 401, 'UNAUTHORIZED');
  });
});

describe('likes', () => {
  const like = (id: string, user: TestUser) => t.request.post(`/post/${id}/like`).set(user.auth);
  const unlike = (id: string, user: TestUser) =>
    t.request.delete(`/post/${id}/like`).set(user.auth);

  it('POST twice: 409 ALREADY_LIKED, still one like', async () => {
    const post = await createPost(t, author);
    await like(post.id, other).expect(201);
    expect(expectError(await like(post.id, other), 409, 'CONFLICT').reason).toBe('ALREADY_LIKED');
    expect(await expectCountersMatchRows(t, post.id)).toMatchObject({ likes: 1 });
  });

  it('DELETE 204; then 404 NOT_LIKED; likesCount back to 0; liking again works', async () => {
    const post = await createPost(t, author);
    await like(post.id, other).expect(201);
    const res = await unlike(post.id, other);
    expect(res.status).toBe(204);
    expect(await expectCountersMatchRows(t, post.id)).toMatchObject({ likes: 0 });
    expect(expectError(await unlike(post.id, other), 404, 'NOT_FOUND').reason).toBe('NOT_LIKED');
    await like(post.id, other).expect(201);
    expect(await expectCountersMatchRows(t, post.id)).toMatchObject({ likes: 1 });
  });
});

describe('attendances', () => {
  const attend = (id: string, user: TestUser) =>
    t.request.post(`/post/${id}/attendance`).set(user.auth);
  const unattend = (id: string, user: TestUser) =>
    t.request.delete(`/post/${id}/attendance`).set(user.auth);

  it('POST on a GENERAL post: 400 NOT_AN_EVENT, nothing written', async () => {
    const post = await createPost(t, author);
    expect(expectError(await attend(post.id, other), 400, 'BAD_REQUEST').reason).toBe(
      'NOT_AN_EVENT',
    );
    expect(await expectCountersMatchRows(t, post.id)).toMatchObject({ attendances: 0 });
  });

  it('POST twice: 409 ALREADY_ATTENDING', async () => {
    const post = await createEvent(t, author);
    await attend(post.id, other).expect(201);
    expect(expectError(await attend(post.id, other), 409, 'CONFLICT').reason).toBe(
      'ALREADY_ATTENDING',
    );
    expect(await expectCountersMatchRows(t, post.id)).toMatchObject({ attendances: 1 });
  });

  it('DELETE 204; then 404 NOT_ATTENDING', async () => {
    const post = await createEvent(t, author);
    await attend(post.id, other).expect(201);
    expect((await unattend(post.id, other)).status).toBe(204);
    expect(await expectCountersMatchRows(t, post.id)).toMatchObject({ attendances: 0 });
    expect(expectError(await unattend(post.id, other), 404, 'NOT_FOUND').reason).toBe(
      'NOT_ATTENDING',
    );
  });
});

describe('POST /post/{id}/report', () => {
  const report = (id: string, user: TestUser, reason: unknown) =>
    t.request
      .post(`/post/${id}/report`)
      .set(user.auth)
      .send(reason === undefined ? {} : { reason });

  it('201 with {id, reason, createdAt}: no reporter id for a non-admin; the row is stored', async () => {
    const post = await createPost(t, author);
    const res = await report(post.id, other, ' Spam ');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      reason: 'Spam',
      createdAt: expect.any(String),
    });
    const [row] = await t.db.select().from(postReports).where(eq(postReports.id, res.body.id));
    expect(row).toMatchObject({ postId: post.id, userId: other.id, reason: 'Spam' });
  });

  it('an ADMIN reporter sees its userId', async () => {
    const post = await createPost(t, author);
    expect((await report(post.id, admin, 'Spam')).body.userId).toBe(admin.id);
  });

  it('twice: 409 ALREADY_REPORTED, one row', async () => {
    const post = await createPost(t, author);
    await report(post.id, other, 'Spam').expect(201);
    expect(expectError(await report(post.id, other, 'Again'), 409, 'CONFLICT').reason).toBe(
      'ALREADY_REPORTED',
    );
    expect(
      (await t.db.select().from(postReports).where(eq(postReports.postId, post.id))).length,
    ).toBe(1);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['over 500', 'r'.repeat(501)],
  ])('400 when reason is %s', async (_case, reason) => {
    const post = await createPost(t, author);
    expect(expectError(await report(post.id, other, reason), 400, 'BAD_REQUEST').issues).toEqual([
      expect.objectContaining({ path: 'reason' }),
    ]);
  });

  it('404 for an unknown post, 400 for a non-UUID id, 401 without a token', async () => {
    expectError(await report(UNKNOWN_ID, other, 'Spam'), 404, 'NOT_FOUND');
    expectError(await report('x', other, 'Spam'), 400, 'BAD_REQUEST');
    expectError(
      await t.request.post(`/post/${UNKNOWN_ID}/report`).send({ reason: 'x' }),
      401,
      'UNAUTHORIZED',
    );
  });
});
