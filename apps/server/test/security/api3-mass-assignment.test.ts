import { examples, matches, postComments, posts, users } from '@campus/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, onTestAppWithUsers } from '../support/app';
import { createPost, generalBody, UNKNOWN_ID } from '../support/feed';
import { createMatch, matchBody } from '../support/matches';
import { registration } from '../support/students';
import { expectTrpcError, tableCounts, trpc } from './support';

/**
 * OWASP API3:2023, the write side (mass assignment): fields a client must not set (ids, counters,
 * timestamps, owners, roles, statuses) are ignored or refused on every endpoint that takes a body.
 */
const {
  t,
  users: [alice, bob, admin],
} = onTestAppWithUsers({}, {}, { perfil: 'ADMIN' });

/** Fields a client must not be able to set, whatever the endpoint. */
const SERVER_OWNED = {
  id: UNKNOWN_ID,
  likesCount: 999,
  commentsCount: 999,
  attendancesCount: 999,
  createdAt: '2000-01-01T00:00:00.000Z',
  updatedAt: '2000-01-01T00:00:00.000Z',
  comments: [{ id: UNKNOWN_ID, content: 'planted' }],
  likes: [{ userId: UNKNOWN_ID }],
};

describe('API3:2023 Broken Object Property Level Authorization', () => {
  it('POST /post: id, counters, timestamps and collections in the body are ignored', async () => {
    const created = await createPost(t, alice, { ...generalBody(alice), ...SERVER_OWNED });
    expect(created.id).not.toBe(UNKNOWN_ID);
    expect(created).toMatchObject({
      likesCount: 0,
      commentsCount: 0,
      attendancesCount: 0,
      comments: [],
      likes: [],
    });
    const [row] = await t.db.select().from(posts).where(eq(posts.id, created.id));
    expect(row).toMatchObject({ likesCount: 0, commentsCount: 0, attendancesCount: 0 });
    expect(Date.now() - row!.createdAt.getTime()).toBeLessThan(60_000);
    expect(await t.db.select().from(posts).where(eq(posts.id, UNKNOWN_ID))).toHaveLength(0);
  });

  it('PATCH /post/:id: counters and timestamps in the body are ignored', async () => {
    const post = await createPost(t, alice);
    await t.request.post(`/post/${post.id}/like`).set(bob.auth).expect(201);
    const [before] = await t.db.select().from(posts).where(eq(posts.id, post.id));
    const res = await t.request
      .patch(`/post/${post.id}`)
      .set(alice.auth)
      .send({ title: 'Edited', ...SERVER_OWNED });
    expect(res.status).toBe(200);
    const [after] = await t.db.select().from(posts).where(eq(posts.id, post.id));
    expect(after).toMatchObject({
      id: post.id,
      title: 'Edited',
      likesCount: 1,
      commentsCount: 0,
      createdAt: before!.createdAt,
    });
  });

  it('authorId of someone else: POST /post → 403 and nothing written; PATCH → 403 and the author stays', async () => {
    const counts = await tableCounts(t.db);
    const res = await t.request
      .post('/post')
      .set(alice.auth)
      .send(generalBody(alice, { authorId: bob.id, author: bob.nickname }));
    expect(expectError(res, 403, 'FORBIDDEN').reason).toBe('NOT_OWNER');
    expectTrpcError(
      await trpc(t.request, 'feed.create', generalBody(alice, { authorId: bob.id }), alice.auth),
      403,
      'FORBIDDEN',
    );
    expect(await tableCounts(t.db)).toEqual(counts);

    const post = await createPost(t, alice);
    expectError(
      await t.request.patch(`/post/${post.id}`).set(alice.auth).send({ authorId: bob.id }),
      403,
      'FORBIDDEN',
    );
    const [row] = await t.db.select().from(posts).where(eq(posts.id, post.id));
    expect(row).toMatchObject({ authorId: alice.id, author: alice.nickname });
  });

  it("the author name is derived from authorId: someone else's nickname in `author` is not stored", async () => {
    const post = await createPost(t, alice, generalBody(alice, { author: bob.nickname }));
    expect(post.author).toBe(alice.nickname);
  });

  it('POST /match: userId of someone else → 403, nothing written; authorId, status and players in the body are ignored', async () => {
    const counts = await tableCounts(t.db);
    const res = await t.request
      .post('/match')
      .set(alice.auth)
      .send(matchBody(alice, { userId: bob.id }));
    expect(expectError(res, 403, 'FORBIDDEN').reason).toBe('NOT_OWNER');
    expect(await tableCounts(t.db)).toEqual(counts);

    const planted = {
      authorId: bob.id,
      author: { id: bob.id },
      MatchStatus: 'FINALIZADA',
      players: [{ id: bob.id }],
      ...SERVER_OWNED,
    };
    const match = await createMatch(t, alice, planted);
    expect(match).toMatchObject({ authorId: alice.id, MatchStatus: 'EM_BREVE', players: [] });
    const [row] = await t.db.select().from(matches).where(eq(matches.id, match.id));
    expect(row).toMatchObject({ authorId: alice.id, status: 'EM_BREVE' });
    const edited = await t.request
      .patch(`/match/${match.id}`)
      .set(alice.auth)
      .send({ title: 'Edited', authorId: bob.id, userId: bob.id });
    expect(edited.status).toBe(200);
    expect((await t.db.select().from(matches).where(eq(matches.id, match.id)))[0]!.authorId).toBe(
      alice.id,
    );
  });

  it('registration: perfil, papel, status and id in the body are ignored (REST and /trpc) → ALUNO, ATIVO', async () => {
    const planted = {
      perfil: 'ADMIN',
      papel: 'ADMIN',
      status: 'ATIVO',
      id: UNKNOWN_ID,
      passwordHash: 'scrypt$planted',
    };
    const rest = await t.request.post('/autenticacao/cadastro').send(registration(planted));
    expect(rest.status).toBe(201);
    expect(rest.body.dados).toMatchObject({ papel: 'ALUNO', status: 'ATIVO' });
    const viaTrpc = await trpc(t.request, 'students.register', registration(planted));
    expect(viaTrpc.status).toBe(200);
    for (const id of [rest.body.dados.id, viaTrpc.body.result.data.dados.id]) {
      const [row] = await t.db.select().from(users).where(eq(users.id, id));
      expect(row).toMatchObject({ perfil: 'ALUNO', status: 'ATIVO' });
      expect(row!.passwordHash).not.toBe('scrypt$planted');
    }
  });

  it('PATCH /admin/usuarios/:id/status changes the status only: perfil, email, nome in the body are ignored', async () => {
    const target = await t.createUser();
    const res = await t.request
      .patch(`/admin/usuarios/${target.id}/status`)
      .set(admin.auth)
      .send({ status: 'ACTIVE', perfil: 'ADMIN', email: 'taken@campus.test', nome: 'Renamed' });
    expect(res.status).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.id, target.id));
    expect(row).toMatchObject({ perfil: 'ALUNO', email: target.email, nome: target.nome });
  });

  it('comments and examples are the caller’s own: authorId / createdBy in the body are ignored', async () => {
    const post = await createPost(t, alice);
    const comment = await t.request
      .post(`/post/${post.id}/comment`)
      .set(bob.auth)
      .send({ content: 'Hi', authorId: alice.id, author: { id: alice.id } });
    expect(comment.status).toBe(201);
    const [stored] = await t.db
      .select()
      .from(postComments)
      .where(eq(postComments.id, comment.body.id));
    expect(stored!.authorId).toBe(bob.id);
    const example = await t.request
      .post('/exemplos')
      .set(bob.auth)
      .send({ nome: 'Meu', createdBy: alice.id, id: UNKNOWN_ID });
    expect(example.status).toBe(201);
    const [row] = await t.db.select().from(examples).where(eq(examples.id, example.body.dados.id));
    expect(row!.createdBy).toBe(bob.id);
    expect(example.body.dados).not.toHaveProperty('createdBy');
  });
});
