import { posts } from '@campus/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp, type TestUser } from '../support/app';
import { UNKNOWN_ID, createEvent, createPost, generalBody } from '../support/feed';

let t: TestApp;
let author: TestUser;
let reader: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  [author, reader, admin] = await Promise.all([
    t.createUser(),
    t.createUser(),
    t.createUser({ perfil: 'ADMIN' }),
  ]);
});
afterAll(() => t.close());

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
      comments: [
        {
          id: second.body.id,
          content: 'Thanks',
          createdAt: expect.any(String),
          author: { id: author.id, userName: author.nickname },
        },
        {
          id: first.body.id,
          content: 'First!',
          createdAt: expect.any(String),
          author: { id: reader.id, userName: reader.nickname },
        },
      ],
      likes: [
        {
          id: like.body.id,
          userId: reader.id,
          userName: reader.nickname,
          createdAt: like.body.createdAt,
        },
      ],
      reports: [{ id: report.body.id, reason: 'Spam', createdAt: report.body.createdAt }],
      attendances: [
        {
          id: attendance.body.id,
          userId: reader.id,
          userName: reader.nickname,
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

describe('GET /post (own app, so counts are exact)', () => {
  let app: TestApp;
  let user: TestUser;
  const titles: string[] = [];
  beforeAll(async () => {
    app = await startTestApp();
    user = await app.createUser();
    for (let i = 1; i <= 25; i++) {
      const post = await createPost(app, user, generalBody(user, { title: `Post ${i}` }));
      titles.unshift(post.title as string);
    }
  });
  afterAll(() => app.close());

  const list = (query: string) => app.request.get(`/post${query}`).set(user.auth);
  const titlesOf = (body: { data: { title: string }[] }) => body.data.map((p) => p.title);

  it('defaults to page 1, limit 10, newest first', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(titlesOf(res.body)).toEqual(titles.slice(0, 10));
    expect(res.body.meta).toEqual({
      page: 1,
      limit: 10,
      totalCount: 25,
      totalPages: 3,
      hasNextPage: true,
      hasPrevPage: false,
    });
  });

  it('middle page', async () => {
    const res = await list('?page=2&limit=10');
    expect(titlesOf(res.body)).toEqual(titles.slice(10, 20));
    expect(res.body.meta).toEqual({
      page: 2,
      limit: 10,
      totalCount: 25,
      totalPages: 3,
      hasNextPage: true,
      hasPrevPage: true,
    });
  });

  it('last page, partly filled', async () => {
    const res = await list('?page=3&limit=10');
    expect(titlesOf(res.body)).toEqual(titles.slice(20));
    expect(res.body.meta).toEqual({
      page: 3,
      limit: 10,
      totalCount: 25,
      totalPages: 3,
      hasNextPage: false,
      hasPrevPage: true,
    });
  });

  it('past the end: empty data, same totals', async () => {
    const res = await list('?page=4&limit=10');
    expect(res.body).toEqual({
      data: [],
      meta: {
        page: 4,
        limit: 10,
        totalCount: 25,
        totalPages: 3,
        hasNextPage: false,
        hasPrevPage: true,
      },
    });
  });

  it('limit 1 and limit 50 at the edges', async () => {
    const one = await list('?limit=1&page=25');
    expect(titlesOf(one.body)).toEqual([titles[24]]);
    expect(one.body.meta).toMatchObject({ totalPages: 25, hasNextPage: false, hasPrevPage: true });
    const fifty = await list('?limit=50');
    expect(titlesOf(fifty.body)).toEqual(titles);
    expect(fifty.body.meta).toMatchObject({
      totalPages: 1,
      hasNextPage: false,
      hasPrevPage: false,
    });
  });

  it('items carry the basic fields only', async () => {
    const res = await list('?limit=1');
    expect(Object.keys(res.body.data[0]).sort()).toEqual(
      [
        'id',
        'title',
        'content',
        'type',
        'author',
        'authorId',
        'group',
        'groupId',
        'createdAt',
        'updatedAt',
        'eventDate',
        'eventFinishDate',
        'location',
        'likesCount',
        'commentsCount',
        'attendancesCount',
      ].sort(),
    );
  });

  it('equal createdAt: id descending breaks the tie', async () => {
    const other = await startTestApp();
    try {
      const u = await other.createUser();
      const at = new Date('2030-01-01T00:00:00.000Z');
      const rows = await other.db
        .insert(posts)
        .values(
          [1, 2, 3].map((i) => ({
            title: `Tie ${i}`,
            type: 'GENERAL' as const,
            author: u.nickname,
            authorId: u.id,
            createdAt: at,
          })),
        )
        .returning({ id: posts.id });
      const res = await other.request.get('/post').set(u.auth);
      expect(res.body.data.map((p: { id: string }) => p.id)).toEqual(
        rows
          .map((r) => r.id)
          .sort()
          .reverse(),
      );
      expect(res.body.meta.totalCount).toBe(3);
    } finally {
      await other.close();
    }
  });

  it('answers at /post/ too', async () => {
    expect((await app.request.get('/post/?limit=2').set(user.auth)).body.data).toHaveLength(2);
  });

  it.each([
    'limit=51',
    'limit=0',
    'limit=-1',
    'limit=abc',
    'limit=1.5',
    'page=0',
    'page=-3',
    'page=x',
  ])('400 for %s', async (query) => {
    const res = expectError(await list(`?${query}`), 400, 'BAD_REQUEST');
    expect(res.issues).toEqual([expect.objectContaining({ path: query.split('=')[0] })]);
  });

  it('401 without a token', async () => {
    expectError(await app.request.get('/post'), 401, 'UNAUTHORIZED');
  });

  it('the same list over /trpc', async () => {
    const input = encodeURIComponent(JSON.stringify({ page: 2, limit: 5 }));
    const res = await app.request.get(`/trpc/feed.list?input=${input}`).set(user.auth);
    expect(res.status).toBe(200);
    expect(res.body.result.data.data.map((p: { title: string }) => p.title)).toEqual(
      titles.slice(5, 10),
    );
  });
});
