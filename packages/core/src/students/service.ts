import { eq, sql } from 'drizzle-orm';
import { hashPassword } from '../auth/password';
import type { Database } from '../db/client';
import { badRequest } from '../errors';
import { isUf, officialCityName } from '../localities/localities';
import { insertAccount } from '../users/records';
import { users } from '../users/table';
import type { RegisterStudentInput, Student } from './schemas';

/**
 * Student registration (docs/contract/accounts.md, Student registration) and the availability
 * checks of its form.
 */
export function createStudentService(db: Database, passwordCost: number) {
  const nicknameTaken = db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.nickname, sql.placeholder('nickname')))
    .limit(1)
    .prepare('students_nickname_taken');
  // E-mails are stored lower-case (docs/contract/accounts.md, User), so equality on the unique
  // index ignores case.
  const emailTaken = db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, sql.placeholder('email')))
    .limit(1)
    .prepare('students_email_taken');

  return {
    /** Creates an ATIVO ALUNO (duplicates: `insertAccount`). */
    async register(input: RegisterStudentInput): Promise<Student> {
      const estado = input.estado;
      const cidade = isUf(estado) ? officialCityName(estado, input.cidade) : undefined;
      // registerStudentInput has checked this already; a caller that skipped it still gets a 400.
      if (!cidade)
        throw badRequest('Dados inválidos', [
          { path: 'cidade', message: `não é um município de ${estado}` },
        ]);
      const passwordHash = await hashPassword(input.senha, passwordCost);
      const values = {
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
      } as const;
      return insertAccount(db, values, 'Student registration');
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
