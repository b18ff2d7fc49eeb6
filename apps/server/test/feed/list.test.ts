import { posts } from '@campus/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp, type TestUser } from '../support/app';
import { createPost, generalBody } from '../support/feed';

/** GET /post: pages, order and the fields of an item, over REST and /trpc, on an app of its own so that counts are exact. */
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

  // 25 posts in pages of 10 (the default limit), newest first; past the end: no data, same totals.
  it.each([
    { what: 'defaults', query: '', page: 1, hasNextPage: true, hasPrevPage: false },
    { what: 'middle', query: '?page=2&limit=10', page: 2, hasNextPage: true, hasPrevPage: true },
    { what: 'last', query: '?page=3&limit=10', page: 3, hasNextPage: false, hasPrevPage: true },
    { what: 'past the end', query: '?page=4', page: 4, hasNextPage: false, hasPrevPage: true },
  ])('$what: page $page', async ({ query, page, hasNextPage, hasPrevPage }) => {
    const res = await list(query);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: expect.any(Array),
      meta: {
        page,
        limit: 10,
        totalCount: 25,
        totalPages: 3,
        hasNextPage,
        hasPrevPage,
        nextCursor: hasNextPage ? expect.any(String) : null,
      },
    });
    expect(titlesOf(res.body)).toEqual(titles.slice((page - 1) * 10, page * 10));
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
        'groupVerified',
        'createdAt',
        'updatedAt',
        'eventDate',
        'eventFinishDate',
        'location',
        'likesCount',
        'commentsCount',
        'attendancesCount',
        'likedByMe',
        'attendingByMe',
        'hidden',
        'media',
        'authorAvatarUrl',
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

  it('deep pages (ids chosen first) keep the order, the reader flags and what the reader may see', async () => {
    const other = await startTestApp();
    try {
      const [author, reader] = [await other.createUser(), await other.createUser()];
      const start = Date.parse('2030-01-01T00:00:00.000Z');
      const rows = await other.db
        .insert(posts)
        .values(
          Array.from({ length: 140 }, (_, i) => ({
            title: `Deep ${i}`,
            type: (i % 2 ? 'GENERAL' : 'EVENT') as 'GENERAL' | 'EVENT',
            author: author.nickname,
            authorId: author.id,
            createdAt: new Date(start + i * 1000),
            // Every 7th is hidden: the author sees it, the reader does not.
            hiddenAt: i % 7 === 0 ? new Date() : null,
          })),
        )
        .returning({ id: posts.id, title: posts.title });
      const numberOf = (title: string) => Number(title.slice(5));
      const newestFirst = [...rows].reverse();
      const seenBy = (who: 'author' | 'reader') =>
        newestFirst.filter((r) => who === 'author' || numberOf(r.title) % 7 !== 0);
      const liked = seenBy('reader')[115]!;
      await other.request.post(`/post/${liked.id}/like`).set(reader.auth).expect(201);

      for (const [who, user] of [
        ['author', author],
        ['reader', reader],
      ] as const) {
        const expected = seenBy(who).map((r) => r.title);
        const all: string[] = [];
        for (let page = 1; page <= 3; page++) {
          const res = await other.request.get(`/post?page=${page}&limit=50`).set(user.auth);
          expect(res.status).toBe(200);
          all.push(...titlesOf(res.body));
          expect(res.body.meta.totalCount).toBe(expected.length);
        }
        expect(all).toEqual(expected);
      }
      const deep = await other.request.get('/post?page=12&limit=10').set(reader.auth);
      const item = deep.body.data.find((p: { id: string }) => p.id === liked.id);
      expect(item).toMatchObject({ likedByMe: true, likesCount: 1 });
      // A filtered deep page takes the same path.
      const filtered = await other.request
        .get(`/post?authorId=${author.id}&page=12&limit=10`)
        .set(reader.auth);
      expect(titlesOf(filtered.body)).toEqual(
        seenBy('reader')
          .map((r) => r.title)
          .slice(110, 120),
      );
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
