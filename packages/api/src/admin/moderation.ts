import {
  decideDenunciaInput,
  decideDenunciaResponse,
  denunciaListResponse,
  listDenunciasInput,
} from '@campus/core';
import { domainProcedures } from '../trpc';

/*
 * The moderation queue (docs/contract/feed.md, Moderation): site ADMINs only. Spread into the admin
 * router.
 */

const { adminProcedure } = domainProcedures('pt');

const tags = ['Administração'];
const denied = { 401: 'Token ausente ou inválido', 403: 'Acesso restrito a administradores' };

export const moderationProcedures = {
  listDenuncias: adminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/denuncias',
        operationId: 'listDenuncias',
        tags,
        summary:
          'Fila de moderação: publicações e comentários denunciados, mais denunciados primeiro',
        description:
          'status PENDENTE (padrão): conteúdo com denúncias abertas, contando-as; RESOLVIDA: ' +
          'conteúdo cujas denúncias já foram todas decididas. Com MODERATION_THRESHOLD (padrão 5) ' +
          'denunciantes distintos o conteúdo já foi ocultado automaticamente (oculto: true).',
        errorResponses: { 400: 'Paginação ou filtro inválido', ...denied },
      },
    })
    .input(listDenunciasInput)
    .output(denunciaListResponse)
    .query(({ ctx, input }) => ctx.services.moderation.queue(input)),

  decideDenuncia: adminProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/admin/denuncias/{tipo}/{id}',
        operationId: 'updateDenuncia',
        tags,
        summary: 'Decidir as denúncias de uma publicação ou comentário',
        description:
          'OCULTAR oculta (o autor é notificado); RESTAURAR mostra de novo e o mantém visível ' +
          'mesmo com novas denúncias além do limite; DESCARTAR encerra as denúncias sem ocultar ' +
          '(mostra de novo o que estava oculto; novas denúncias contam do zero). Cada decisão ' +
          'encerra as denúncias abertas e é registrada (quem, quando, o quê).',
        errorResponses: {
          400: 'tipo, id ou acao inválido',
          ...denied,
          404: 'Conteúdo não encontrado',
        },
      },
    })
    .input(decideDenunciaInput)
    .output(decideDenunciaResponse)
    .mutation(async ({ ctx, input }) => ({
      mensagem: 'Decisão registrada',
      dados: await ctx.services.moderation.decide(input, ctx.actor),
    })),
};
