import { eq, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { Usuario } from '../auth/schemas';
import type { Actor } from '../common/actor';
import type { Database } from '../db/client';
import type { Student } from '../students/schemas';
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
