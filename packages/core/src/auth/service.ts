import { and, eq, isNull } from 'drizzle-orm';
import type { Actor } from '../common/actor';
import type { Database } from '../db/client';
import { AppError, forbidden, unauthorized } from '../errors';
import { actorColumns, prepareUserById, usuarioColumns } from '../users/records';
import { users } from '../users/table';
import { verifyAccessToken, type AccessTokenClaims } from './access-token';
import type { AuthConfig } from './config';
import { decoyPasswordHash, hashPassword, verifyPassword } from './password';
import type { Session, Usuario } from './schemas';
import { hashToken, issueSession, rotate, withoutId } from './sessions';
import { refreshTokens } from './table';

export { revokeUserSessions } from './sessions';

/** Sign-in, sessions, and the `Actor` of each authenticated request. */
export function createAuthService(db: Database, config: AuthConfig) {
  // The account is read on every request (one primary-key lookup, a prepared statement), so a
  // deleted or blocked account is refused at once, not at the token's expiry.
  const actorById = prepareUserById(db, actorColumns, 'auth_find_actor');
  const usuarioById = prepareUserById(db, usuarioColumns, 'auth_find_usuario');

  return {
    /** Bearer token → the signed-in user: a valid token of an existing, ATIVO account. */
    async authenticate(token: string): Promise<Actor> {
      const claims = verifyAccessToken(config, token);
      const [actor] = await actorById.execute({ id: claims.sub });
      if (!actor) throw unauthorized('Usuário não encontrado', 'TOKEN_INVALID');
      if (actor.status !== 'ATIVO')
        throw unauthorized('Conta não está ativa', 'ACCOUNT_NOT_ACTIVE');
      return actor;
    },

    /** An access token's verified claims (expiry included), without reading the account; 401 otherwise. */
    claims: (token: string): AccessTokenClaims => verifyAccessToken(config, token),

    /** The actor's account as its owner sees it. */
    async me(actor: Actor): Promise<Usuario> {
      const [usuario] = await usuarioById.execute({ id: actor.id });
      if (!usuario) throw unauthorized('Usuário não encontrado', 'TOKEN_INVALID');
      return usuario;
    },

    /** E-mail and password → a new session. The same 401 for an unknown e-mail and a wrong password. */
    async login(input: { email: string; senha: string }): Promise<Session> {
      const [found] = await db
        .select({ ...usuarioColumns, passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.email, input.email));
      // Verify against a decoy hash when the e-mail is unknown, so timing does not reveal accounts.
      const ok = await verifyPassword(
        input.senha,
        found?.passwordHash ?? (await decoyPasswordHash(config.passwordCost)),
      );
      if (!found || !ok) throw unauthorized('E-mail ou senha inválidos', 'INVALID_CREDENTIALS');
      const { passwordHash: _, ...usuario } = found;
      if (usuario.status === 'PENDENTE')
        throw forbidden('Cadastro aguardando aprovação de um administrador', 'ACCOUNT_PENDING');
      if (usuario.status !== 'ATIVO') throw forbidden('Conta não está ativa', 'ACCOUNT_NOT_ACTIVE');
      return withoutId(await issueSession(db, config, usuario));
    },

    /**
     * Rotation: the presented token is revoked and replaced in one transaction. A token that was
     * already replaced (a replay, or a thief racing the owner) revokes its whole family.
     */
    async refresh(presented: string): Promise<Session> {
      const outcome = await db.transaction((tx) => rotate(tx, config, presented));
      // The family revocation must commit, so the error is thrown after the transaction.
      if ('error' in outcome) throw outcome.error;
      return outcome.session;
    },

    /** Logout: the actor's refresh token stops working. Idempotent. */
    async logout(actor: Actor, presented: string): Promise<void> {
      await db
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(
          and(
            eq(refreshTokens.tokenHash, hashToken(presented)),
            eq(refreshTokens.userId, actor.id),
            isNull(refreshTokens.revokedAt),
          ),
        );
    },

    /**
     * Makes sure an ADMIN account with this e-mail exists. An existing account keeps its
     * password; it is promoted to ADMIN and activated if it was not.
     */
    async ensureAdmin(input: { email: string; password: string }): Promise<'created' | 'exists'> {
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
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;

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
