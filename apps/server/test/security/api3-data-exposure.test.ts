import { refreshTokens, users } from '@campus/core';
import { describe, expect, it } from 'vitest';
import { type TestUser, onTestAppWithUsers } from '../support/app';
import { loginAs, refresh } from '../support/auth';
import { createEvent, createPost } from '../support/feed';
import { createMatch, matchBody } from '../support/matches';
import { registration } from '../support/students';
import { SECRETS, trpc } from './support';

/**
 * OWASP API3:2023, the read side (excessive data exposure): answers carry no password or token
 * hashes, no other user's e-mail, and no reporter's id except to an ADMIN.
 */
const {
  t,
  users: [alice, bob, admin],
} = onTestAppWithUsers({}, {}, { perfil: 'ADMIN' });

describe('API3:2023 Broken Object Property Level Authorization: what answers show', () => {
  it("a reporter stays anonymous: the report's userId is shown to ADMIN callers only", async () => {
    const post = await createPost(t, alice);
    const report = await t.request
      .post(`/post/${post.id}/report`)
      .set(bob.auth)
      .send({ reason: 'Spam' });
    expect(report.status).toBe(201);
    expect(report.body).not.toHaveProperty('userId');
    const asAuthor = await t.request.get(`/post/${post.id}`).set(alice.auth);
    expect(asAuthor.body.reports).toHaveLength(1);
    expect(asAuthor.body.reports[0]).not.toHaveProperty('userId');
    expect(JSON.stringify(asAuthor.body)).not.toContain(bob.id);
    const asAdmin = await t.request.get(`/post/${post.id}`).set(admin.auth);
    expect(asAdmin.body.reports[0].userId).toBe(bob.id);
  });

  describe('no password hash, no e-mail of others: every endpoint that returns a user, REST and /trpc', () => {
    /** Calls every endpoint whose answer carries a user, as `viewer`; returns the answers. */
    async function userResponses(viewer: TestUser) {
      const post = await createEvent(t, alice);
      await t.request
        .post(`/post/${post.id}/comment`)
        .set(alice.auth)
        .send({ content: 'By Alice' })
        .expect(201);
      await t.request.post(`/post/${post.id}/like`).set(alice.auth).expect(201);
      await t.request.post(`/post/${post.id}/attendance`).set(alice.auth).expect(201);
      await t.request
        .post(`/post/${post.id}/report`)
        .set(alice.auth)
        .send({ reason: 'Test' })
        .expect(201);
      const match = await createMatch(t, alice);
      await t.request.post(`/match/${match.id}/subscribe`).set(alice.auth).expect(201);
      const session = (await loginAs(t, viewer)).body.dados;
      const s2 = (await loginAs(t, viewer)).body.dados;
      const auth = viewer.auth;
      const rest = {
        login: loginAs(t, viewer),
        refresh: refresh(t, session.refreshToken),
        me: t.request.get('/autenticacao/usuario-atual').set(auth),
        register: t.request.post('/autenticacao/cadastro').send(registration()),
        adminList: t.request.get('/admin/usuarios?limit=100').set(auth),
        adminGet: t.request.get(`/admin/usuarios/${alice.id}`).set(auth),
        adminStatus: t.request
          .patch(`/admin/usuarios/${bob.id}/status`)
          .set(auth)
          .send({ status: 'ATIVO' }),
        postGet: t.request.get(`/post/${post.id}`).set(auth),
        postList: t.request.get('/post?limit=50').set(auth),
        postLike: t.request.post(`/post/${post.id}/like`).set(auth),
        postAttend: t.request.post(`/post/${post.id}/attendance`).set(auth),
        postComment: t.request.post(`/post/${post.id}/comment`).set(auth).send({ content: 'x' }),
        matchGet: t.request.get(`/match/${match.id}`).set(auth),
        matchList: t.request.get('/match?limit=50').set(auth),
        matchCreate: t.request.post('/match').set(auth).send(matchBody(viewer)),
        matchSubscribe: t.request.post(`/match/${match.id}/subscribe`).set(auth),
      };
      const viaTrpc = {
        login: trpc(t.request, 'auth.login', { email: viewer.email, senha: viewer.password }),
        refresh: trpc(t.request, 'auth.refresh', { refreshToken: s2.refreshToken }),
        me: trpc(t.request, 'auth.me', undefined, auth),
        register: trpc(t.request, 'students.register', registration()),
        adminList: trpc(t.request, 'admin.listUsers', { limit: 100 }, auth),
        adminGet: trpc(t.request, 'admin.getUser', { id: alice.id }, auth),
        adminStatus: trpc(
          t.request,
          'admin.updateUserStatus',
          { id: bob.id, status: 'ATIVO' },
          auth,
        ),
        postGet: trpc(t.request, 'feed.get', { id: post.id }, auth),
        matchGet: trpc(t.request, 'matches.get', { id: match.id }, auth),
        matchList: trpc(t.request, 'matches.list', { limit: 50 }, auth),
      };
      const answers: [string, { status: number; text: string }][] = [];
      for (const [name, req] of Object.entries(rest)) answers.push([`REST ${name}`, await req]);
      for (const [name, req] of Object.entries(viaTrpc)) answers.push([`/trpc ${name}`, await req]);
      return answers;
    }

    it('as an ADMIN (who sees most), every answer is free of password hashes and the words for them', async () => {
      const answers = await userResponses(admin);
      const hashes = (await t.db.select({ h: users.passwordHash }).from(users)).map((r) => r.h);
      const tokenHashes = (
        await t.db.select({ h: refreshTokens.tokenHash }).from(refreshTokens)
      ).map((r) => r.h);
      expect(hashes.length).toBeGreaterThan(3);
      for (const [name, res] of answers) {
        expect(res.status, `${name}: ${res.text}`).toBeLessThan(300);
        expect(res.text, name).not.toMatch(SECRETS);
        for (const hash of [...hashes, ...tokenHashes])
          expect(res.text.includes(hash), name).toBe(false);
      }
    });

    it('as an ALUNO, feed and match answers show other users as {id, name/userName} only: no e-mail', async () => {
      const answers = await userResponses(bob);
      const feedAndMatches = answers.filter(([name]) => /post|match/i.test(name));
      expect(feedAndMatches.length).toBeGreaterThan(8);
      for (const [name, res] of feedAndMatches) {
        expect(res.status, `${name}: ${res.text}`).toBeLessThan(300);
        expect(res.text, name).not.toContain(alice.email);
        expect(res.text, name).not.toMatch(SECRETS);
      }
      // The administration views are closed to an ALUNO (API5), so they show nothing at all.
      for (const [name, res] of answers.filter(([n]) => /admin/.test(n)))
        expect(res.status, name).toBe(403);
    });
  });

  it('the administration read shows only {id, nome, nickname, email, perfil, status}', async () => {
    const res = await t.request.get(`/admin/usuarios/${alice.id}`).set(admin.auth);
    expect(Object.keys(res.body.dados).sort()).toEqual([
      'email',
      'id',
      'nickname',
      'nome',
      'perfil',
      'status',
    ]);
    const list = await t.request.get('/admin/usuarios?limit=100').set(admin.auth);
    expect(list.body.dados.length).toBeGreaterThanOrEqual(3);
    for (const user of list.body.dados)
      expect(Object.keys(user).sort()).toEqual(['email', 'id', 'nome', 'perfil', 'status']);
  });
});
