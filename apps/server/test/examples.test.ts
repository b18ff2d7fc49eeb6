import { examples } from '@campus/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp, type TestUser, onTestApp } from './support/app';
import { loginAs } from './support/auth';

let t: TestApp;
let user: TestUser;
onTestApp(async (app) => {
  t = app;
  user = await t.createUser();
});

describe('POST /exemplos', () => {
  it('201 with the record in the envelope, nome trimmed', async () => {
    const res = await t.request
      .post('/exemplos')
      .set(user.auth)
      .send({ nome: '  Exemplo A  ', descricao: 'Uma descrição' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      mensagem: expect.any(String),
      dados: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        nome: 'Exemplo A',
        descricao: 'Uma descrição',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
    const [row] = await t.db.select().from(examples).where(eq(examples.id, res.body.dados.id));
    expect(row).toMatchObject({ nome: 'Exemplo A', createdBy: user.id });
  });

  it('descricao is optional', async () => {
    const res = await t.request.post('/exemplos').set(user.auth).send({ nome: 'Sem descrição' });
    expect(res.status).toBe(201);
    expect(res.body.dados).not.toHaveProperty('descricao');
  });

  it.each([
    ['nome missing', {}, 'nome'],
    ['nome shorter than 3', { nome: 'ab' }, 'nome'],
    ['nome of spaces', { nome: '     ' }, 'nome'],
    ['nome longer than 120', { nome: 'a'.repeat(121) }, 'nome'],
    ['nome not a string', { nome: 123 }, 'nome'],
    ['descricao longer than 500', { nome: 'Válido', descricao: 'a'.repeat(501) }, 'descricao'],
    ['descricao not a string', { nome: 'Válido', descricao: ['x'] }, 'descricao'],
  ])('400 when %s, nothing written', async (_case, body, path) => {
    const before = (await t.db.select().from(examples)).length;
    const res = expectError(
      await t.request.post('/exemplos').set(user.auth).send(body),
      400,
      'BAD_REQUEST',
    );
    expect(res.issues).toEqual([expect.objectContaining({ path })]);
    expect((await t.db.select().from(examples)).length).toBe(before);
  });

  it('401 without a token', async () => {
    expectError(await t.request.post('/exemplos').send({ nome: 'Exemplo' }), 401, 'UNAUTHORIZED');
  });
});

describe('GET /exemplos', () => {
  it('pages newest first with metadados', async () => {
    const other = await startTestApp();
    try {
      const u = await other.createUser();
      for (let i = 1; i <= 5; i++) {
        await other.request
          .post('/exemplos')
          .set(u.auth)
          .send({ nome: `Exemplo ${i}` })
          .expect(201);
      }
      const first = await other.request.get('/exemplos?page=1&limit=2').set(u.auth);
      expect(first.status).toBe(200);
      expect(first.body.dados.map((e: { nome: string }) => e.nome)).toEqual([
        'Exemplo 5',
        'Exemplo 4',
      ]);
      expect(first.body.metadados).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3 });
      const last = await other.request.get('/exemplos?page=3&limit=2').set(u.auth);
      expect(last.body.dados.map((e: { nome: string }) => e.nome)).toEqual(['Exemplo 1']);
      const past = await other.request.get('/exemplos?page=4&limit=2').set(u.auth);
      expect(past.body).toEqual({
        dados: [],
        metadados: { page: 4, limit: 2, total: 5, totalPages: 3 },
      });
      const defaults = await other.request.get('/exemplos').set(u.auth);
      expect(defaults.body.metadados).toMatchObject({ page: 1, limit: 10 });
    } finally {
      await other.close();
    }
  });

  it.each(['page=0', 'page=-1', 'page=abc', 'limit=0', 'limit=101', 'limit=1.5'])(
    '400 for %s',
    async (query) => {
      expectError(await t.request.get(`/exemplos?${query}`).set(user.auth), 400, 'BAD_REQUEST');
    },
  );

  it('401 without a token', async () => {
    expectError(await t.request.get('/exemplos'), 401, 'UNAUTHORIZED');
  });
});

describe('GET /exemplos/:id', () => {
  it('reads one', async () => {
    const created = (await t.request.post('/exemplos').set(user.auth).send({ nome: 'Para ler' }))
      .body.dados;
    const res = await t.request.get(`/exemplos/${created.id}`).set(user.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ mensagem: expect.any(String), dados: created });
  });

  it.each(['3f1b7f9e-0000-4000-8000-000000000000', 'not-a-uuid'])(
    '404 for unknown id %s',
    async (id) => {
      expectError(await t.request.get(`/exemplos/${id}`).set(user.auth), 404, 'NOT_FOUND');
    },
  );
});

describe('an admin token from POST /autenticacao/login, over REST and /trpc', () => {
  it('creates, lists and reads examples both ways', async () => {
    const admin = await t.createUser({ perfil: 'ADMIN' });
    const session = await loginAs(t, admin);
    const auth = { Authorization: `Bearer ${session.body.dados.accessToken}` };

    const rest = await t.request.post('/exemplos').set(auth).send({ nome: 'Via REST' });
    expect(rest.status).toBe(201);

    const created = await t.request
      .post('/trpc/examples.create')
      .set(auth)
      .send({ nome: 'Via tRPC' });
    expect(created.status).toBe(200);
    const viaTrpc = created.body.result.data.dados;
    expect(viaTrpc.nome).toBe('Via tRPC');

    const input = encodeURIComponent(JSON.stringify({ id: rest.body.dados.id }));
    const read = await t.request.get(`/trpc/examples.get?input=${input}`).set(auth);
    expect(read.body.result.data.dados).toEqual(rest.body.dados);

    const list = await t.request
      .get(`/trpc/examples.list?input=${encodeURIComponent('{"limit":100}')}`)
      .set(auth);
    const names = list.body.result.data.dados.map((e: { nome: string }) => e.nome);
    expect(names).toEqual(expect.arrayContaining(['Via REST', 'Via tRPC']));
    expect((await t.request.get(`/exemplos/${viaTrpc.id}`).set(auth)).body.dados.nome).toBe(
      'Via tRPC',
    );
  });

  it('/trpc errors carry the code and no stack', async () => {
    const res = await t.request.post('/trpc/examples.create').set(user.auth).send({ nome: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.error.data).toMatchObject({
      appCode: 'BAD_REQUEST',
      issues: [expect.objectContaining({ path: 'nome' })],
    });
    expect(JSON.stringify(res.body)).not.toContain('stack');
    const unauth = await t.request.post('/trpc/examples.create').send({ nome: 'Exemplo' });
    expect(unauth.status).toBe(401);
  });
});
