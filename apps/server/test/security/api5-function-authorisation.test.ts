import { users } from '@campus/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, type TestApp, type TestUser, onTestApp } from '../support/app';
import {
  documentedOperations,
  expectTrpcError,
  procedures,
  sendRest,
  tableCounts,
  trpc,
} from './support';
import { createFixtures, validRequests, type RestInput } from './valid-requests';

/** Every ADMIN procedure, called over REST and /trpc by everyone who is not an ADMIN. */
let t: TestApp;
let student: TestUser;
let professor: TestUser;
let admin: TestUser;
let target: TestUser;
let valid: Record<string, RestInput>;
onTestApp(async (app) => {
  t = app;
  [student, professor, admin] = await t.createUsers(
    {},
    { perfil: 'PROFESSOR' },
    { perfil: 'ADMIN' },
  );
  const fixtures = await createFixtures(t, await t.createUser());
  target = fixtures.owner;
  valid = validRequests(fixtures);
  // The status change asks for INATIVO, so a wrongly admitted call would show in the table.
  valid['PATCH /admin/usuarios/{id}/status']!.body = { status: 'INACTIVE' };
});

const adminProcedures = procedures.filter((p) => p.path.startsWith('admin.'));
const adminOperations = documentedOperations.filter((op) => op.procedure.startsWith('admin.'));
/** The tRPC input of a REST request: path, query and body in one object. */
const trpcInput = (input: RestInput) => ({ ...input.query, ...input.body, ...input.params });

describe('API5:2023 Broken Function Level Authorization', () => {
  it('the ADMIN procedures are the whole administration API: every /admin route belongs to one', () => {
    expect(adminProcedures.map((p) => p.path).sort()).toEqual([
      'admin.decideDenuncia',
      'admin.getUser',
      'admin.listDenuncias',
      'admin.listUsers',
      'admin.updateUserStatus',
    ]);
    const adminRoutes = documentedOperations.filter((op) => op.path.startsWith('/admin'));
    expect(adminRoutes.map((op) => op.procedure).sort()).toEqual(
      adminProcedures.map((p) => p.path).sort(),
    );
  });

  it('ALUNO and PROFESSOR → 403 ADMIN_REQUIRED on every ADMIN procedure, REST and /trpc; nothing changes', async () => {
    const counts = await tableCounts(t.db);
    for (const caller of [student, professor]) {
      for (const op of adminOperations) {
        const rest = await sendRest(t.request, op, valid[op.key]!, caller.auth);
        expect(expectError(rest, 403, 'FORBIDDEN').reason, `${caller.perfil} ${op.key}`).toBe(
          'ADMIN_REQUIRED',
        );
        const viaTrpc = await trpc(t.request, op.procedure, trpcInput(valid[op.key]!), caller.auth);
        expect(expectTrpcError(viaTrpc, 403, 'FORBIDDEN').data.reason).toBe('ADMIN_REQUIRED');
      }
    }
    expect(await tableCounts(t.db)).toEqual(counts);
    expect((await t.db.select().from(users).where(eq(users.id, target.id)))[0]!.status).toBe(
      'ATIVO',
    );
  });

  it('no token, or a malformed Authorization header → 401 on every ADMIN procedure, REST and /trpc', async () => {
    for (const op of adminOperations) {
      expectError(await sendRest(t.request, op, valid[op.key]!), 401, 'UNAUTHORIZED');
      expectTrpcError(
        await trpc(t.request, op.procedure, trpcInput(valid[op.key]!)),
        401,
        'UNAUTHORIZED',
      );
      for (const header of [
        'Bearer',
        'Bearer ',
        `Basic ${Buffer.from('admin:admin').toString('base64')}`,
        admin.token,
      ]) {
        const res = await sendRest(t.request, op, valid[op.key]!, { Authorization: header });
        expectError(res, 401, 'UNAUTHORIZED');
      }
    }
  });

  it('authorisation comes before validation: a non-ADMIN with invalid input learns nothing but 403', async () => {
    const res = await t.request
      .patch('/admin/usuarios/not-an-id/status')
      .set(student.auth)
      .send({ status: 'SUPERUSER' });
    expect(expectError(res, 403, 'FORBIDDEN').issues).toBeUndefined();
    expectError(
      await t.request.get('/admin/usuarios?limit=100000&perfil=ROOT').set(student.auth),
      403,
      'FORBIDDEN',
    );
  });

  it('the perfil is not taken from the token: an ADMIN demoted to ALUNO is refused with its old token', async () => {
    const demoted = await t.createUser({ perfil: 'ADMIN' });
    await t.request.get('/admin/usuarios').set(demoted.auth).expect(200);
    await t.db.update(users).set({ perfil: 'ALUNO' }).where(eq(users.id, demoted.id));
    // The change reaches the process's account cache through LISTEN/NOTIFY once it commits.
    const changed = Date.now();
    let res = await t.request.get('/admin/usuarios').set(demoted.auth);
    while (res.status === 200 && Date.now() - changed < 10_000)
      res = await t.request.get('/admin/usuarios').set(demoted.auth);
    expectError(res, 403, 'FORBIDDEN');
  });

  it.each(['INATIVO', 'PENDENTE'] as const)(
    'an ADMIN account that is %s → 401 on every ADMIN procedure',
    async (status) => {
      const blocked = await t.createUser({ perfil: 'ADMIN', status });
      for (const op of adminOperations)
        expectError(
          await sendRest(t.request, op, valid[op.key]!, blocked.auth),
          401,
          'UNAUTHORIZED',
        );
    },
  );

  it('a tRPC batch does not smuggle an ADMIN call in with an allowed one', async () => {
    const res = await t.request
      .get('/trpc/auth.me,admin.listUsers?batch=1&input=%7B%7D')
      .set(student.auth);
    expect(res.body[0].result.data.dados.id).toBe(student.id);
    expect(res.body[1].error.data).toMatchObject({
      httpStatus: 403,
      appCode: 'FORBIDDEN',
      reason: 'ADMIN_REQUIRED',
    });
    expect(JSON.stringify(res.body[1])).not.toContain(target.email);
  });

  it('other methods on the ADMIN paths are refused (405), and a method-override header is not obeyed', async () => {
    const statusPath = `/admin/usuarios/${target.id}/status`;
    for (const method of ['get', 'post', 'put', 'delete'] as const) {
      const res = await t.request[method](statusPath)
        .set(student.auth)
        .send({ status: 'INACTIVE' });
      expectError(res, 405, 'METHOD_NOT_SUPPORTED');
      expect(res.headers.allow).toBe('PATCH, OPTIONS');
    }
    const overridden = await t.request
      .post(statusPath)
      .set(admin.auth)
      .set('X-HTTP-Method-Override', 'PATCH')
      .send({ status: 'INACTIVE' });
    expectError(overridden, 405, 'METHOD_NOT_SUPPORTED');
    expect((await t.db.select().from(users).where(eq(users.id, target.id)))[0]!.status).toBe(
      'ATIVO',
    );
  });

  it('an ADMIN is let through on every ADMIN procedure (the refusals above are about the caller)', async () => {
    for (const op of adminOperations) {
      const res = await sendRest(t.request, op, valid[op.key]!, admin.auth);
      expect(res.status, `${op.key}: ${res.text}`).toBe(200);
    }
    expect((await t.db.select().from(users).where(eq(users.id, target.id)))[0]!.status).toBe(
      'INATIVO',
    );
  });
});
