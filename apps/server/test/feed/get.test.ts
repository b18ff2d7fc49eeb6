import { describe, expect, it } from 'vitest';
import { expectError, type TestApp, type TestUser, onTestApp } from '../support/app';
import { UNKNOWN_ID, createEvent, createPost } from '../support/feed';

let t: TestApp;
let author: TestUser;
let reader: TestUser;
let admin: TestUser;
onTestApp(async (app) => {
  t = app;
  [author, reader, admin] = await t.createUsers({}, {}, { perfil: 'ADMIN' });
});

describe('GET /post/{id}', () => {
  it('200 with comments (newest first, with author), likes, reports and attendances', async () => {
    const post = await createEvent(t, author);
    const first = await t.request
      .post(`/post/${post.id}/comment`)
      .set(reader.auth)
      .send({ content: 'First!' });
    const second = await t.request
      .post(`/post/${post.id}/comment`)
      .set(author.auth)
      .send({ content: 'Thanks' });
    const like = await t.request.post(`/post/${post.id}/like`).set(reader.auth);
    const attendance = await t.request.post(`/post/${post.id}/attendance`).set(reader.auth);
    const report = await t.request
      .post(`/post/${post.id}/report`)
      .set(reader.auth)
      .send({ reason: 'Spam' });
    expect([first.status, second.status, like.status, attendance.status, report.status]).toEqual([
      201, 201, 201, 201, 201,
    ]);

    const res = await t.request.get(`/post/${post.id}`).set(reader.auth);
    expect(res.status).toBe(200);
    const { comments, likes, reports, attendances, ...basic } = post;
    expect(res.body).toEqual({
      ...basic,
      likesCount: 1,
      commentsCount: 2,
      attendancesCount: 1,
      likedByMe: true,
      attendingByMe: true,
      comments: [
        {
          id: second.body.id,
          content: 'Thanks',
          createdAt: expect.any(String),
          updatedAt: null,
          hidden: false,
          author: { id: author.id, userName: author.nickname, avatarUrl: null },
        },
        {
          id: first.body.id,
          content: 'First!',
          createdAt: expect.any(String),
          updatedAt: null,
          hidden: false,
          author: { id: reader.id, userName: reader.nickname, avatarUrl: null },
        },
      ],
      likes: [
        {
          id: like.body.id,
          userId: reader.id,
          userName: reader.nickname,
          avatarUrl: null,
          createdAt: like.body.createdAt,
        },
      ],
      reports: [{ id: report.body.id, reason: 'Spam', createdAt: report.body.createdAt }],
      attendances: [
        {
          id: attendance.body.id,
          userId: reader.id,
          userName: reader.nickname,
          avatarUrl: null,
          createdAt: attendance.body.createdAt,
        },
      ],
    });
    expect([comments, likes, reports, attendances]).toEqual([[], [], [], []]);
    expect(Date.parse(res.body.comments[0].createdAt)).toBeGreaterThanOrEqual(
      Date.parse(res.body.comments[1].createdAt),
    );
  });

  it("reports show the reporter's userId to an ADMIN only", async () => {
    const post = await createPost(t, author);
    await t.request
      .post(`/post/${post.id}/report`)
      .set(reader.auth)
      .send({ reason: 'Offensive' })
      .expect(201);
    const asAuthor = await t.request.get(`/post/${post.id}`).set(author.auth);
    expect(asAuthor.body.reports).toEqual([
      { id: expect.any(String), reason: 'Offensive', createdAt: expect.any(String) },
    ]);
    const asAdmin = await t.request.get(`/post/${post.id}`).set(admin.auth);
    expect(asAdmin.body.reports).toEqual([
      {
        id: expect.any(String),
        reason: 'Offensive',
        createdAt: expect.any(String),
        userId: reader.id,
      },
    ]);
  });

  it('answers with a trailing slash too', async () => {
    const post = await createPost(t, author);
    expect((await t.request.get(`/post/${post.id}/`).set(reader.auth)).body.id).toBe(post.id);
  });

  it('404 for an unknown id', async () => {
    const res = expectError(
      await t.request.get(`/post/${UNKNOWN_ID}`).set(reader.auth),
      404,
      'NOT_FOUND',
    );
    expect(res.message).toBe('Post not found');
  });

  it.each(['not-a-uuid', '123', '3f1b7f9e-0000-4000-8000-00000000000'])(
    '400 for the id %s',
    async (id) => {
      const res = expectError(
        await t.request.get(`/post/${id}`).set(reader.auth),
        400,
        'BAD_REQUEST',
      );
      expect(res.issues).toEqual([{ path: 'id', message: 'id must be a UUID' }]);
    },
  );

  it('401 without a token', async () => {
    expectError(await t.request.get(`/post/${UNKNOWN_ID}`), 401, 'UNAUTHORIZED');
  });
});
