import { describe, expect, it } from 'vitest';
import { adminHelpers } from '../support/admin';
import { expectError, type TestApp, type TestUser, onTestApp } from '../support/app';

/** Who may call the administration endpoints, reading one user, and their documentation. */
let t: TestApp;
let admin: TestUser;
let aluno: TestUser;
let professor: TestUser;
onTestApp(async (app) => {
  t = app;
  admin = await t.createUser({ perfil: 'ADMIN', nome: 'Admin Principal' });
  aluno = await t.createUser({ perfil: 'ALUNO' });
  professor = await t.createUser({ perfil: 'PROFESSOR' });
});
const { trpcQuery, trpcMutation, statusOf, historyOf } = adminHelpers(() => t);

type Auth = Record<string, string>;

describe('only ADMIN may call the administration endpoints', () => {
  const rest = [
    ['GET /admin/usuarios', () => t.request.get('/admin/usuarios')],
    ['GET /admin/usuarios/:id', () => t.request.get(`/admin/usuarios/${aluno.id}`)],
    [
      'PATCH /admin/usuarios/:id/status',
      () => t.request.patch(`/admin/usuarios/${aluno.id}/status`).send({ status: 'INACTIVE' }),
    ],
  ] as const;
  const trpc = [
    ['admin.listUsers', (auth: Auth) => trpcQuery('listUsers', {}, auth)],
    ['admin.getUser', (auth: Auth) => trpcQuery('getUser', { id: aluno.id }, auth)],
    [
      'admin.updateUserStatus',
      (auth: Auth) => trpcMutation('updateUserStatus', { id: aluno.id, status: 'INACTIVE' }, auth),
    ],
  ] as const;

  it.each(rest)(
    '%s: 401 without or with a bad token, 403 ADMIN_REQUIRED for ALUNO and PROFESSOR',
    async (_name, call) => {
      expectError(await call(), 401, 'UNAUTHORIZED');
      expectError(await call().set('Authorization', 'Bearer not-a-jwt'), 401, 'UNAUTHORIZED');
      for (const caller of [aluno, professor]) {
        expect(expectError(await call().set(caller.auth), 403, 'FORBIDDEN').reason).toBe(
          'ADMIN_REQUIRED',
        );
      }
      expect(await statusOf(aluno.id)).toBe('ATIVO');
      expect(await historyOf(aluno.id)).toEqual([]);
    },
  );

  it.each(trpc)(
    '/trpc/%s: 401 without a token, 403 ADMIN_REQUIRED for ALUNO and PROFESSOR',
    async (_name, call) => {
      expect((await call({})).status).toBe(401);
      for (const caller of [aluno, professor]) {
        const res = await call(caller.auth);
        expect(res.status).toBe(403);
        expect(res.body.error.data).toMatchObject({
          appCode: 'FORBIDDEN',
          reason: 'ADMIN_REQUIRED',
        });
      }
      expect(await statusOf(aluno.id)).toBe('ATIVO');
    },
  );

  it('an ADMIN gets 200 from every procedure over /trpc', async () => {
    const target = await t.createUser();
    const list = await trpcQuery(
      'listUsers',
      { limit: 100, perfil: 'ALUNO', status: 'ACTIVE' },
      admin.auth,
    );
    expect(list.status).toBe(200);
    expect(list.body.result.data.dados).toContainEqual({
      id: target.id,
      nome: target.nome,
      email: target.email,
      perfil: 'ALUNO',
      status: 'ATIVO',
    });
    const one = await trpcQuery('getUser', { id: target.id }, admin.auth);
    expect(one.body.result.data.dados).toMatchObject({ id: target.id, nickname: target.nickname });
    const patched = await trpcMutation(
      'updateUserStatus',
      { id: target.id, status: 'INACTIVE' },
      admin.auth,
    );
    expect(patched.status).toBe(200);
    expect(patched.body.result.data.dados).toMatchObject({ id: target.id, status: 'INATIVO' });
    expect(await statusOf(target.id)).toBe('INATIVO');
  });
});

describe('GET /admin/usuarios/:id', () => {
  it('reads one user with nickname, the trailing slash optional', async () => {
    const user = await t.createUser({
      perfil: 'PROFESSOR',
      status: 'PENDENTE',
      nome: 'Professora Pendente',
    });
    for (const path of [`/admin/usuarios/${user.id}`, `/admin/usuarios/${user.id}/`]) {
      const res = await t.request.get(path).set(admin.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        mensagem: expect.any(String),
        dados: {
          id: user.id,
          nome: 'Professora Pendente',
          nickname: user.nickname,
          email: user.email,
          perfil: 'PROFESSOR',
          status: 'PENDENTE',
        },
      });
    }
  });

  it.each(['3f1b7f9e-0000-4000-8000-000000000000', 'not-a-uuid', '123'])(
    '404 for unknown or malformed id %s',
    async (id) => {
      expectError(await t.request.get(`/admin/usuarios/${id}`).set(admin.auth), 404, 'NOT_FOUND');
    },
  );
});

describe('OpenAPI document', () => {
  it('documents the three administration routes', async () => {
    const doc = (await t.request.get('/openapi.json')).body;
    expect(doc.paths['/admin/usuarios'].get).toBeDefined();
    expect(doc.paths['/admin/usuarios/{id}'].get).toBeDefined();
    const patch = doc.paths['/admin/usuarios/{id}/status'].patch;
    expect(JSON.stringify(patch.requestBody)).toContain('INACTIVE');
  });
});
