import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client';
import { AppError, forbidden, unauthorized } from '../errors';
import { users, type UserRow } from '../users/table';
import { verifyAccessToken, signAccessToken } from './access-token';
import type { AuthConfig } from './config';
import { decoyPasswordHash, hashPassword, verifyPassword } from './password';
import type { Session, Usuario } from './schemas';
import { refreshTokens } from './table';

/** The caller of an authenticated request, as loaded from the database on each request. */
export type AuthUser = Usuario;

export const toUsuario = (u: Pick<UserRow, keyof Usuario>): Usuario => ({
  id: u.id,
  nome: u.nome,
  nickname: u.nickname,
  email: u.email,
  perfil: u.perfil,
  status: u.status,
});

const usuarioColumns = {
  id: users.id,
  nome: users.nome,
  nickname: users.nickname,
  email: users.email,
  perfil: users.perfil,
  status: users.status,
};

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

async function issueSession(
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
    accessToken: signAccessToken(config, user),
    refreshToken,
    expiresIn: config.accessTokenTtl,
    usuario: user,
    refreshTokenId: row!.id,
  };
}

const withoutId = ({ refreshTokenId: _, ...session }: Session & { refreshTokenId: string }) =>
  session;

/** E-mail and password → a new session. The same 401 for an unknown e-mail and a wrong password. */
export async function login(
  db: Database,
  config: AuthConfig,
  input: { email: string; senha: string },
): Promise<Session> {
  const [user] = await db.select().from(users).where(eq(users.email, input.email));
  // Verify against a decoy hash when the e-mail is unknown, so timing does not reveal accounts.
  const ok = await verifyPassword(
    input.senha,
    user?.passwordHash ?? (await decoyPasswordHash(config.passwordCost)),
  );
  if (!user || !ok) throw unauthorized('E-mail ou senha inválidos', 'INVALID_CREDENTIALS');
  if (user.status !== 'ATIVO') throw forbidden('Conta não está ativa', 'ACCOUNT_NOT_ACTIVE');
  return withoutId(await issueSession(db, config, toUsuario(user)));
}

/**
 * Rotation: the presented token is revoked and replaced in one transaction. A token that was
 * already replaced (a replay, or a thief racing the owner) revokes its whole family.
 */
export async function refreshSession(
  db: Database,
  config: AuthConfig,
  presented: string,
): Promise<Session> {
  const tokenHash = hashToken(presented);
  const outcome = await db.transaction(async (tx) => {
    const [token] = await tx
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, tokenHash))
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
  });
  // The family revocation above must commit, so the error is thrown after the transaction.
  if ('error' in outcome) throw outcome.error;
  return outcome.session;
}

async function revokeFamily(db: Executor, familyId: string) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Revokes every live refresh token of a user (blocking, password change). */
export async function revokeUserSessions(db: Executor, userId: string) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}

/** Logout: the caller's refresh token stops working. Idempotent. */
export async function logout(db: Database, userId: string, presented: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(refreshTokens.tokenHash, hashToken(presented)),
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
      ),
    );
}

/**
 * Bearer token → the current user. The user is read on every request (one primary-key lookup,
 * a prepared statement), so a deleted or blocked account is refused at once, not at expiry.
 */
export function createAuthenticator(db: Database, config: AuthConfig) {
  const findUser = db
    .select(usuarioColumns)
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('auth_find_user');
  return async function authenticate(token: string): Promise<AuthUser> {
    const claims = verifyAccessToken(config, token);
    const [user] = await findUser.execute({ id: claims.sub });
    if (!user) throw unauthorized('Usuário não encontrado', 'TOKEN_INVALID');
    if (user.status !== 'ATIVO') throw unauthorized('Conta não está ativa', 'ACCOUNT_NOT_ACTIVE');
    return user;
  };
}

/**
 * Makes sure an ADMIN account with this e-mail exists. An existing account keeps its password;
 * it is promoted to ADMIN and activated if it was not.
 */
export async function ensureAdmin(
  db: Database,
  config: AuthConfig,
  input: { email: string; password: string },
): Promise<'created' | 'exists'> {
  const email = input.email.toLowerCase();
  const [existing] = await db
    .select({ id: users.id, perfil: users.perfil, status: users.status })
    .from(users)
    .where(eq(users.email, email));
  if (existing) {
    if (existing.perfil !== 'ADMIN' || existing.status !== 'ATIVO') {
      await db
        .update(users)
        .set({ perfil: 'ADMIN', status: 'ATIVO', updatedAt: new Date() })
        .where(eq(users.id, existing.id));
    }
    return 'exists';
  }
  const passwordHash = await hashPassword(input.password, config.passwordCost);
  const nickname = await freeAdminNickname(db);
  await db
    .insert(users)
    .values({
      nome: 'Administrador',
      nickname,
      email,
      passwordHash,
      perfil: 'ADMIN',
      status: 'ATIVO',
    })
    .onConflictDoNothing();
  return 'created';
}

async function freeAdminNickname(db: Database): Promise<string> {
  for (let i = 0; ; i++) {
    const candidate = i === 0 ? 'admin' : `admin_${i}`;
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.nickname, candidate));
    if (!taken) return candidate;
    if (i > 1000) throw new AppError('INTERNAL_SERVER_ERROR', 'no free admin nickname');
  }
}
