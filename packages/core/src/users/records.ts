import type { Usuario } from '../auth/schemas';
import type { Actor } from '../common/actor';
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

/** What authentication reads of the account on every request: the `Actor`. */
export const actorColumns = {
  id: users.id,
  nickname: users.nickname,
  role: users.perfil,
  status: users.status,
} satisfies Record<keyof Actor, unknown>;
