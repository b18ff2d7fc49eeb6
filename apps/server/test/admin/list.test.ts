import { rowCounts, users } from '@campus/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp, type TestUser } from '../support/app';

// GET /admin/usuarios in a file (and so a database) of its own, so that totals and pages are exact.
describe('GET /admin/usuarios', () => {
  let t: TestApp;
  let listAdmin: TestUser;
  /** Every user of this database, oldest first. */
  const created: TestUser[] = [];
  const named: Record<string, TestUser> = {};
  const list = (query = '') => t.request.get(`/admin/usuarios${query}`).set(listAdmin.auth);
  const ids = (res: { body: { dados: { id: string }[] } }) => res.body.dados.map((u) => u.id);
  const newestFirst = (...people: TestUser[]) => [...people].reverse().map((u) => u.id);

  beforeAll(async () => {
    t = await startTestApp();
    listAdmin = await t.createUser({ perfil: 'ADMIN', nome: 'Admin Lista' });
    created.push(listAdmin);
    const seed = [
      ['ana', { nome: 'Ana Souza' }],
      ['bruno', { nome: 'Bruno Lima', status: 'PENDENTE' }],
      ['carla', { nome: 'Carla 100% Dias', perfil: 'PROFESSOR' }],
      ['daviUnderscore', { nome: 'Davi_Rocha', perfil: 'PROFESSOR', status: 'INATIVO' }],
      ['elisa', { nome: 'Elisa Ana', status: 'INATIVO' }],
      ['daviSpace', { nome: 'Davi Rocha', perfil: 'PROFESSOR' }],
      ['turma', { nome: 'Turma 1000' }],
    ] as const;
    for (const [key, overrides] of seed) {
      named[key] = await t.createUser(overrides);
      created.push(named[key]);
    }
    for (let i = 1; i <= 15; i++) created.push(await t.createUser({ nome: `Pessoa Extra ${i}` }));
    // One second apart in creation order: PGlite's clock counts milliseconds, so inserts in a row
    // may share an instant.
    const start = Date.now() - 3_600_000;
    for (const [i, user] of created.entries()) {
      await t.db
        .update(users)
        .set({ createdAt: new Date(start + i * 1000) })
        .where(eq(users.id, user.id));
    }
  });
  afterAll(() => t.close());

  it('pages newest first: first, middle and last page, past the end, defaults', async () => {
    expect(created).toHaveLength(23);
    const all = newestFirst(...created);

    const defaults = await list();
    expect(defaults.status).toBe(200);
    expect(defaults.body.metadados).toEqual({ page: 1, limit: 10, total: 23, totalPages: 3 });
    expect(ids(defaults)).toEqual(all.slice(0, 10));
    const newest = created.at(-1)!;
    expect(defaults.body.dados[0]).toEqual({
      id: newest.id,
      nome: newest.nome,
      email: newest.email,
      perfil: 'ALUNO',
      status: 'ATIVO',
    });

    const middle = await list('?page=2&limit=10');
    expect(ids(middle)).toEqual(all.slice(10, 20));
    expect(middle.body.metadados).toEqual({ page: 2, limit: 10, total: 23, totalPages: 3 });
    const last = await list('?page=3&limit=10');
    expect(ids(last)).toEqual(all.slice(20));
    expect(ids(last).at(-1)).toBe(listAdmin.id);
    expect(await list('?page=4&limit=10').then((r) => r.body)).toEqual({
      dados: [],
      metadados: { page: 4, limit: 10, total: 23, totalPages: 3 },
    });
    expect(ids(await list('?limit=100'))).toEqual(all);
    expect(ids(await list('/?limit=100'))).toEqual(all);
  });

  it('breaks a tie of created_at by id, descending', async () => {
    const [a, b] = [named.ana!, named.bruno!];
    const [bRow] = await t.db.select().from(users).where(eq(users.id, b.id));
    const [aRow] = await t.db.select().from(users).where(eq(users.id, a.id));
    await t.db.update(users).set({ createdAt: bRow!.createdAt }).where(eq(users.id, a.id));
    try {
      const rows = await t.db.select({ id: users.id, createdAt: users.createdAt }).from(users);
      rows.sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime() || (x.id < y.id ? 1 : -1));
      const listed = ids(await list('?limit=100'));
      expect(listed).toEqual(rows.map((r) => r.id));
      const pair = listed.filter((id) => id === a.id || id === b.id);
      expect(pair).toEqual([a.id, b.id].sort().reverse());
    } finally {
      await t.db.update(users).set({ createdAt: aRow!.createdAt }).where(eq(users.id, a.id));
    }
  });

  it('reads the unfiltered total from row_counts', async () => {
    await t.db.update(rowCounts).set({ rowCount: 1000 }).where(eq(rowCounts.tableName, 'users'));
    try {
      expect((await list()).body.metadados).toEqual({
        page: 1,
        limit: 10,
        total: 1000,
        totalPages: 100,
      });
    } finally {
      await t.db.update(rowCounts).set({ rowCount: 23 }).where(eq(rowCounts.tableName, 'users'));
    }
  });

  it.each(['page=0', 'page=-1', 'page=abc', 'limit=0', 'limit=101', 'limit=abc', 'limit=1.5'])(
    '400 for %s',
    async (query) => {
      expectError(await list(`?${query}`), 400, 'BAD_REQUEST');
    },
  );

  it.each([
    ['status=PENDENTE', () => [named.bruno!]],
    ['status=PENDING', () => [named.bruno!]],
    ['status=INATIVO', () => [named.daviUnderscore!, named.elisa!]],
    ['status=INACTIVE', () => [named.daviUnderscore!, named.elisa!]],
    ['perfil=PROFESSOR', () => [named.carla!, named.daviUnderscore!, named.daviSpace!]],
    ['perfil=ADMIN', () => [listAdmin]],
    ['perfil=PROFESSOR&status=ACTIVE', () => [named.carla!, named.daviSpace!]],
    ['busca=davi&perfil=PROFESSOR&status=INACTIVE', () => [named.daviUnderscore!]],
    ['busca=ana', () => [named.ana!, named.elisa!]],
    ['busca=%20%20ANA%20', () => [named.ana!, named.elisa!]],
    ['busca=100%25', () => [named.carla!]],
    ['busca=davi_rocha', () => [named.daviUnderscore!]],
    ['busca=DAVI', () => [named.daviUnderscore!, named.daviSpace!]],
  ])('filters by %s, with an exact total', async (query, expected) => {
    const res = await list(`?limit=100&${query}`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(newestFirst(...expected()));
    expect(res.body.metadados).toEqual({
      page: 1,
      limit: 100,
      total: expected().length,
      totalPages: 1,
    });
  });

  it('busca finds nickname and e-mail in any case, and pages filtered results', async () => {
    const ana = named.ana!;
    expect(ids(await list(`?busca=${ana.nickname.toUpperCase()}`))).toEqual([ana.id]);
    expect(ids(await list(`?busca=${encodeURIComponent(ana.email.toUpperCase())}`))).toEqual([
      ana.id,
    ]);
    const active = await list('?status=ATIVO&limit=6&page=4');
    expect(active.body.metadados).toEqual({ page: 4, limit: 6, total: 20, totalPages: 4 });
    expect(active.body.dados).toHaveLength(2);
    expect(active.body.dados.every((u: { status: string }) => u.status === 'ATIVO')).toBe(true);
  });

  it.each([
    'status=BLOCKED',
    'status=ativo',
    'perfil=ROOT',
    'perfil=aluno',
    'busca=%20%20',
    `busca=${'a'.repeat(121)}`,
  ])('400 for %s', async (query) => {
    const body = expectError(await list(`?${query}`), 400, 'BAD_REQUEST');
    expect(body.issues).toEqual([expect.objectContaining({ path: query.split('=')[0] })]);
  });
});
