import { eq, sql } from 'drizzle-orm';
import { hashPassword } from '../auth/password';
import type { Database } from '../db/client';
import { badRequest, conflict, isUniqueViolation } from '../errors';
import { isUf, officialCityName } from '../localities/localities';
import { studentColumns } from '../users/records';
import { users } from '../users/table';
import type { RegisterStudentInput, Student } from './schemas';

/**
 * A failed insert without its parameters: drizzle's error message lists every bound value, the
 * password hash among them, and error logs print messages. Only the driver's own words remain.
 */
function withoutParameters(error: unknown): Error {
  const driverError = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (driverError as { code?: unknown } | null)?.code;
  const message = driverError instanceof Error ? driverError.message : 'unknown error';
  // Keeps the SQLSTATE (so e.g. a NUL character is still recognised as bad input), drops the rest.
  return Object.assign(
    new Error(`Student registration insert failed${code ? ` (${String(code)})` : ''}: ${message}`),
    code ? { code } : {},
  );
}

/** Student registration (decisions.md §7) and the availability checks of its form. */
export function createStudentService(db: Database, passwordCost: number) {
  const nicknameTaken = db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.nickname, sql.placeholder('nickname')))
    .limit(1)
    .prepare('students_nickname_taken');
  // E-mails are stored lower-case (decisions.md §3), so equality on the unique index ignores case.
  const emailTaken = db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, sql.placeholder('email')))
    .limit(1)
    .prepare('students_email_taken');

  return {
    /**
     * Creates an ATIVO ALUNO. Duplicates are decided by the unique indexes, not by a read before
     * the write: of two identical registrations at the same moment exactly one succeeds.
     */
    async register(input: RegisterStudentInput): Promise<Student> {
      const estado = input.estado;
      const cidade = isUf(estado) ? officialCityName(estado, input.cidade) : undefined;
      // registerStudentInput has checked this already; a caller that skipped it still gets a 400.
      if (!cidade)
        throw badRequest('Dados inválidos', [
          { path: 'cidade', message: `não é um município de ${estado}` },
        ]);
      const passwordHash = await hashPassword(input.senha, passwordCost);
      try {
        const [row] = await db
          .insert(users)
          .values({
            nome: input.nome,
            nickname: input.nickname,
            email: input.email,
            passwordHash,
            perfil: 'ALUNO',
            status: 'ATIVO',
            instituicao: input.instituicao,
            curso: input.curso,
            periodo: input.periodo,
            dataNascimento: input.dataNascimento,
            nacionalidade: input.nacionalidade,
            estado,
            cidade,
            escolaridade: input.escolaridade,
          })
          .returning(studentColumns);
        return row!;
      } catch (error) {
        if (isUniqueViolation(error, 'users_email_unique')) {
          throw conflict('Este e-mail já está cadastrado', 'EMAIL_IN_USE');
        }
        if (isUniqueViolation(error, 'users_nickname_unique')) {
          throw conflict('Este nickname já está em uso', 'NICKNAME_IN_USE');
        }
        throw withoutParameters(error);
      }
    },

    async isNicknameAvailable(nickname: string): Promise<boolean> {
      return (await nicknameTaken.execute({ nickname })).length === 0;
    },

    /** `email` as the schema leaves it: trimmed and lower-case. */
    async isEmailAvailable(email: string): Promise<boolean> {
      return (await emailTaken.execute({ email })).length === 0;
    },
  };
}
