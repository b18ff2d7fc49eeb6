import { describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser, onTestApp } from '../support/app';
import {
  createEvent,
  createPost,
  expectCountersMatchRows,
  generalBody,
  postState,
  postTotals,
} from '../support/feed';

/*
 * Many simultaneous requests against one post. On PostgreSQL they run in parallel transactions
 * (a pool of 20 connections); on PGlite they interleave on its one connection.
 */

let t: TestApp;
let author: TestUser;
let crowd: TestUser[];
onTestApp(async (app) => {
  t = app;
  author = await t.createUser();
  crowd = await Promise.all(Array.from({ length: 30 }, () => t.createUser()));
});

const statuses = (responses: { status: number }[]) =>
  responses.reduce<Record<number, number>>(
    (acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }),
    {},
  );

describe('likes under concurrency', () => {
  it('30 users like one post at once: 30 × 201, likesCount 30, 30 rows', async () => {
    const post = await createPost(t, author);
    const responses = await Promise.all(
      crowd.map((u) => t.request.post(`/post/${post.id}/like`).set(u.auth)),
    );
    expect(statuses(responses)).toEqual({ 201: 30 });
    const state = await expectCountersMatchRows(t, post.id);
    expect(state).toMatchObject({ likes: 30, post: { likesCount: 30 } });
    expect((await t.request.get(`/post/${post.id}`).set(author.auth)).body.likes).toHaveLength(30);
  });

  it('one user liking the same post 10 times at once: one 201, nine 409', async () => {
    const post = await createPost(t, author);
    const user = crowd[0]!;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => t.request.post(`/post/${post.id}/like`).set(user.auth)),
    );
    expect(statuses(responses)).toEqual({ 201: 1, 409: 9 });
    expect(await expectCountersMatchRows(t, post.id)).toMatchObject({ likes: 1 });
  });

  it('likes and unlikes by the same users racing: the counter equals the rows after every round', async () => {
    const post = await createPost(t, author);
    const racers = crowd.slice(0, 15);
    // Half of them start out liking the post.
    await Promise.all(
      racers
        .slice(0, 8)
        .map((u) => t.request.post(`/post/${post.id}/like`).set(u.auth).expect(201)),
    );
    for (let round = 0; round < 3; round++) {
      const responses = await Promise.all(
        racers.flatMap((u) => [
          t.request.post(`/post/${post.id}/like`).set(u.auth),
          t.request.delete(`/post/${post.id}/like`).set(u.auth),
          t.request.post(`/post/${post.id}/like`).set(u.auth),
        ]),
      );
      for (const r of responses) expect([201, 204, 404, 409]).toContain(r.status);
      const state = await expectCountersMatchRows(t, post.id);
      expect(state.likes).toBeLessThanOrEqual(racers.length);
    }
    // Every successful like and unlike moved the counter exactly once: settle and count.
    const final = await Promise.all(
      racers.map((u) => t.request.delete(`/post/${post.id}/like`).set(u.auth)),
    );
    const stillLiked = final.filter((r) => r.status === 204).length;
    expect(stillLiked + final.filter((r) => r.status === 404).length).toBe(racers.length);
    expect(await expectCountersMatchRows(t, post.id)).toMatchObject({
      likes: 0,
      post: { likesCount: 0 },
    });
  });
});

describe('comments under concurrency', () => {
  it('20 comments at once: 20 × 201, commentsCount 20, 20 rows', async () => {
    const post = await createPost(t, author);
    const responses = await Promise.all(
      crowd.slice(0, 20).map((u, i) =>
        t.request
          .post(`/post/${post.id}/comment`)
          .set(u.auth)
          .send({ content: `c${i}` }),
      ),
    );
    expect(statuses(responses)).toEqual({ 201: 20 });
    expect(await expectCountersMatchRows(t, post.id)).toMatchObject({
      comments: 20,
      post: { commentsCount: 20 },
    });
  });

  it('the same comment deleted 8 times at once: one 204, seven 404, counted once', async () => {
    const post = await createPost(t, author);
    const made = await t.request
      .post(`/post/${post.id}/comment`)
      .set(author.auth)
      .send({ content: 'x' });
    await t.request
      .post(`/post/${post.id}/comment`)
      .set(author.auth)
      .send({ content: 'y' })
      .expect(201);
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.request.delete(`/comment/${made.body.id}`).set(author.auth),
      ),
    );
    expect(statuses(responses)).toEqual({ 204: 1, 404: 7 });
    expect(await expectCountersMatchRows(t, post.id)).toMatchObject({
      comments: 1,
      post: { commentsCount: 1 },
    });
  });

  it('comments added and deleted at once stay counted', async () => {
    const post = await createPost(t, author);
    const first = await Promise.all(
      crowd
        .slice(0, 10)
        .map((u) => t.request.post(`/post/${post.id}/comment`).set(u.auth).send({ content: 'a' })),
    );
    await Promise.all([
      ...first.map((r, i) =>
        t.request.delete(`/comment/${r.body.id}`).set(crowd[i]!.auth).expect(204),
      ),
      ...crowd
        .slice(10, 20)
        .map((u) =>
          t.request.post(`/post/${post.id}/comment`).set(u.auth).send({ content: 'b' }).expect(201),
        ),
    ]);
    expect(await expectCountersMatchRows(t, post.id)).toMatchObject({
      comments: 10,
      post: { commentsCount: 10 },
    });
  });
});

describe('attendances under concurrency', () => {
  it('25 users attend at once: attendancesCount 25; one user 6 times at once: one 201', async () => {
    const event = await createEvent(t, author);
    const responses = await Promise.all(
      crowd.slice(0, 25).map((u) => t.request.post(`/post/${event.id}/attendance`).set(u.auth)),
    );
    expect(statuses(responses)).toEqual({ 201: 25 });
    expect(await expectCountersMatchRows(t, event.id)).toMatchObject({ attendances: 25 });

    const again = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.request.post(`/post/${event.id}/attendance`).set(crowd[29]!.auth),
      ),
    );
    expect(statuses(again)).toEqual({ 201: 1, 409: 5 });
    expect(await expectCountersMatchRows(t, event.id)).toMatchObject({ attendances: 26 });
  });

  it('attend and withdraw racing keep the counter equal to the rows', async () => {
    const event = await createEvent(t, author);
    const racers = crowd.slice(0, 12);
    await Promise.all(
      racers.flatMap((u) => [
        t.request.post(`/post/${event.id}/attendance`).set(u.auth),
        t.request.delete(`/post/${event.id}/attendance`).set(u.auth),
      ]),
    );
    await expectCountersMatchRows(t, event.id);
  });
});

describe('deleting a post while others interact with it', () => {
  it('every like is 201 or 404, and no child row outlives the post', async () => {
    const post = await createPost(t, author);
    const responses = await Promise.all([
      ...crowd.slice(0, 15).map((u) => t.request.post(`/post/${post.id}/like`).set(u.auth)),
      t.request.delete(`/post/${post.id}`).set(author.auth),
      ...crowd
        .slice(15, 30)
        .map((u) => t.request.post(`/post/${post.id}/comment`).set(u.auth).send({ content: 'z' })),
    ]);
    for (const r of responses) expect([201, 204, 404]).toContain(r.status);
    expect(responses.filter((r) => r.status === 204)).toHaveLength(1);
    const { post: gone, ...children } = await postState(t, post.id);
    expect(gone).toBeUndefined();
    expect(children).toEqual({ comments: 0, likes: 0, attendances: 0, reports: 0 });
  });
});

describe('totalCount under concurrency (own app, so counts are exact)', () => {
  it('30 creates and then 10 deletes at once: totalCount 20, equal to COUNT(*)', async () => {
    const app = await startTestApp();
    try {
      const users = await Promise.all(Array.from({ length: 5 }, () => app.createUser()));
      const created = await Promise.all(
        Array.from({ length: 30 }, (_, i) => {
          const u = users[i % users.length]!;
          return app.request
            .post('/post')
            .set(u.auth)
            .send(generalBody(u, { title: `p${i}` }));
        }),
      );
      expect(statuses(created)).toEqual({ 201: 30 });
      expect((await app.request.get('/post').set(users[0]!.auth)).body.meta.totalCount).toBe(30);

      const deleted = await Promise.all(
        created
          .slice(0, 10)
          .map((r, i) =>
            app.request.delete(`/post/${r.body.id}`).set(users[i % users.length]!.auth),
          ),
      );
      expect(statuses(deleted)).toEqual({ 204: 10 });
      const res = await app.request.get('/post?limit=50').set(users[0]!.auth);
      expect(res.body.meta).toMatchObject({ totalCount: 20, totalPages: 1 });
      expect(res.body.data).toHaveLength(20);
      expect(await postTotals(app)).toEqual({ kept: 20, real: 20 });
    } finally {
      await app.close();
    }
  });

  it('creates and deletes interleaved at once: row_counts equals COUNT(*)', async () => {
    const app = await startTestApp();
    try {
      const u = await app.createUser();
      const first = await Promise.all(
        Array.from({ length: 10 }, () =>
          app.request.post('/post').set(u.auth).send(generalBody(u)),
        ),
      );
      await Promise.all([
        ...first.map((r) => app.request.delete(`/post/${r.body.id}`).set(u.auth).expect(204)),
        ...Array.from({ length: 15 }, () =>
          app.request.post('/post').set(u.auth).send(generalBody(u)).expect(201),
        ),
      ]);
      expect(await postTotals(app)).toEqual({ kept: 15, real: 15 });
      expect((await app.request.get('/post').set(u.auth)).body.meta.totalCount).toBe(15);
    } finally {
      await app.close();
    }
  });
});
