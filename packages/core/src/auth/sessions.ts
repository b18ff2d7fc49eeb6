import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Executor, Transaction } from '../db/client';
import { unauthorized, type AppError } from '../errors';
import { usuarioColumns } from '../users/records';
import { users } from '../users/table';
import { signAccessToken } from './access-token';
import type { AuthConfig } from './config';
import type { Session, Usuario } from './schemas';
import { refreshTokens } from './table';

/*
 * Sessions: an access token plus a refresh token stored as its SHA-256 hash. Each login starts a
 * family; each refresh revokes the presented token and issues its successor in the same family.
 */

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new session for `user`: its refresh token is stored, the access token signed. */
export async function issueSession(
  db: Executor,
  config: AuthConfig,
  user: Usuario,
  familyId: string = randomUUID(),
): Promise<Session & { refreshTokenId: string }> {
  const refreshToken = randomBytes(32).toString('base64url');
  const [row] = await db
    .insert(refreshTokens)
    .values({
      userId: user.id,
      familyId,
      tokenHash: hashToken(refreshToken),
      expiresAt: new Date(Date.now() + config.refreshTokenTtl * 1000),
    })
    .returning({ id: refreshTokens.id });
  return {
    accessToken: signAccessToken(config, user, familyId),
    refreshToken,
    expiresIn: config.accessTokenTtl,
    usuario: user,
    refreshTokenId: row!.id,
  };
}

export const withoutId = ({
  refreshTokenId: _,
  ...session
}: Session & { refreshTokenId: string }): Session => session;

/**
 * How long after a rotation the rotated token may be presented again while its successor is still
 * unused: the answer carrying the successor was lost (the page was reloaded or left while the
 * refresh was under way, and the browser dropped the response). See docs/decisions.md.
 */
export const LOST_ANSWER_GRACE_MS = 30_000;

/**
 * Rotation inside `tx`: the presented token is revoked and replaced. A token that was already
 * replaced (a replay, or a thief racing the owner) revokes its whole family, except within
 * LOST_ANSWER_GRACE_MS of its rotation while its successor was never used: then that successor
 * is replaced in turn, so that presenting it later still counts as a reuse. A refusal is
 * returned, not thrown, so that the family revocation commits.
 */
export async function rotate(
  tx: Transaction,
  config: AuthConfig,
  presented: string,
): Promise<{ session: Session } | { error: AppError }> {
  const [token] = await tx
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(presented)))
    .for('update');
  if (!token) return { error: unauthorized('Refresh token inválido', 'TOKEN_INVALID') };
  // After a lost answer: the unused successor, dropped for the new token.
  let dropped: string | null = null;
  const notActive = () => unauthorized('Conta não está ativa', 'ACCOUNT_NOT_ACTIVE');
  if (token.revokedAt) {
    if (!token.replacedBy) {
      // Revoked by blocking the account: say so, so that the client can tell its user why.
      const [owner] = await tx
        .select({ status: users.status })
        .from(users)
        .where(eq(users.id, token.userId));
      if (owner && owner.status !== 'ATIVO') return { error: notActive() };
      return { error: unauthorized('Refresh token revogado', 'TOKEN_INVALID') };
    }
    const successor = await unusedSuccessor(tx, token.replacedBy, token.revokedAt);
    if (!successor) {
      await revokeFamily(tx, token.familyId);
      return { error: unauthorized('Refresh token já utilizado', 'REFRESH_TOKEN_REUSED') };
    }
    dropped = successor;
  }
  if (token.expiresAt.getTime() <= Date.now()) {
    return { error: unauthorized('Refresh token expirado', 'TOKEN_EXPIRED') };
  }
  const [user] = await tx.select(usuarioColumns).from(users).where(eq(users.id, token.userId));
  if (!user || user.status !== 'ATIVO') {
    await revokeFamily(tx, token.familyId);
    return { error: notActive() };
  }
  const next = await issueSession(tx, config, user, token.familyId);
  await tx
    .update(refreshTokens)
    // After a lost answer the rotation time stays the first one: the grace does not stretch.
    .set({ revokedAt: token.revokedAt ?? new Date(), replacedBy: next.refreshTokenId })
    .where(eq(refreshTokens.id, token.id));
  if (dropped) {
    // The dropped successor points at itself, a revoked token: presenting it later is a reuse.
    await tx
      .update(refreshTokens)
      .set({ revokedAt: new Date(), replacedBy: dropped })
      .where(eq(refreshTokens.id, dropped));
  }
  return { session: withoutId(next) };
}

/**
 * The successor's id when the rotation was recent and the successor was never presented (locked,
 * so that its owner presenting it now waits for this rotation and then counts as a reuse).
 */
async function unusedSuccessor(tx: Transaction, successorId: string, rotatedAt: Date) {
  if (Date.now() - rotatedAt.getTime() > LOST_ANSWER_GRACE_MS) return null;
  const [successor] = await tx
    .select({ id: refreshTokens.id, revokedAt: refreshTokens.revokedAt })
    .from(refreshTokens)
    .where(eq(refreshTokens.id, successorId))
    .for('update');
  return successor && !successor.revokedAt ? successor.id : null;
}

/** Ends a session: every live token of the family (one login) is revoked. */
export async function revokeFamily(db: Executor, familyId: string) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/**
 * Ends every session of a user (blocking, password reset and change, logout everywhere,
 * deletion), the one place every "end the sessions of this account" goes through: its live
 * refresh tokens are revoked and its access tokens refused from now on, on every process within
 * a second (the change of `sessions_revoked_at` reaches their auth caches). `exceptFamily` keeps
 * one session (the caller's own, on a password change): its refresh token still works, so its
 * access token is renewed by the client's usual refresh after one 401.
 */
export async function revokeUserSessions(
  db: Executor,
  userId: string,
  options: { exceptFamily?: string } = {},
) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        options.exceptFamily ? ne(refreshTokens.familyId, options.exceptFamily) : undefined,
      ),
    );
  await db
    .update(users)
    .set({ sessionsRevokedAt: sql`now()` })
    .where(eq(users.id, userId));
}
