import { randomBytes } from 'node:crypto';
import {
  IMPERSONAL_TABLES,
  PERSONAL_DATA_TABLES,
  REMOVED_USER,
  notifications,
  postComments,
  posts,
  matches,
} from '@campus/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type TestApp, type TestUser } from '../support/app';
import { countersAndRows, addMember, createGroup } from '../support/groups';
import { createEvent, createPost, expectCountersMatchRows, generalBody } from '../support/feed';
import { createMatch, teamCounts } from '../support/matches';
import { startTestAppWithMail, type MailServer } from '../support/mail';
import { registration } from '../support/students';
import { allTables, tablesNaming } from './support';

/**
 * LGPD: the export holds every personal datum (checked against the database's real list of
 * tables), and deletion leaves no row that names the person while the community's history stays.
 */
let t: TestApp;
let smtp: MailServer;
let other: TestUser;
let admin: TestUser;
const suffix = randomBytes(4).toString('hex');
const body = registration({ nome: `Vitória Apagável ${suffix}` });
let victim: { id: string; auth: { Authorization: string } };
const made = {} as Record<
  'ownPost' | 'othersEvent' | 'ownMatch' | 'othersMatch' | 'shared' | 'solo' | 'closed',
  string
>;

beforeAll(async () => {
  ({ t, smtp } = await startTestAppWithMail());
  [other, admin] = await t.createUsers({}, { perfil: 'ADMIN' });
  expect((await t.request.post('/autenticacao/cadastro').send(body)).status).toBe(201);
  const session = await t.request
    .post('/autenticacao/login')
    .send({ email: body.email, senha: body.senha });
  victim = {
    id: session.body.dados.usuario.id,
    auth: { Authorization: `Bearer ${session.body.dados.accessToken}` },
  };
  const v = { ...victim, id: victim.id, nickname: body.nickname } as unknown as TestUser;

  made.ownPost = (await createPost(t, v)).id;
  made.othersEvent = (await createEvent(t, other)).id;
  await t.request
    .post(`/post/${made.othersEvent}/comment`)
    .set(victim.auth)
    .send({ content: 'Eu vou!' })
    .expect(201);
  await t.request.post(`/post/${made.othersEvent}/like`).set(victim.auth).expect(201);
  await t.request.post(`/post/${made.othersEvent}/attendance`).set(victim.auth).expect(201);
  await t.request
    .post(`/post/${made.othersEvent}/report`)
    .set(victim.auth)
    .send({ reason: 'spam' })
    .expect(201);
  await t.request.post(`/post/${made.ownPost}/like`).set(other.auth).expect(201);
  await t.request
    .post(`/post/${made.ownPost}/comment`)
    .set(other.auth)
    .send({ content: 'Legal' })
    .expect(201);
  made.ownMatch = (await createMatch(t, v)).id;
  await t.request.post(`/match/${made.ownMatch}/subscribe`).set(other.auth).expect(201);
  made.othersMatch = (await createMatch(t, other, { maxPlayers: 2 })).id;
  await t.request.post(`/match/${made.othersMatch}/subscribe`).set(victim.auth).expect(201);
  made.shared = (await createGroup(t, v)).id;
  await addMember(t, made.shared, v, other, 'OWNER');
  await t.request.post(`/group/${made.shared}/follow`).set(victim.auth).expect(201);
  made.solo = (await createGroup(t, v)).id;
  made.closed = (await createGroup(t, other)).id;
  await t.request.post(`/group/${made.closed}/requests`).set(victim.auth).expect(201);
  await t.request.post('/exemplos').set(victim.auth).send({ nome: 'Exemplo meu', descricao: 'x' });
  await t.request
    .post('/post')
    .set(victim.auth)
    .set('Idempotency-Key', `k-${suffix}`)
    .send(generalBody(v, { title: 'Idempotente' }))
    .expect(201);
  await t.request.post('/autenticacao/recuperar-senha').send({ email: body.email }).expect(202);
  await smtp.waitFor(body.email);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
});

describe('GET /autenticacao/meus-dados', () => {
  it('every table of the database is either exported or known to hold no personal data', async () => {
    const tables = (await allTables(t))
      .filter((table) => table.schema === 'public')
      .map((table) => table.name);
    const decided = [...Object.keys(PERSONAL_DATA_TABLES), ...Object.keys(IMPERSONAL_TABLES)];
    expect(
      tables.filter((name) => !decided.includes(name)),
      'tables without an LGPD decision',
    ).toEqual([]);
    expect(
      decided.filter((name) => !tables.includes(name)),
      'decisions about no table',
    ).toEqual([]);
  });

  it('holds the rows of every table that names the person, under its section', async () => {
    const res = await t.request.get('/autenticacao/meus-dados').set(victim.auth);
    expect(res.status).toBe(200);
    const data = res.body.dados as Record<string, unknown>;
    expect(data.conta).toMatchObject({
      id: victim.id,
      email: body.email,
      dataNascimento: '2003-05-17',
      cidade: 'Brasília',
    });
    expect(JSON.stringify(data)).not.toMatch(/scrypt\$/);
    const naming = (await tablesNaming(t, victim.id)).filter((name) => name.startsWith('public.'));
    for (const table of naming) {
      const section =
        PERSONAL_DATA_TABLES[table.slice('public.'.length) as keyof typeof PERSONAL_DATA_TABLES];
      expect(section, `${table} names the user but is not exported`).toBeDefined();
      const value = data[section];
      expect(
        Array.isArray(value) ? value.length : value ? 1 : 0,
        `${table} → ${section}`,
      ).toBeGreaterThan(0);
    }
    // The activity made above is all there.
    for (const section of [
      'posts',
      'comentarios',
      'curtidas',
      'presencas',
      'denuncias',
      'partidasCriadas',
      'partidasComoJogador',
      'grupos',
      'pedidosDeEntrada',
      'gruposSeguidos',
      'emails',
      'redefinicoesDeSenha',
      'sessoes',
      'chavesDeIdempotencia',
      'exemplos',
    ])
      expect((data[section] as unknown[]).length, section).toBeGreaterThan(0);
  });
});

describe('DELETE /autenticacao/conta', () => {
  const remove = (senha: string) =>
    t.request.delete('/autenticacao/conta').set(victim.auth).send({ senha });

  it('asks for the password', async () => {
    expect(expectError(await remove('senha-errada-123'), 403, 'FORBIDDEN').reason).toBe(
      'WRONG_PASSWORD',
    );
  });

  it('refuses while the person is the last OWNER of a group (409 LAST_OWNER)', async () => {
    expect(expectError(await remove(body.senha), 409, 'CONFLICT').reason).toBe('LAST_OWNER');
    await t.request.delete(`/group/${made.solo}`).set(victim.auth).expect(204);
  });

  it('erases the person and keeps the history readable, counters exact', async () => {
    expect((await remove(body.senha)).status).toBe(204);
    for (const value of [victim.id, body.email, body.nickname, body.nome]) {
      expect(await tablesNaming(t, value), `rows naming ${value}`).toEqual([]);
    }
    expectError(
      await t.request.get('/autenticacao/usuario-atual').set(victim.auth),
      401,
      'UNAUTHORIZED',
    );

    const [post] = await t.db.select().from(posts).where(eq(posts.id, made.ownPost));
    expect(post).toMatchObject({ authorId: REMOVED_USER.id, author: 'Usuário removido' });
    const read = await t.request.get(`/post/${made.othersEvent}`).set(other.auth);
    expect(
      read.body.comments.map((c: { author: { userName: string } }) => c.author.userName),
    ).toContain('Usuário removido');
    await expectCountersMatchRows(t, made.othersEvent);
    await expectCountersMatchRows(t, made.ownPost);
    expect(await teamCounts(t, made.othersMatch)).toEqual({ A: 0, B: 0 });
    const [match] = await t.db.select().from(matches).where(eq(matches.id, made.ownMatch));
    expect(match!.authorId).toBe(REMOVED_USER.id);
    const counters = await countersAndRows(t, made.shared);
    expect(counters).toMatchObject({
      membersCount: counters.members,
      followersCount: counters.followers,
    });
    expect(counters.members).toBe(1);
    const inbox = await t.db.select().from(notifications).where(eq(notifications.userId, other.id));
    expect(inbox.find((n) => n.type === 'POST_COMMENT')?.message).toMatch(
      /^Usuário removido comentou/,
    );
    const comments = await t.db
      .select()
      .from(postComments)
      .where(eq(postComments.authorId, REMOVED_USER.id));
    expect(comments).toHaveLength(1);
  });

  it('frees the e-mail and the nickname; the removed author cannot sign in', async () => {
    expect((await t.request.post('/autenticacao/cadastro').send(body)).status).toBe(201);
    expectError(
      await t.request
        .post('/autenticacao/login')
        .send({ email: REMOVED_USER.email, senha: 'qualquer-coisa' }),
      400,
      'BAD_REQUEST',
    );
    void admin;
  });
});
