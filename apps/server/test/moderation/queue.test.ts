import { moderationDecisions, posts } from '@campus/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, onTestAppWithUsers, UNKNOWN_ID, type TestUser } from '../support/app';
import { createPost } from '../support/feed';

/*
 * The site ADMIN's queue GET /admin/denuncias and decisions PATCH /admin/denuncias/{tipo}/{id}
 * (docs/contract/feed.md, Moderation): OCULTAR, RESTAURAR, DESCARTAR, each recorded.
 */

const { t, users } = onTestAppWithUsers({}, {}, { perfil: 'ADMIN' });
const [author, reader, admin] = users;

const report = (postId: string, as: TestUser, reason = 'Spam') =>
  t.request.post(`/post/${postId}/report`).set(as.auth).send({ reason });
const decide = (tipo: string, id: string, acao: string, as = admin) =>
  t.request.patch(`/admin/denuncias/${tipo}/${id}`).set(as.auth).send({ acao });
const queue = async (query = '') => {
  const res = await t.request.get(`/admin/denuncias${query}`).set(admin.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    dados: { tipo: string; id: string; denuncias: number; oculto: boolean; motivos: string[] }[];
    metadados: { total: number };
  };
};
const hiddenAt = async (id: string) =>
  (await t.db.select().from(posts).where(eq(posts.id, id)))[0]!.hiddenAt;

describe('GET /admin/denuncias', () => {
  it('most-reported first, with reasons; comments too; ADMIN only', async () => {
    const once = await createPost(t, author);
    const twice = await createPost(t, author);
    await report(once.id, reader, 'Um');
    await report(twice.id, reader, 'Dois');
    await report(twice.id, admin, 'Três');
    const c = await t.request
      .post(`/post/${once.id}/comment`)
      .set(author.auth)
      .send({ content: 'x' });
    await t.request.post(`/comment/${c.body.id}/report`).set(reader.auth).send({ reason: 'Rude' });

    const pending = await queue();
    const mine = pending.dados.filter((d) => [once.id, twice.id, c.body.id].includes(d.id));
    expect(mine[0]).toMatchObject({ tipo: 'POST', id: twice.id, denuncias: 2, oculto: false });
    expect(mine[0]!.motivos).toEqual(['Três', 'Dois']);
    expect(mine).toContainEqual(
      expect.objectContaining({
        tipo: 'COMENTARIO',
        id: c.body.id,
        denuncias: 1,
        motivos: ['Rude'],
      }),
    );
    expect(pending.metadados.total).toBeGreaterThanOrEqual(3);
    expectError(await t.request.get('/admin/denuncias').set(reader.auth), 403, 'FORBIDDEN');
    expectError(
      await t.request.get('/admin/denuncias?status=X').set(admin.auth),
      400,
      'BAD_REQUEST',
    );
  });
});

describe('PATCH /admin/denuncias/{tipo}/{id}', () => {
  it('OCULTAR hides and notifies; the case moves to RESOLVIDA; the decision is recorded', async () => {
    const post = await createPost(t, author);
    await report(post.id, reader);
    const res = await decide('POST', post.id, 'OCULTAR');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.dados).toMatchObject({
      tipo: 'POST',
      id: post.id,
      oculto: true,
      decisao: { acao: 'OCULTAR', adminId: admin.id, denunciasEncerradas: 1 },
    });
    expect(await hiddenAt(post.id)).not.toBeNull();
    expect((await queue()).dados.map((d) => d.id)).not.toContain(post.id);
    expect((await queue('?status=RESOLVIDA')).dados).toContainEqual(
      expect.objectContaining({ id: post.id, oculto: true }),
    );
    const recorded = await t.db
      .select()
      .from(moderationDecisions)
      .where(eq(moderationDecisions.targetId, post.id));
    expect(recorded).toMatchObject([
      { targetType: 'POST', action: 'OCULTAR', adminId: admin.id, reportsClosed: 1 },
    ]);
    expectError(await t.request.get(`/post/${post.id}`).set(reader.auth), 404, 'NOT_FOUND');
  });

  it('RESTAURAR shows it and keeps it visible past the threshold', async () => {
    const post = await createPost(t, author);
    const crowd = await Promise.all(Array.from({ length: 10 }, () => t.createUser()));
    for (const u of crowd.slice(0, 5)) await report(post.id, u);
    expect(await hiddenAt(post.id)).not.toBeNull();
    const res = await decide('POST', post.id, 'RESTAURAR');
    expect(res.body.dados).toMatchObject({ oculto: false, decisao: { denunciasEncerradas: 5 } });
    for (const u of crowd.slice(5)) expect((await report(post.id, u)).status).toBe(201);
    expect(await hiddenAt(post.id)).toBeNull();
    expect((await t.request.get(`/post/${post.id}`).set(reader.auth)).status).toBe(200);
  });

  it('DESCARTAR closes the reports without hiding; a comment is decided alike', async () => {
    const post = await createPost(t, author);
    const c = await t.request
      .post(`/post/${post.id}/comment`)
      .set(author.auth)
      .send({ content: 'x' });
    await t.request.post(`/comment/${c.body.id}/report`).set(reader.auth).send({ reason: 'Rude' });
    const res = await decide('COMENTARIO', c.body.id, 'DESCARTAR');
    expect(res.status).toBe(200);
    expect(res.body.dados).toMatchObject({
      tipo: 'COMENTARIO',
      oculto: false,
      decisao: { acao: 'DESCARTAR' },
    });
    expect((await queue()).dados.map((d) => d.id)).not.toContain(c.body.id);
    const hide = await decide('COMENTARIO', c.body.id, 'OCULTAR');
    expect(hide.body.dados.oculto).toBe(true);
    expect((await t.request.get(`/post/${post.id}`).set(reader.auth)).body.commentsCount).toBe(0);
  });

  it('404 unknown content, 400 bad acao or tipo, 403 for a non-admin', async () => {
    expectError(await decide('POST', UNKNOWN_ID, 'OCULTAR'), 404, 'NOT_FOUND');
    expectError(await decide('COMENTARIO', UNKNOWN_ID, 'OCULTAR'), 404, 'NOT_FOUND');
    const post = await createPost(t, author);
    expectError(await decide('POST', post.id, 'APAGAR'), 400, 'BAD_REQUEST');
    expectError(await decide('VIDEO', post.id, 'OCULTAR'), 400, 'BAD_REQUEST');
    expectError(await decide('POST', post.id, 'OCULTAR', reader), 403, 'FORBIDDEN');
  });
});
