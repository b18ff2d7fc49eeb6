import { posts } from '@campus/core';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, type TestApp, type TestUser, onTestApp, postRaw } from '../support/app';
import { UNKNOWN_ID, createPost, eventBody, generalBody } from '../support/feed';

let t: TestApp;
let user: TestUser;
let admin: TestUser;
onTestApp(async (app) => {
  t = app;
  [user, admin] = await Promise.all([t.createUser(), t.createUser({ perfil: 'ADMIN' })]);
});

const postCount = async () =>
  (await t.db.select({ n: sql<number>`count(*)::int` }).from(posts))[0]!.n;

describe('POST /post', () => {
  it('201 with the created GENERAL post, empty arrays and zero counters; the row is stored', async () => {
    const res = await t.request
      .post('/post')
      .set(user.auth)
      .send(generalBody(user, { group: 'Math club' }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: 'Study group tonight',
      content: 'Linear algebra, room 12',
      type: 'GENERAL',
      author: user.nickname,
      authorId: user.id,
      // Without a groupId the free-text group is not stored (docs/contract/groups.md; groups
      // tests).
      group: null,
      groupId: null,
      groupVerified: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      eventDate: null,
      eventFinishDate: null,
      location: null,
      likesCount: 0,
      commentsCount: 0,
      attendancesCount: 0,
      likedByMe: false,
      attendingByMe: false,
      hidden: false,
      comments: [],
      likes: [],
      reports: [],
      attendances: [],
      media: [],
      authorAvatarUrl: null,
    });
    const [row] = await t.db.select().from(posts).where(eq(posts.id, res.body.id));
    expect(row).toMatchObject({
      title: 'Study group tonight',
      authorId: user.id,
      author: user.nickname,
      type: 'GENERAL',
    });
  });

  it('201 for an EVENT with its fields; eventFinishDate optional', async () => {
    const res = await t.request.post('/post').set(user.auth).send(eventBody(user));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: 'EVENT',
      eventDate: '2031-05-10T18:00:00.000Z',
      eventFinishDate: '2031-05-10T20:00:00.000Z',
      location: 'Main stadium',
    });
    const open = await createPost(t, user, eventBody(user, { eventFinishDate: undefined }));
    expect(open.eventFinishDate).toBeNull();
  });

  it('accepts a date-time with an offset and answers it in UTC', async () => {
    const body = await createPost(
      t,
      user,
      eventBody(user, { eventDate: '2031-05-10T15:00:00-03:00', eventFinishDate: null }),
    );
    expect(body.eventDate).toBe('2031-05-10T18:00:00.000Z');
  });

  it('ignores a client id and counters in the body', async () => {
    const body = await createPost(
      t,
      user,
      generalBody(user, {
        id: UNKNOWN_ID,
        likesCount: 99,
        commentsCount: 5,
        attendancesCount: 7,
        comments: {},
        likes: {},
      }),
    );
    expect(body.id).not.toBe(UNKNOWN_ID);
    expect(body).toMatchObject({
      likesCount: 0,
      commentsCount: 0,
      attendancesCount: 0,
      comments: [],
      likes: [],
    });
    const [row] = await t.db.select().from(posts).where(eq(posts.id, body.id));
    expect(row).toMatchObject({ likesCount: 0, commentsCount: 0, attendancesCount: 0 });
  });

  it('stores the author user’s nickname whatever `author` says', async () => {
    const body = await createPost(t, user, generalBody(user, { author: 'somebody_else' }));
    expect(body.author).toBe(user.nickname);
    const [row] = await t.db.select().from(posts).where(eq(posts.id, body.id));
    expect(row!.author).toBe(user.nickname);
  });

  it('content, group and groupId may be null', async () => {
    const body = await createPost(
      t,
      user,
      generalBody(user, { content: null, group: null, groupId: null }),
    );
    expect(body).toMatchObject({ content: null, group: null, groupId: null });
  });

  it('403 when a non-admin posts as another user; nothing written', async () => {
    const before = await postCount();
    const res = expectError(
      await t.request.post('/post').set(user.auth).send(generalBody(admin)),
      403,
      'FORBIDDEN',
    );
    expect(res.reason).toBe('NOT_OWNER');
    expect(await postCount()).toBe(before);
  });

  it('403 (not 404) when a non-admin names an unknown authorId: ids cannot be probed', async () => {
    const res = await t.request
      .post('/post')
      .set(user.auth)
      .send(generalBody(user, { authorId: UNKNOWN_ID }));
    expectError(res, 403, 'FORBIDDEN');
  });

  it('an ADMIN may post as another user; author is that user’s nickname', async () => {
    const res = await t.request
      .post('/post')
      .set(admin.auth)
      .send(generalBody(user, { author: admin.nickname }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ authorId: user.id, author: user.nickname });
  });

  it('404 when the authorId does not exist (ADMIN caller); nothing written', async () => {
    const before = await postCount();
    const res = await t.request
      .post('/post')
      .set(admin.auth)
      .send(generalBody(admin, { authorId: UNKNOWN_ID }));
    expect(expectError(res, 404, 'NOT_FOUND').message).toBe('Author not found');
    expect(await postCount()).toBe(before);
  });

  it('401 without a token, and with a bad token', async () => {
    expectError(await t.request.post('/post').send(generalBody(user)), 401, 'UNAUTHORIZED');
    expectError(
      await t.request
        .post('/post')
        .set({ Authorization: 'Bearer not.a.token' })
        .send(generalBody(user)),
      401,
      'UNAUTHORIZED',
    );
  });

  it('answers at /post/ too (trailing slash)', async () => {
    const res = await t.request.post('/post/').set(user.auth).send(generalBody(user));
    expect(res.status).toBe(201);
  });
});

describe('POST /post validation: one rule each, 400 with an English message and the field, nothing written', () => {
  const cases: [string, (u: TestUser) => Record<string, unknown>, string][] = [
    ['title missing', (u) => generalBody(u, { title: undefined }), 'title'],
    ['title empty', (u) => generalBody(u, { title: '' }), 'title'],
    ['title only spaces', (u) => generalBody(u, { title: '   ' }), 'title'],
    ['title over 200', (u) => generalBody(u, { title: 'a'.repeat(201) }), 'title'],
    ['title not a string', (u) => generalBody(u, { title: 42 }), 'title'],
    ['content over 10000', (u) => generalBody(u, { content: 'a'.repeat(10_001) }), 'content'],
    ['type missing', (u) => generalBody(u, { type: undefined }), 'type'],
    ['type unknown', (u) => generalBody(u, { type: 'NEWS' }), 'type'],
    ['type lower case', (u) => generalBody(u, { type: 'general' }), 'type'],
    ['author missing', (u) => generalBody(u, { author: undefined }), 'author'],
    ['authorId missing', (u) => generalBody(u, { authorId: undefined }), 'authorId'],
    ['authorId not a UUID', (u) => generalBody(u, { authorId: 'abc' }), 'authorId'],
    ['group over 120', (u) => generalBody(u, { group: 'g'.repeat(121) }), 'group'],
    ['groupId not a UUID', (u) => generalBody(u, { groupId: 'g-1' }), 'groupId'],
    [
      'EVENT without eventDate',
      (u) => eventBody(u, { eventDate: undefined, eventFinishDate: undefined }),
      'eventDate',
    ],
    ['EVENT without location', (u) => eventBody(u, { location: undefined }), 'location'],
    ['EVENT with an empty location', (u) => eventBody(u, { location: ' ' }), 'location'],
    ['EVENT location over 200', (u) => eventBody(u, { location: 'l'.repeat(201) }), 'location'],
    ['eventDate not a date-time', (u) => eventBody(u, { eventDate: '10/05/2031' }), 'eventDate'],
    [
      'eventFinishDate not a date-time',
      (u) => eventBody(u, { eventFinishDate: 'tomorrow' }),
      'eventFinishDate',
    ],
    [
      'eventFinishDate before eventDate',
      (u) => eventBody(u, { eventFinishDate: '2031-05-10T17:59:59.000Z' }),
      'eventFinishDate',
    ],
    [
      'GENERAL with eventDate',
      (u) => generalBody(u, { eventDate: '2031-05-10T18:00:00.000Z' }),
      'eventDate',
    ],
    [
      'GENERAL with eventFinishDate',
      (u) => generalBody(u, { eventFinishDate: '2031-05-10T18:00:00.000Z' }),
      'eventFinishDate',
    ],
    ['GENERAL with location', (u) => generalBody(u, { location: 'Library' }), 'location'],
  ];

  it.each(cases)('%s', async (_rule, body, path) => {
    const before = await postCount();
    const res = expectError(
      await t.request.post('/post').set(user.auth).send(body(user)),
      400,
      'BAD_REQUEST',
    );
    expect(res.message).toBe('Invalid input');
    expect(res.issues).toEqual([{ path, message: expect.stringMatching(/^[\x20-\x7e]+$/) }]);
    expect(await postCount()).toBe(before);
  });

  it('eventFinishDate equal to eventDate is fine', async () => {
    const at = '2031-05-10T18:00:00.000Z';
    await createPost(t, user, eventBody(user, { eventDate: at, eventFinishDate: at }));
  });

  it('GENERAL with null event fields is fine', async () => {
    await createPost(
      t,
      user,
      generalBody(user, { eventDate: null, eventFinishDate: null, location: null }),
    );
  });

  it('400 for malformed JSON, 415 for a body that is not JSON', async () => {
    const bad = await postRaw(t, '/post', user, 'application/json', '{"title":');
    expectError(bad, 400, 'BAD_REQUEST');
    const text = await postRaw(t, '/post', user, 'text/plain', 'hello');
    expectError(text, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });
});
