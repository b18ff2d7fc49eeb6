import {
  adminUserListResponse,
  adminUserResponse,
  adminUserStatusResponse,
  listUsersInput,
  updateUserStatusInput,
  userIdInput,
} from '@campus/core';
import { domainProcedures, router } from '../trpc';
import { moderationProcedures } from './moderation';

const { adminProcedure } = domainProcedures('pt');

const tags = ['Administração'];
const denied = { 401: 'Token ausente ou inválido', 403: 'Acesso restrito a administradores' };

/**
 * User administration: every procedure requires perfil ADMIN (docs/contract/accounts.md,
 * Administration).
 */
export const adminRouter = router({
  listUsers: adminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/usuarios',
        operationId: 'listUsers',
        tags,
        summary: 'Listar usuários, mais recentes primeiro',
        description:
          'Filtros opcionais: status (PENDENTE, ATIVO, INATIVO ou PENDING, ACTIVE, INACTIVE), perfil e ' +
          'busca (contém, sem diferenciar maiúsculas, no nome, nickname ou e-mail).',
        errorResponses: { 400: 'Paginação ou filtro inválido', ...denied },
      },
    })
    .input(listUsersInput)
    .output(adminUserListResponse)
    .query(({ ctx, input }) => ctx.services.admin.list(input)),

  getUser: adminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/usuarios/{id}',
        operationId: 'getUser',
        tags,
        summary: 'Ler um usuário',
        errorResponses: { ...denied, 404: 'Usuário não encontrado' },
      },
    })
    .input(userIdInput)
    .output(adminUserResponse)
    .query(async ({ ctx, input }) => ({
      mensagem: 'Usuário encontrado',
      dados: await ctx.services.admin.get(input.id),
    })),

  updateUserStatus: adminProcedure
    .meta({
      reasons: { 403: ['CANNOT_CHANGE_OWN_STATUS', 'CANNOT_CHANGE_ADMIN_STATUS'] },
      openapi: {
        method: 'PATCH',
        path: '/admin/usuarios/{id}/status',
        operationId: 'updateUserStatus',
        tags,
        summary: 'Alterar o status da conta de um usuário (aprovar, bloquear, reativar)',
        description:
          'Aceita PENDING, ACTIVE, INACTIVE e PENDENTE, ATIVO, INATIVO; a resposta traz o valor em português. ' +
          'Cada mudança é registrada. INATIVO ou PENDENTE encerra as sessões do usuário na hora. ' +
          'Um administrador não altera o próprio status nem o de outro administrador.',
        errorResponses: {
          400: 'Status inválido',
          401: denied[401],
          403: 'Acesso restrito a administradores, ou alvo é o próprio usuário ou outro administrador',
          404: 'Usuário não encontrado',
        },
      },
    })
    .input(updateUserStatusInput)
    .output(adminUserStatusResponse)
    .mutation(async ({ ctx, input }) => ({
      mensagem: 'Status do usuário atualizado com sucesso',
      dados: await ctx.services.admin.setStatus(ctx.actor, input.id, input.status),
    })),
  ...moderationProcedures,
});
