import { refreshTokens, users } from '@campus/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { adminHelpers, asChain } from '../support/admin';
import { expectError, type TestApp, type TestUser, onTestApp } from '../support/app';
import { loginAs, me, refresh, meAnswersWithinASecond } from '../support/auth';

/** Changing an account's status: the change, its history, its effect on sessions, under concurrency. */
let t: TestApp;
let admin: TestUser;
onTestApp(async (app) => {
  t = app;
  admin = await t.createUser({ perfil: 'ADMIN', nome: 'Admin Principal' });
});
const { patchStatus, historyOf, statusOf } = adminHelpers(() => t);

describe('PATCH /admin/usuarios/:id/status', () => {
  it.each([
    ['INACTIVE', 'ATIVO', 'INATIVO'],
    ['INATIVO', 'ATIVO', 'INATIVO'],
    ['PENDING', 'ATIVO', 'PENDENTE'],
    ['PENDENTE', 'INATIVO', 'PENDENTE'],
    ['ACTIVE', 'PENDENTE', 'ATIVO'],
    ['ATIVO', 'INATIVO', 'ATIVO'],
  ] as const)(
    '%s moves a %s user to %s, answered in Portuguese and recorded',
    async (sent, from, to) => {
      const user = await t.createUser({ perfil: 'PROFESSOR', status: from });
      const longAgo = new Date('2020-01-01T00:00:00Z');
      await t.db.update(users).set({ updatedAt: longAgo }).where(eq(users.id, user.id));
      const res = await patchStatus(admin.auth, user.id, sent);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        mensagem: expect.any(String),
        dados: { id: user.id, nome: user.nome, email: user.email, perfil: 'PROFESSOR', status: to },
      });
      const [after] = await t.db.select().from(users).where(eq(users.id, user.id));
      expect(after!.status).toBe(to);
      expect(after!.updatedAt.getTime()).toBeGreaterThan(longAgo.getTime());
      expect(await historyOf(user.id)).toEqual([
        {
          id: expect.any(String),
          userId: user.id,
          changedBy: admin.id,
          fromStatus: from,
          toStatus: to,
          changedAt: expect.any(Date),
        },
      ]);
    },
  );

  it('setting the current status again answers 200 and records nothing', async () => {
    const user = await t.createUser();
    const [before] = await t.db.select().from(users).where(eq(users.id, user.id));
    const res = await patchStatus(admin.auth, user.id, 'ACTIVE');
    expect(res.status).toBe(200);
    expect(res.body.dados.status).toBe('ATIVO');
    expect(await historyOf(user.id)).toEqual([]);
    const [after] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(after!.updatedAt).toEqual(before!.updatedAt);
  });

  it('keeps every change in order: approval, blocking, reactivation', async () => {
    const user = await t.createUser({ status: 'PENDENTE' });
    for (const status of ['ACTIVE', 'INACTIVE', 'ATIVO'])
      await patchStatus(admin.auth, user.id, status).expect(200);
    const history = asChain('PENDENTE', await historyOf(user.id));
    expect(history.map((h) => [h.fromStatus, h.toStatus])).toEqual([
      ['PENDENTE', 'ATIVO'],
      ['ATIVO', 'INATIVO'],
      ['INATIVO', 'ATIVO'],
    ]);
  });

  it('403 CANNOT_CHANGE_OWN_STATUS for the caller itself', async () => {
    const body = expectError(await patchStatus(admin.auth, admin.id, 'INACTIVE'), 403, 'FORBIDDEN');
    expect(body.reason).toBe('CANNOT_CHANGE_OWN_STATUS');
    expect(await statusOf(admin.id)).toBe('ATIVO');
    expect(await historyOf(admin.id)).toEqual([]);
  });

  it('403 CANNOT_CHANGE_ADMIN_STATUS for another ADMIN', async () => {
    const other = await t.createUser({ perfil: 'ADMIN' });
    const body = expectError(await patchStatus(admin.auth, other.id, 'INACTIVE'), 403, 'FORBIDDEN');
    expect(body.reason).toBe('CANNOT_CHANGE_ADMIN_STATUS');
    expect(await statusOf(other.id)).toBe('ATIVO');
    expect(await historyOf(other.id)).toEqual([]);
  });

  it.each(['3f1b7f9e-0000-4000-8000-000000000000', 'not-a-uuid'])(
    '404 for unknown or malformed id %s',
    async (id) => {
      expectError(await patchStatus(admin.auth, id, 'INACTIVE'), 404, 'NOT_FOUND');
    },
  );

  it.each([['BLOCKED'], ['active'], [''], [null], [1], [undefined]])(
    '400 for status %j, nothing changed',
    async (status) => {
      const user = await t.createUser();
      const body = expectError(await patchStatus(admin.auth, user.id, status), 400, 'BAD_REQUEST');
      expect(body.issues).toEqual([expect.objectContaining({ path: 'status' })]);
      expect(await statusOf(user.id)).toBe('ATIVO');
      expect(await historyOf(user.id)).toEqual([]);
    },
  );
});

describe('blocking takes effect at once', () => {
  it.each(['INACTIVE', 'PENDING'])(
    '%s: the live access and refresh tokens get 401; ACTIVE lets the user in again',
    async (status) => {
      const user = await t.createUser();
      const session = (await loginAs(t, user).expect(200)).body.dados;
      const untouched = (await loginAs(t, user).expect(200)).body.dados;
      expect((await me(t, session.accessToken)).status).toBe(200);

      await patchStatus(admin.auth, user.id, status).expect(200);
      // Revoked by the PATCH itself, before anyone presents them.
      const tokens = await t.db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.userId, user.id));
      expect(tokens).toHaveLength(2);
      expect(tokens.every((token) => token.revokedAt !== null)).toBe(true);
      // Both say why, so that the browser can tell its user (issue 17).
      await meAnswersWithinASecond(t, session.accessToken, 401);
      expect(expectError(await me(t, session.accessToken), 401, 'UNAUTHORIZED').reason).toBe(
        'ACCOUNT_NOT_ACTIVE',
      );
      expect(expectError(await refresh(t, session.refreshToken), 401, 'UNAUTHORIZED').reason).toBe(
        'ACCOUNT_NOT_ACTIVE',
      );
      // Login says why (docs/contract/accounts.md, Teacher registration): a PENDENTE account waits
      // for approval.
      expect(expectError(await loginAs(t, user), 403, 'FORBIDDEN').reason).toBe(
        status === 'PENDING' ? 'ACCOUNT_PENDING' : 'ACCOUNT_NOT_ACTIVE',
      );

      await patchStatus(admin.auth, user.id, 'ACTIVE').expect(200);
      const again = await loginAs(t, user);
      expect(again.status).toBe(200);
      await meAnswersWithinASecond(t, again.body.dados.accessToken, 200);
      // Sessions from before the block stay ended: revoked, not only refused while blocked.
      expectError(await refresh(t, untouched.refreshToken), 401, 'UNAUTHORIZED');
    },
  );
});

describe('concurrent status changes', () => {
  it('10 simultaneous PATCHes leave a history that is one chain ending at the final status', async () => {
    const user = await t.createUser();
    const admins = [admin, await t.createUser({ perfil: 'ADMIN' })];
    const sent = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? 'INACTIVE' : 'ACTIVE'));
    const responses = await Promise.all(
      sent.map((status, i) => patchStatus(admins[i % 2]!.auth, user.id, status)),
    );
    responses.forEach((res, i) => {
      expect(res.status).toBe(200);
      expect(res.body.dados.status).toBe(sent[i] === 'INACTIVE' ? 'INATIVO' : 'ATIVO');
    });

    const history = asChain('ATIVO', await historyOf(user.id));
    expect(history.length).toBeGreaterThan(0);
    expect(history[0]!.fromStatus).toBe('ATIVO');
    for (let i = 1; i < history.length; i++) {
      expect(history[i]!.fromStatus).toBe(history[i - 1]!.toStatus);
    }
    for (const h of history) expect(h.fromStatus).not.toBe(h.toStatus);
    expect(history.at(-1)!.toStatus).toBe(await statusOf(user.id));
  });
});
