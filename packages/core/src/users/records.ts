import { eq, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { Student, Usuario } from './schemas';
import type { Actor } from '../common/actor';
import type { Database } from '../db/client';
import { conflict, isUniqueViolation } from '../errors';
import { users } from './table';

/*
 * The account as responses show it, selected once: auth (login, refresh, me) and admin read
 * these columns, and `usuarioSchema` (auth/schemas.ts) has the same keys (checked here).
 */

/** `Usuario`'s columns: id, nome, nickname, email, perfil, status. */
export const usuarioColumns = {
  id: users.id,
  nome: users.nome,
  nickname: users.nickname,
  email: users.email,
  perfil: users.perfil,
  status: users.status,
} satisfies Record<keyof Usuario, unknown>;

const { nickname: _nickname, ...summary } = usuarioColumns;
/** The admin list's columns: `Usuario` without the nickname (as the spec lists it). */
export const userSummaryColumns = summary;

const { perfil, ...withoutPerfil } = usuarioColumns;
/** A registration's answer: `Usuario` with the perfil named `papel` (as the spec names it). */
export const studentColumns = { ...withoutPerfil, papel: perfil } satisfies Record<
  keyof Student,
  unknown
>;

/**
 * Inserts a new account and answers it as a registration does (`Student`). A taken e-mail or
 * nickname is decided by the unique indexes, not by a read before the write (of two identical
 * sign-ups at once exactly one succeeds): 409 EMAIL_IN_USE / NICKNAME_IN_USE.
 */
export async function insertAccount(
  db: Database,
  values: typeof users.$inferInsert,
  what: string,
): Promise<Student> {
  try {
    const [row] = await db.insert(users).values(values).returning(studentColumns);
    return row!;
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_unique')) {
      throw conflict('Este e-mail já está cadastrado', 'EMAIL_IN_USE');
    }
    if (isUniqueViolation(error, 'users_nickname_unique')) {
      throw conflict('Este nickname já está em uso', 'NICKNAME_IN_USE');
    }
    throw withoutParameters(error, what);
  }
}

/**
 * A failed insert without its parameters: drizzle's error message lists every bound value, the
 * password hash among them, and error logs print messages. Only the driver's own words remain.
 */
function withoutParameters(error: unknown, what: string): Error {
  const driverError = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (driverError as { code?: unknown } | null)?.code;
  const message = driverError instanceof Error ? driverError.message : 'unknown error';
  // Keeps the SQLSTATE (so e.g. a NUL character is still recognised as bad input), drops the rest.
  return Object.assign(
    new Error(`${what} insert failed${code ? ` (${String(code)})` : ''}: ${message}`),
    code ? { code } : {},
  );
}

/** What authentication reads of the account on every request: the `Actor`. */
export const actorColumns = {
  id: users.id,
  nickname: users.nickname,
  role: users.perfil,
  status: users.status,
} satisfies Record<keyof Actor, unknown>;

/** The prepared read of one account by id (`{ id }`), with the given columns. */
export const prepareUserById = <T extends SelectedFields>(db: Database, columns: T, name: string) =>
  db
    .select(columns)
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare(name);
