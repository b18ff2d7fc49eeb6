import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
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
 * Rotation inside `tx`: the presented token is revoked and replaced. A token that was already
 * replaced (a replay, or a thief racing the owner) revokes its whole family. A refusal is
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
  if (token.revokedAt) {
    if (token.replacedBy) {
      await revokeFamily(tx, token.familyId);
      return { error: unauthorized('Refresh token já utilizado', 'REFRESH_TOKEN_REUSED') };
    }
    return { error: unauthorized('Refresh token revogado', 'TOKEN_INVALID') };
  }
  if (token.expiresAt.getTime() <= Date.now()) {
    return { error: unauthorized('Refresh token expirado', 'TOKEN_EXPIRED') };
  }
  const [user] = await tx.select(usuarioColumns).from(users).where(eq(users.id, token.userId));
  if (!user || user.status !== 'ATIVO') {
    await revokeFamily(tx, token.familyId);
    return { error: unauthorized('Conta não está ativa', 'ACCOUNT_NOT_ACTIVE') };
  }
  const next = await issueSession(tx, config, user, token.familyId);
  await tx
    .update(refreshTokens)
    .set({ revokedAt: new Date(), replacedBy: next.refreshTokenId })
    .where(eq(refreshTokens.id, token.id));
  return { session: withoutId(next) };
}

async function revokeFamily(db: Executor, familyId: string) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/**
 * Revokes every live refresh token of a user: blocking, password reset and change, deletion.
 * The one place every "end the sessions of this account" goes through. `exceptFamily` keeps
 * one session (the caller's own, on a password change).
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
}
