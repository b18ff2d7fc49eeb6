import {
  avatarResponse,
  LimitError,
  mediaIdInput,
  mediaUploadSchema,
  uploadMediaInput,
} from '@campus/core';
import { z } from 'zod';
import { domainProcedures, router, type Context } from '../trpc';

const { authedProcedure } = domainProcedures('pt');

const tags = ['Fotos'];

/** The errors of every upload (docs/contract/media.md). */
export const uploadErrors = {
  400: 'Sem a parte `file`, ou `alt` inválido',
  401: 'Token ausente ou inválido',
  413: 'A imagem passa de 10 MB',
  415: 'Não é JPEG, PNG ou WebP (HEIC/AVIF quando decodificáveis), lido dos bytes',
  422: 'A imagem não decodifica ou tem mais de 40 megapixels (INVALID_IMAGE)',
  429: 'Mais de 100 imagens no dia (RATE_LIMITED)',
  503: 'Fila de imagens cheia: tente de novo após Retry-After',
};

/** Seconds until the day's upload count starts again (UTC midnight), for a 429's `Retry-After`. */
const untilTomorrow = () => String(Math.ceil((86_400_000 - (Date.now() % 86_400_000)) / 1000));

/** Runs an upload; its 429 (100 a day) says when to retry. */
export async function counted<T>(ctx: Context, upload: () => Promise<T>): Promise<T> {
  try {
    return await upload();
  } catch (error) {
    if (error instanceof LimitError && error.limit === 'uploads-per-day')
      ctx.setHeader?.('Retry-After', untilTomorrow());
    throw error;
  }
}

/** Photos (§G): uploads for posts. The `file` part is streamed by the host (`ctx.upload`). */
export const mediaRouter = router({
  upload: authedProcedure
    .meta({
      upload: true,
      successStatus: 201,
      location: '/media/{output.id}',
      reasons: { 422: ['INVALID_IMAGE'], 429: ['RATE_LIMITED'] },
      openapi: {
        method: 'POST',
        path: '/media',
        operationId: 'createMedia',
        tags,
        summary: 'Enviar uma foto (multipart/form-data: `file` e `alt` opcional)',
        description:
          'O tipo é lido dos bytes. A foto é reencodada (orientação aplicada, lado maior ≤ 1600 px em `url`, ' +
          '≤ 800 px em `thumbnailUrl`, WebP) e nenhum metadado é mantido. Sem uso por um post em 24 h, é apagada.',
        successDescription: 'A foto guardada',
        errorResponses: uploadErrors,
      },
    })
    .input(uploadMediaInput)
    .output(mediaUploadSchema)
    .mutation(({ ctx, input }) =>
      counted(ctx, () => ctx.services.media.upload(ctx.upload, input, ctx.actor)),
    ),

  remove: authedProcedure
    .meta({
      successStatus: 204,
      openapi: {
        method: 'DELETE',
        path: '/media/{id}',
        operationId: 'deleteMedia',
        tags,
        summary: 'Apagar uma foto enviada que nenhum post usa (a remoção no editor de post)',
        description: 'Os arquivos respondem 404 em até um minuto.',
        errorResponses: {
          400: 'id não é um UUID',
          401: 'Token ausente ou inválido',
          404: 'Nenhuma foto sua, sem post, com este id',
        },
      },
    })
    .input(mediaIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.media.remove(input.id, ctx.actor)),

  setAvatar: authedProcedure
    .meta({
      upload: true,
      reasons: { 422: ['INVALID_IMAGE'], 429: ['RATE_LIMITED'] },
      openapi: {
        method: 'PUT',
        path: '/autenticacao/usuario-atual/avatar',
        operationId: 'changeAvatar',
        tags,
        summary: 'Trocar o avatar (multipart/form-data: `file`)',
        description:
          'Um recorte quadrado de 256 px, sem metadados. O avatar anterior responde 404 em até um minuto.',
        successDescription: 'O usuário com avatarUrl',
        errorResponses: uploadErrors,
      },
    })
    .input(z.object({}))
    .output(avatarResponse)
    .mutation(async ({ ctx }) => {
      const avatarUrl = await counted(ctx, () =>
        ctx.services.media.setAvatar(ctx.upload, ctx.actor),
      );
      return {
        mensagem: 'Avatar atualizado',
        dados: { ...(await ctx.services.auth.me(ctx.actor)), avatarUrl },
      };
    }),

  removeAvatar: authedProcedure
    .meta({
      successStatus: 204,
      openapi: {
        method: 'DELETE',
        path: '/autenticacao/usuario-atual/avatar',
        operationId: 'removeAvatar',
        tags,
        summary: 'Remover o avatar',
        description: 'Os arquivos respondem 404 em até um minuto; sem avatar, nada muda.',
        errorResponses: { 401: 'Token ausente ou inválido' },
      },
    })
    .input(z.void())
    .output(z.void())
    .mutation(({ ctx }) => ctx.services.media.removeAvatar(ctx.actor)),
});
