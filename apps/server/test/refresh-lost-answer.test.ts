import { and, eq, isNotNull } from 'drizzle-orm';
import { LOST_ANSWER_GRACE_MS, refreshTokens } from '@campus/core';
import { describe, expect, it } from 'vitest';
import { expectError, type TestApp, onTestApp } from './support/app';
import { loginAs, logout, me, refresh } from './support/auth';

let t: TestApp;
onTestApp((app) => (t = app));

/**
 * A refresh whose answer never reached the client: the browser left or reloaded the page while
 * `auth.refresh` was under way (the server rotated; the new pair was dropped with the page). The
 * next page only has the rotated token. See docs/decisions.md, "A lost refresh answer".
 */
describe('POST /autenticacao/atualizar-token after a lost answer', () => {
  it('the rotated token, presented again before its successor is used, gives a working pair', async () => {
    const user = await t.createUser();
    const first = (await loginAs(t, user)).body.dados;
    const lost = await refresh(t, first.refreshToken);
    expect(lost.status).toBe(200);

    const again = await refresh(t, first.refreshToken);
    expect(again.status).toBe(200);
    expect((await me(t, again.body.dados.accessToken)).status).toBe(200);
    const next = await refresh(t, again.body.dados.refreshToken);
    expect(next.status).toBe(200);
    // One live token in the family: the chain goes on from the answer the client kept.
    const rows = await t.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(rows.filter((row) => row.revokedAt === null)).toHaveLength(1);
  });

  it('the successor that was replaced, presented later, is a reuse: the whole chain ends', async () => {
    const user = await t.createUser();
    const first = (await loginAs(t, user)).body.dados;
    const stolenSuccessor = (await refresh(t, first.refreshToken)).body.dados;
    const kept = (await refresh(t, first.refreshToken)).body.dados;

    const replay = await refresh(t, stolenSuccessor.refreshToken);
    expect(expectError(replay, 401, 'UNAUTHORIZED').reason).toBe('REFRESH_TOKEN_REUSED');
    expectError(await refresh(t, kept.refreshToken), 401, 'UNAUTHORIZED');
    const rows = await t.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.revokedAt !== null)).toBe(true);
  });

  it('a logout ends the whole chain: the rotated token cannot bring the session back', async () => {
    const user = await t.createUser();
    const first = (await loginAs(t, user)).body.dados;
    // A refresh raced the logout: the page logged out with the token it had read before.
    await refresh(t, first.refreshToken).expect(200);
    await logout(t, user, first.refreshToken).expect(204);
    expectError(await refresh(t, first.refreshToken), 401, 'UNAUTHORIZED');
    const rows = await t.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.revokedAt !== null)).toBe(true);
  });

  it('after the grace, the rotated token is a reuse even if its successor was never used', async () => {
    const user = await t.createUser();
    const first = (await loginAs(t, user)).body.dados;
    const second = (await refresh(t, first.refreshToken)).body.dados;
    // The rotation happened longer ago than the grace; the successor is still unused.
    await t.db
      .update(refreshTokens)
      .set({ revokedAt: new Date(Date.now() - LOST_ANSWER_GRACE_MS - 1000) })
      .where(and(eq(refreshTokens.userId, user.id), isNotNull(refreshTokens.revokedAt)));
    const replay = await refresh(t, first.refreshToken);
    expect(expectError(replay, 401, 'UNAUTHORIZED').reason).toBe('REFRESH_TOKEN_REUSED');
    expectError(await refresh(t, second.refreshToken), 401, 'UNAUTHORIZED');
  });
});
