import { z } from 'zod';
import { dadosListResponse, pageQuery } from '../common/pagination';
import { MODERATION_TARGETS } from '../feed/enums';
import { MODERATION_ACTIONS } from './table';

/*
 * The site ADMIN's moderation queue (docs/contract/feed.md, Moderation), on Portuguese paths:
 * `{dados, metadados}` lists and messages in Portuguese, like the rest of the administration.
 */

export const moderationTargetSchema = z.enum(MODERATION_TARGETS, {
  error: 'tipo deve ser POST ou COMENTARIO',
});
export const moderationActionSchema = z.enum(MODERATION_ACTIONS, {
  error: 'acao deve ser OCULTAR, RESTAURAR ou DESCARTAR',
});
export const REPORT_STATUSES = ['PENDENTE', 'RESOLVIDA'] as const;

export const listDenunciasInput = pageQuery(50).extend({
  status: z
    .enum(REPORT_STATUSES, { error: 'status deve ser PENDENTE ou RESOLVIDA' })
    .default('PENDENTE')
    .describe('PENDENTE: com denúncias abertas; RESOLVIDA: todas as denúncias já decididas'),
});
export type ListDenunciasInput = z.infer<typeof listDenunciasInput>;

/** The reasons a queue item shows, newest first. */
export const MOTIVOS_MAX = 20;

export const denunciaSchema = z
  .object({
    tipo: moderationTargetSchema,
    id: z.uuid(),
    denuncias: z
      .number()
      .int()
      .describe('Denúncias abertas (PENDENTE) ou já decididas (RESOLVIDA), de usuários distintos'),
    oculto: z.boolean(),
    ultimaEm: z.iso.datetime().describe('A denúncia mais recente'),
    motivos: z
      .array(z.string())
      .describe(`Os motivos, mais recentes primeiro (até ${MOTIVOS_MAX})`),
  })
  .meta({ id: 'Denuncia' });
export type Denuncia = z.infer<typeof denunciaSchema>;

export const denunciaListResponse = dadosListResponse(denunciaSchema).meta({ id: 'DenunciaList' });
export type DenunciaList = z.infer<typeof denunciaListResponse>;

export const decideDenunciaInput = z
  .object({
    tipo: moderationTargetSchema,
    id: z.uuid('id deve ser um UUID'),
    acao: moderationActionSchema.describe(
      'OCULTAR oculta; RESTAURAR mostra de novo e mantém visível além do limite de denúncias; ' +
        'DESCARTAR encerra as denúncias sem ocultar',
    ),
  })
  .meta({ examples: [{ acao: 'OCULTAR' }] });
export type DecideDenunciaInput = z.infer<typeof decideDenunciaInput>;

export const decisaoSchema = z
  .object({
    id: z.uuid(),
    acao: moderationActionSchema,
    adminId: z.uuid(),
    em: z.iso.datetime(),
    denunciasEncerradas: z.number().int(),
  })
  .meta({ id: 'DecisaoModeracao' });

export const decideDenunciaResponse = z.object({
  mensagem: z.string(),
  dados: z.object({
    tipo: moderationTargetSchema,
    id: z.uuid(),
    oculto: z.boolean(),
    decisao: decisaoSchema,
  }),
});
export type DecideDenunciaResponse = z.infer<typeof decideDenunciaResponse>;
