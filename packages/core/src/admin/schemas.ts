import { z } from 'zod';
import { usuarioResponse, usuarioSchema } from '../auth/schemas';
import { envelope } from '../common/envelope';
import { dadosListResponse, pageQuery } from '../common/pagination';
import { PERFIS, type UserStatus } from '../common/user-enums';
import { LIMITS } from '../common/limits';

/**
 * Account statuses as clients may send them: the spec's English values and the Portuguese ones
 * the service stores and answers with (docs/contract/accounts.md, Administration).
 */
const STATUS_BY_INPUT = {
  PENDING: 'PENDENTE',
  ACTIVE: 'ATIVO',
  INACTIVE: 'INATIVO',
  PENDENTE: 'PENDENTE',
  ATIVO: 'ATIVO',
  INATIVO: 'INATIVO',
} as const satisfies Record<string, UserStatus>;
type StatusInput = keyof typeof STATUS_BY_INPUT;
const STATUS_INPUTS = Object.keys(STATUS_BY_INPUT) as [StatusInput, ...StatusInput[]];

/** Any accepted spelling of a status → the stored Portuguese value. */
export const accountStatusInput = z
  .enum(STATUS_INPUTS, { error: `deve ser um de: ${STATUS_INPUTS.join(', ')}` })
  .transform((status): UserStatus => STATUS_BY_INPUT[status]);

export const listUsersInput = pageQuery(100).extend({
  status: accountStatusInput.optional(),
  perfil: z.enum(PERFIS, { error: `deve ser um de: ${PERFIS.join(', ')}` }).optional(),
  /** Case-insensitive "contains" on nome, nickname or e-mail. */
  busca: z
    .string({ error: 'deve ser um texto' })
    .trim()
    .min(LIMITS.userSearch.min, 'digite algo para buscar')
    .max(LIMITS.userSearch.max, `deve ter no máximo ${LIMITS.userSearch.max} caracteres`)
    .optional(),
});
export type ListUsersInput = z.infer<typeof listUsersInput>;

/**
 * Any non-empty id: a malformed one is answered 404 like an unknown one (docs/contract/errors.md,
 * Ids in paths).
 */
export const userIdInput = z.object({ id: z.string().min(1, 'obrigatório') });

export const updateUserStatusInput = userIdInput
  .extend({ status: accountStatusInput })
  .meta({ examples: [{ status: 'ATIVO' }] });

/** A user in the list and in the status-change answer (no nickname, as the spec lists). */
export const adminUserSummarySchema = usuarioSchema
  .omit({ nickname: true })
  .meta({ id: 'AdminUserSummary' });
export type AdminUserSummary = z.infer<typeof adminUserSummarySchema>;

export const adminUserListResponse = dadosListResponse(adminUserSummarySchema).meta({
  id: 'AdminUserList',
});
export const adminUserResponse = usuarioResponse;
export const adminUserStatusResponse = envelope(adminUserSummarySchema);
