import { matches, postComments, postLikes, posts } from '@campus/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, type TestApp, type TestUser, onTestApp } from '../support/app';
import { loginAs, logout, refresh } from '../support/auth';
import { createEvent, createPost } from '../support/feed';
import { createMatch, playerRows } from '../support/matches';
import { expectTrpcError, trpc } from './support';

/**
 * Each test acts on an object that belongs to someone else, over REST and /trpc, and reads the
 * table afterwards: the answer is a 403/404 and the row is exactly as it was.
 */
let t: TestApp;
let alice: TestUser; // owns the objects
let bob: TestUser; // ALUNO, not the owner
let professor: TestUser; // PROFESSOR: no more rights than an ALUNO over other people's objects
let admin: TestUser;
onTestApp(async (app) => {
  t = app;
  [alice, bob, professor, admin] = await t.createUsers(
    {},
    {},
    { perfil: 'PROFESSOR' },
    { perfil: 'ADMIN' },
  );
});

const postRow = async (id: string) => (await t.db.select().from(posts).where(eq(posts.id, id)))[0];
const matchRow = async (id: string) =>
  (await t.db.select().from(matches).where(eq(matches.id, id)))[0];

/** Each tRPC call (`[procedure, input]`) refuses `intruder` as its REST route does: 403. */
async function expectTrpcForbidden(intruder: TestUser, ...calls: [string, unknown][]) {
  for (const [procedure, input] of calls)
    expectTrpcError(await trpc(t.request, procedure, input, intruder.auth), 403, 'FORBIDDEN');
}

describe('API1:2023 Broken Object Level Authorization', () => {
  it("someone else's post: PATCH and DELETE → 403 NOT_OWNER, REST and /trpc; the row is unchanged", async () => {
    const post = await createPost(t, alice);
    const before = await postRow(post.id);
    for (const intruder of [bob, professor]) {
      const patch = await t.request
        .patch(`/post/${post.id}`)
        .set(intruder.auth)
        .send({ title: 'Hijacked' });
      expect(expectError(patch, 403, 'FORBIDDEN').reason).toBe('NOT_OWNER');
      expectError(await t.request.delete(`/post/${post.id}`).set(intruder.auth), 403, 'FORBIDDEN');
      await expectTrpcForbidden(
        intruder,
        ['feed.update', { id: post.id, content: 'x' }],
        ['feed.remove', { id: post.id }],
      );
    }
    expect(await postRow(post.id)).toEqual(before);
    // The check is ownership, not a blanket refusal: an ADMIN may.
    expect(
      (await t.request.patch(`/post/${post.id}`).set(admin.auth).send({ title: 'Moderated' }))
        .status,
    ).toBe(200);
  });

  it("someone else's comment: DELETE /comment/:id → 403; the comment and the counter stay", async () => {
    const post = await createPost(t, alice);
    const carol = await t.createUser();
    const comment = await t.request
      .post(`/post/${post.id}/comment`)
      .set(carol.auth)
      .send({ content: 'Mine' });
    expect(comment.status).toBe(201);
    expectError(
      await t.request.delete(`/comment/${comment.body.id}`).set(bob.auth),
      403,
      'FORBIDDEN',
    );
    expectTrpcError(
      await trpc(t.request, 'feed.removeComment', { id: comment.body.id }, professor.auth),
      403,
      'FORBIDDEN',
    );
    expect(
      await t.db.select().from(postComments).where(eq(postComments.id, comment.body.id)),
    ).toHaveLength(1);
    expect((await postRow(post.id))!.commentsCount).toBe(1);
  });

  it("someone else's like and attendance cannot be taken back: 404 for the caller, the rows stay", async () => {
    const event = await createEvent(t, alice);
    await t.request.post(`/post/${event.id}/like`).set(alice.auth).expect(201);
    await t.request.post(`/post/${event.id}/attendance`).set(alice.auth).expect(201);
    // There is no way to name another user's record: the body is ignored, the caller's own is meant.
    const unlike = await t.request
      .delete(`/post/${event.id}/like`)
      .set(bob.auth)
      .send({ userId: alice.id });
    expectError(unlike, 404, 'NOT_FOUND');
    expectError(
      await t.request
        .delete(`/post/${event.id}/attendance`)
        .set(bob.auth)
        .send({ userId: alice.id }),
      404,
      'NOT_FOUND',
    );
    expect(await t.db.select().from(postLikes).where(eq(postLikes.postId, event.id))).toHaveLength(
      1,
    );
    expect(await postRow(event.id)).toMatchObject({ likesCount: 1, attendancesCount: 1 });
  });

  it("someone else's match: PATCH (fields and MatchStatus) and DELETE → 403; the row and players stay", async () => {
    const match = await createMatch(t, alice);
    await t.request.post(`/match/${match.id}/subscribe`).set(alice.auth).expect(201);
    const before = await matchRow(match.id);
    for (const intruder of [bob, professor]) {
      const patch = await t.request
        .patch(`/match/${match.id}`)
        .set(intruder.auth)
        .send({ title: 'Hijacked', maxPlayers: 2 });
      expect(expectError(patch, 403, 'FORBIDDEN').reason).toBe('NOT_OWNER');
      expectError(
        await t.request
          .patch(`/match/${match.id}`)
          .set(intruder.auth)
          .send({ MatchStatus: 'CANCELADA' }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await t.request.delete(`/match/${match.id}`).set(intruder.auth),
        403,
        'FORBIDDEN',
      );
      await expectTrpcForbidden(
        intruder,
        ['matches.update', { id: match.id, title: 'Hijacked' }],
        ['matches.delete', { id: match.id }],
      );
    }
    expect(await matchRow(match.id)).toEqual(before);
    expect(await playerRows(t, match.id)).toHaveLength(1);
  });

  it("someone else's subscription: unsubscribe and switch name only the caller's own → 404; hers is unchanged", async () => {
    const match = await createMatch(t, admin);
    await t.request.post(`/match/${match.id}/subscribe`).set(alice.auth).expect(201);
    const before = await playerRows(t, match.id);
    const asAlice = { userId: alice.id, user: alice.id };
    expectError(
      await t.request.delete(`/match/${match.id}/unsubscribe`).set(bob.auth).send(asAlice),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.request.post(`/match/${match.id}/switch`).set(bob.auth).send(asAlice),
      404,
      'NOT_FOUND',
    );
    expectTrpcError(
      await trpc(t.request, 'matches.unsubscribe', { id: match.id, ...asAlice }, bob.auth),
      404,
      'NOT_FOUND',
    );
    expectTrpcError(
      await trpc(t.request, 'matches.switch', { id: match.id, ...asAlice }, bob.auth),
      404,
      'NOT_FOUND',
    );
    expect(await playerRows(t, match.id)).toEqual(before);
    // Not even the match's author can move or remove a player.
    expectError(
      await t.request.post(`/match/${match.id}/switch`).set(admin.auth).send(asAlice),
      404,
      'NOT_FOUND',
    );
    expect(await playerRows(t, match.id)).toEqual(before);
  });

  it("someone else's session: POST /autenticacao/sair with her refresh token does not end it", async () => {
    // Also in auth.test.ts; here as the API1 evidence for sessions.
    const session = (await loginAs(t, alice)).body.dados;
    await logout(t, bob, session.refreshToken).expect(204);
    await refresh(t, session.refreshToken).expect(200);
  });

  it('an id of the wrong kind is not a way in: a post id on /comment, a match id on /post → 404', async () => {
    const post = await createPost(t, alice);
    const match = await createMatch(t, alice);
    expectError(await t.request.delete(`/comment/${post.id}`).set(bob.auth), 404, 'NOT_FOUND');
    expectError(await t.request.delete(`/post/${match.id}`).set(bob.auth), 404, 'NOT_FOUND');
    expect(await postRow(post.id)).toBeDefined();
    expect(await matchRow(match.id)).toBeDefined();
  });
});
