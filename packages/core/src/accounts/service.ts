import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AuthConfig } from '../auth/config';
import { hashPassword, verifyPassword } from '../auth/password';
import { hashToken, revokeUserSessions } from '../auth/sessions';
import type { Actor } from '../common/actor';
import type { Database } from '../db/client';
import { AppError, forbidden, unauthorized } from '../errors';
import { officialCityName, isUf } from '../localities/localities';
import { passwordResetMail } from '../mail/messages';
import { createRateLimitService } from '../rate-limits/service';
import { enqueueMail, type MailService } from '../mail/outbox';
import type { Student } from '../students/schemas';
import { insertAccount, usuarioColumns } from '../users/records';
import { users } from '../users/table';
import { eraseAccount } from './deletion';
import { exportPersonalData } from './export';
import type {
  ChangePasswordInput,
  Profile,
  RegisterTeacherInput,
  ResetPasswordInput,
  UpdateProfileInput,
} from './schemas';
import { passwordResetTokens } from './table';

export interface AccountOptions {
  /** The public address of the web app: reset links point at `${appUrl}/redefinir-senha`. */
  appUrl: string;
  /** POST /autenticacao/recuperar-senha answers no sooner than this (equal timing). */
  resetRequestFloorMs?: number;
}

const RESET_TOKEN_TTL_MS = 3600_000;
export const DEFAULT_RESET_REQUEST_FLOOR_MS = 250;
/** At most this many reset messages to one address per clock hour (docs/contract/accounts.md). */
export const RESET_MAILS_PER_HOUR = 3;
const HOUR_MS = 3600_000;

const profileColumns = {
  ...usuarioColumns,
  instituicao: users.instituicao,
  curso: users.curso,
  periodo: users.periodo,
  estado: users.estado,
  cidade: users.cidade,
} satisfies Record<keyof Profile, unknown>;

const wrongPassword = () => forbidden('Senha incorreta', 'WRONG_PASSWORD');
const badToken = () =>
  new AppError('BAD_REQUEST', 'Link de redefinição inválido, expirado ou já usado', {
    reason: 'RESET_TOKEN_INVALID',
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Teacher sign-up, password recovery and change, profile, LGPD export and deletion (§E). */
export function createAccountService(
  db: Database,
  auth: AuthConfig,
  mail: MailService,
  options: AccountOptions,
) {
  const floorMs = options.resetRequestFloorMs ?? DEFAULT_RESET_REQUEST_FLOOR_MS;
  const resetMailCounts = createRateLimitService(db);

  /** The caller's password checked against the stored hash; 401 when wrong. */
  async function checkPassword(userId: string, senha: string) {
    const [row] = await db
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.id, userId));
    if (!row || !(await verifyPassword(senha, row.passwordHash))) throw wrongPassword();
  }

  /**
   * Counts one reset message to the account's address in the current hour, in the counters every
   * process shares (one upsert: concurrent requests cannot both take the last one); false past
   * `RESET_MAILS_PER_HOUR`, and the request then sends nothing, answering as always.
   */
  async function underResetMailBound(userId: string) {
    const hour = Math.floor(Date.now() / HOUR_MS);
    // The account's id hashed: the counter row (kept until the hour ends) names nobody, so the
    // export and the erasure of an account have nothing to find in it.
    const account = createHash('sha256').update(userId).digest('base64url');
    const key = `reset-mail:${account}:${hour}`;
    const sent = await resetMailCounts.increment(key, 1, new Date((hour + 1) * HOUR_MS));
    return sent <= RESET_MAILS_PER_HOUR;
  }

  async function requestReset(email: string) {
    const [user] = await db
      .select({ id: users.id, nome: users.nome, email: users.email })
      .from(users)
      .where(eq(users.email, email));
    if (!user || !(await underResetMailBound(user.id))) return false;
    const token = randomBytes(32).toString('base64url');
    await db.transaction(async (tx) => {
      // A new link retires the earlier ones.
      await tx
        .update(passwordResetTokens)
        .set({ usedAt: sql`now()` })
        .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
      await tx.insert(passwordResetTokens).values({
        userId: user.id,
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
      });
      const link = `${options.appUrl.replace(/\/+$/, '')}/redefinir-senha#token=${token}`;
      await enqueueMail(tx, passwordResetMail(user, link));
    });
    return true;
  }

  return {
    /** A PROFESSOR account, PENDENTE until a site ADMIN approves it. */
    async registerTeacher(input: RegisterTeacherInput): Promise<Student> {
      const passwordHash = await hashPassword(input.senha, auth.passwordCost);
      const values = {
        nome: input.nome,
        nickname: input.nickname,
        email: input.email,
        passwordHash,
        perfil: 'PROFESSOR',
        status: 'PENDENTE',
        instituicao: input.instituicao,
        departamento: input.departamento,
        siape: input.siape,
      } as const;
      return insertAccount(db, values, 'Teacher registration');
    },

    /**
     * Writes a reset link to the outbox when the e-mail has an account; answers in the same time
     * either way (at least `floorMs`, and both paths read the account), so timing tells nothing.
     */
    async requestPasswordReset(email: string): Promise<void> {
      const started = performance.now();
      let queued = false;
      try {
        queued = await requestReset(email);
      } finally {
        const left = floorMs - (performance.now() - started);
        if (left > 0) await sleep(left);
      }
      if (queued) mail.wakeUp();
    },

    /** A valid, unused, unexpired token sets the password once and ends every session. */
    async resetPassword(input: ResetPasswordInput): Promise<void> {
      const passwordHash = await hashPassword(input.senha, auth.passwordCost);
      await db.transaction(async (tx) => {
        const [used] = await tx
          .update(passwordResetTokens)
          .set({ usedAt: sql`now()` })
          .where(
            and(
              eq(passwordResetTokens.tokenHash, hashToken(input.token)),
              isNull(passwordResetTokens.usedAt),
              gt(passwordResetTokens.expiresAt, sql`now()`),
            ),
          )
          .returning({ userId: passwordResetTokens.userId });
        if (!used) throw badToken();
        await tx
          .update(users)
          .set({ passwordHash, updatedAt: new Date() })
          .where(eq(users.id, used.userId));
        await revokeUserSessions(tx, used.userId);
      });
    },

    /** The current password, then the new one; every other session ends (`keepFamily` stays). */
    async changePassword(
      actor: Actor,
      input: ChangePasswordInput,
      keepFamily?: string,
    ): Promise<void> {
      await checkPassword(actor.id, input.senhaAtual);
      const passwordHash = await hashPassword(input.novaSenha, auth.passwordCost);
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ passwordHash, updatedAt: new Date() })
          .where(eq(users.id, actor.id));
        await revokeUserSessions(tx, actor.id, keepFamily ? { exceptFamily: keepFamily } : {});
      });
    },

    async profile(actor: Actor): Promise<Profile> {
      const [row] = await db.select(profileColumns).from(users).where(eq(users.id, actor.id));
      if (!row) throw unauthorized('Usuário não encontrado', 'TOKEN_INVALID');
      return row;
    },

    async updateProfile(actor: Actor, input: UpdateProfileInput): Promise<Profile> {
      const { estado, cidade, ...rest } = input;
      const place =
        estado && cidade && isUf(estado)
          ? { estado, cidade: officialCityName(estado, cidade) }
          : {};
      const [row] = await db
        .update(users)
        .set({ ...rest, ...place, updatedAt: new Date() })
        .where(eq(users.id, actor.id))
        .returning(profileColumns);
      if (!row) throw unauthorized('Usuário não encontrado', 'TOKEN_INVALID');
      return row;
    },

    exportData: (actor: Actor) => exportPersonalData(db, actor.id),

    /** The password confirms it; then the account is erased in one transaction. */
    async deleteAccount(actor: Actor, senha: string): Promise<void> {
      await checkPassword(actor.id, senha);
      await db.transaction((tx) => eraseAccount(tx, actor.id));
    },
  };
}
export type AccountService = ReturnType<typeof createAccountService>;
