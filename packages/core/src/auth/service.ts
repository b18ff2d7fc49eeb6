import { and, eq } from 'drizzle-orm';
import type { Actor } from '../common/actor';
import type { Database } from '../db/client';
import type { EventBus } from '../events/bus';
import { AppError, forbidden, unauthorized } from '../errors';
import { actorColumns, prepareUserById, usuarioColumns } from '../users/records';
import { users } from '../users/table';
import { verifyAccessToken, type AccessTokenClaims } from './access-token';
import type { AuthConfig } from './config';
import { decoyPasswordHash, hashPassword, verifyPassword } from './password';
import type { Session, Usuario } from './schemas';
import { createAccountCache } from './account-cache';
import { hashToken, issueSession, revokeFamily, rotate, withoutId } from './sessions';
import { refreshTokens } from './table';

export { revokeUserSessions } from './sessions';

/** Sign-in, sessions, and the `Actor` of each authenticated request. */
export function createAuthService(db: Database, config: AuthConfig, bus?: EventBus) {
  // The account comes from the process's cache, which every process empties of an account when
  // its row changes (event bus), so a deleted or blocked account is refused on every process as
  // soon as the event arrives (within a second, docs/decisions.md), not at the token's expiry,
  // without a read per request (account-cache.ts).
  const accountById = prepareUserById(
    db,
    { ...actorColumns, sessionsRevokedAt: users.sessionsRevokedAt },
    'auth_find_actor',
  );
  const accounts = createAccountCache(async (id) => {
    const [row] = await accountById.execute({ id });
    if (!row) return undefined;
    const { sessionsRevokedAt, ...actor } = row;
    return { actor: Object.freeze(actor), sessionsRevokedAt };
  }, bus);
  const usuarioById = prepareUserById(db, usuarioColumns, 'auth_find_usuario');

  return {
    /**
     * Bearer token → the signed-in user: a valid token of an existing, ATIVO account, issued
     * after its sessions were last ended. The actor is shared between requests: read only.
     */
    async authenticate(token: string): Promise<Actor> {
      const claims = verifyAccessToken(config, token);
      const account = await accounts.get(claims.sub);
      if (!account) throw unauthorized('Usuário não encontrado', 'TOKEN_INVALID');
      // Before the ended sessions: a blocked account is told so (blocking also ends them).
      if (account.actor.status !== 'ATIVO')
        throw unauthorized('Conta não está ativa', 'ACCOUNT_NOT_ACTIVE');
      // `iat` has whole seconds: a token of the very second the sessions ended is still accepted.
      const endedAt = account.sessionsRevokedAt?.getTime();
      if (endedAt !== undefined && claims.iat < Math.floor(endedAt / 1000))
        throw unauthorized('Sessão encerrada', 'TOKEN_INVALID');
      return account.actor;
    },

    /**
     * Calls `onChange` whenever account `userId` changes or may have changed (an event missed
     * while the listener was down), until the returned function is called: an open stream
     * authenticates again then. Without a bus, never.
     */
    async watchAccount(userId: string, onChange: () => void): Promise<() => void> {
      if (!bus) return () => {};
      return bus.subscribe('account', userId, { onEvent: onChange, onResync: onChange });
    },

    /** The account cache's state (tests, metrics). */
    accountCache: () => accounts.state(),

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

    /**
     * Logout: the session of the actor's refresh token ends, the whole chain (a successor issued
     * by a refresh racing the logout, or after a lost answer, stops working too). Idempotent.
     */
    async logout(actor: Actor, presented: string): Promise<void> {
      const [token] = await db
        .select({ familyId: refreshTokens.familyId })
        .from(refreshTokens)
        .where(
          and(
            eq(refreshTokens.tokenHash, hashToken(presented)),
            eq(refreshTokens.userId, actor.id),
          ),
        );
      if (token) await revokeFamily(db, token.familyId);
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
