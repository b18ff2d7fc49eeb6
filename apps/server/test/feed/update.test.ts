import { describe, expect, it } from 'vitest';
import { expectError, type TestUser, onTestAppWithUsers } from '../support/app';
import { UNKNOWN_ID, postRow, createEvent, createPost, generalBody } from '../support/feed';

const {
  t,
  users: [author, other, admin],
} = onTestAppWithUsers({}, {}, { perfil: 'ADMIN' });

const patch = (id: string, user: TestUser, body: Record<string, unknown>) =>
  t.request.patch(`/post/${id}`).set(user.auth).send(body);

describe('PATCH /post/{id}', () => {
  it('200: changes only the fields sent, moves updatedAt, keeps the rest; the row changes', async () => {
    const post = await createPost(t, author, generalBody(author, { content: 'Chess' }));
    const res = await patch(post.id, author, { title: 'New title' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...post, title: 'New title', updatedAt: expect.any(String) });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(post.updatedAt as string));
    expect(await postRow(t, post.id)).toMatchObject({
      title: 'New title',
      content: 'Chess',
    });
  });

  it('the response carries the collections as arrays', async () => {
    const post = await createPost(t, author);
    await t.request.post(`/post/${post.id}/like`).set(other.auth).expect(201);
    await t.request
      .post(`/post/${post.id}/comment`)
      .set(other.auth)
      .send({ content: 'Nice' })
      .expect(201);
    const res = await patch(post.id, author, { content: 'Edited' });
    expect(res.body).toMatchObject({
      content: 'Edited',
      likesCount: 1,
      commentsCount: 1,
      reports: [],
      attendances: [],
      media: [],
    });
    expect(res.body.likes).toEqual([expect.objectContaining({ userId: other.id })]);
    expect(res.body.comments).toEqual([expect.objectContaining({ content: 'Nice' })]);
  });

  it('null clears content, group and groupId', async () => {
    const post = await createPost(t, author, generalBody(author, { group: 'G' }));
    const res = await patch(post.id, author, { content: null, group: null, groupId: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ content: null, group: null, groupId: null });
  });

  describe('permission matrix', () => {
    it('the author: 200', async () => {
      const post = await createPost(t, author);
      expect((await patch(post.id, author, { title: 'By author' })).status).toBe(200);
    });
    it('another user: 403, row unchanged', async () => {
      const post = await createPost(t, author);
      const res = expectError(await patch(post.id, other, { title: 'Hijack' }), 403, 'FORBIDDEN');
      expect(res.reason).toBe('NOT_OWNER');
      expect((await postRow(t, post.id))!.title).toBe(post.title);
    });
    it('an ADMIN: 200', async () => {
      const post = await createPost(t, author);
      expect((await patch(post.id, admin, { title: 'By admin' })).body.title).toBe('By admin');
      expect((await postRow(t, post.id))!.authorId).toBe(author.id);
    });
  });

  describe('authorship', () => {
    it('the author cannot hand the post to another user: 403', async () => {
      const post = await createPost(t, author);
      expectError(await patch(post.id, author, { authorId: other.id }), 403, 'FORBIDDEN');
      expect((await postRow(t, post.id))!.authorId).toBe(author.id);
    });
    it('an ADMIN can; author becomes the new user’s nickname', async () => {
      const post = await createPost(t, author);
      const res = await patch(post.id, admin, { authorId: other.id, author: 'ignored' });
      expect(res.body).toMatchObject({ authorId: other.id, author: other.nickname });
    });
    it('an ADMIN naming an unknown user: 404, row unchanged', async () => {
      const post = await createPost(t, author);
      expect(
        expectError(await patch(post.id, admin, { authorId: UNKNOWN_ID }), 404, 'NOT_FOUND')
          .message,
      ).toBe('Author not found');
      expect((await postRow(t, post.id))!.authorId).toBe(author.id);
    });
    it('`author` alone does not rename: the nickname stays', async () => {
      const post = await createPost(t, author);
      const res = await patch(post.id, author, { author: 'fake_name' });
      expect(res.status).toBe(200);
      expect(res.body.author).toBe(author.nickname);
    });
  });

  it('400 when no field is given, or only unknown ones and counters', async () => {
    const post = await createPost(t, author);
    for (const body of [{}, { likesCount: 9, id: UNKNOWN_ID, comments: [] }]) {
      const res = expectError(await patch(post.id, author, body), 400, 'BAD_REQUEST');
      expect(res.issues).toEqual([
        { path: '', message: 'at least one field to change is required' },
      ]);
    }
    expect((await postRow(t, post.id))!.likesCount).toBe(0);
  });

  it('counters sent beside a real change are ignored', async () => {
    const post = await createPost(t, author);
    const res = await patch(post.id, author, { title: 'x', likesCount: 50, attendancesCount: 3 });
    expect(res.body).toMatchObject({ likesCount: 0, attendancesCount: 0 });
    expect(await postRow(t, post.id)).toMatchObject({ likesCount: 0, attendancesCount: 0 });
  });

  it.each([
    ['title empty', { title: '' }, 'title'],
    ['title null', { title: null }, 'title'],
    ['title over 200', { title: 't'.repeat(201) }, 'title'],
    ['type unknown', { type: 'ANNOUNCEMENT' }, 'type'],
    ['content over 10000', { content: 'c'.repeat(10_001) }, 'content'],
    ['authorId not a UUID', { authorId: 'me' }, 'authorId'],
    ['group over 120', { group: 'g'.repeat(121) }, 'group'],
    ['groupId not a UUID', { groupId: 'g1' }, 'groupId'],
    ['eventDate not a date-time', { eventDate: 'soon' }, 'eventDate'],
    ['eventFinishDate not a date-time', { eventFinishDate: 12 }, 'eventFinishDate'],
    ['location over 200', { location: 'l'.repeat(201) }, 'location'],
  ])('400 for %s, row unchanged', async (_rule, body, path) => {
    const post = await createEvent(t, author);
    const res = expectError(await patch(post.id, author, body), 400, 'BAD_REQUEST');
    expect(res.issues).toEqual([expect.objectContaining({ path })]);
    expect((await postRow(t, post.id))!.updatedAt.toISOString()).toBe(post.updatedAt);
  });

  describe('the merged post must stay valid', () => {
    it('GENERAL → EVENT without eventDate and location: 400 naming both', async () => {
      const post = await createPost(t, author);
      const res = expectError(await patch(post.id, author, { type: 'EVENT' }), 400, 'BAD_REQUEST');
      expect(res.issues!.map((i) => (i as { path: string }).path)).toEqual([
        'eventDate',
        'location',
      ]);
      expect((await postRow(t, post.id))!.type).toBe('GENERAL');
    });
    it('GENERAL → EVENT with them: 200', async () => {
      const post = await createPost(t, author);
      const res = await patch(post.id, author, {
        type: 'EVENT',
        eventDate: '2031-01-01T10:00:00Z',
        location: 'Hall',
      });
      expect(res.body).toMatchObject({
        type: 'EVENT',
        eventDate: '2031-01-01T10:00:00.000Z',
        location: 'Hall',
      });
    });
    it('EVENT → GENERAL keeping event fields: 400', async () => {
      const post = await createEvent(t, author);
      expectError(await patch(post.id, author, { type: 'GENERAL' }), 400, 'BAD_REQUEST');
      expect((await postRow(t, post.id))!.type).toBe('EVENT');
    });
    it('EVENT → GENERAL clearing them: 200', async () => {
      const post = await createEvent(t, author);
      const res = await patch(post.id, author, {
        type: 'GENERAL',
        eventDate: null,
        eventFinishDate: null,
        location: null,
      });
      expect(res.body).toMatchObject({
        type: 'GENERAL',
        eventDate: null,
        eventFinishDate: null,
        location: null,
      });
    });
    it('an EVENT cannot lose its location', async () => {
      const post = await createEvent(t, author);
      expect(
        expectError(await patch(post.id, author, { location: null }), 400, 'BAD_REQUEST').issues,
      ).toEqual([{ path: 'location', message: 'location is required for an EVENT' }]);
    });
    it('eventFinishDate before the stored eventDate: 400', async () => {
      const post = await createEvent(t, author);
      const res = await patch(post.id, author, { eventFinishDate: '2031-05-10T17:00:00.000Z' });
      expect(expectError(res, 400, 'BAD_REQUEST').issues).toEqual([
        { path: 'eventFinishDate', message: 'eventFinishDate must not be before eventDate' },
      ]);
    });
    it('eventDate moved after the stored eventFinishDate: 400', async () => {
      const post = await createEvent(t, author);
      expectError(
        await patch(post.id, author, { eventDate: '2031-05-11T00:00:00.000Z' }),
        400,
        'BAD_REQUEST',
      );
    });
    it('a GENERAL post cannot get a location', async () => {
      const post = await createPost(t, author);
      expectError(await patch(post.id, author, { location: 'Library' }), 400, 'BAD_REQUEST');
    });
  });

  it('404 for an unknown post, 400 for a non-UUID id, 401 without a token', async () => {
    expectError(await patch(UNKNOWN_ID, author, { title: 'x' }), 404, 'NOT_FOUND');
    expectError(await patch('abc', author, { title: 'x' }), 400, 'BAD_REQUEST');
    expectError(
      await t.request.patch(`/post/${UNKNOWN_ID}`).send({ title: 'x' }),
      401,
      'UNAUTHORIZED',
    );
  });
});
