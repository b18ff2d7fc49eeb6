import { groupIdInput, groupSchema } from '@campus/core';
import { z } from 'zod';
import { counted, uploadErrors } from '../media/router';
import { authedProcedure, noGroup, notManager, tags, unauthorized } from './shared';

/** A group's logo (docs/contract/media.md, Group logos): the `file` part streamed by the host. */
export const logoProcedures = {
  setLogo: authedProcedure
    .meta({
      upload: true,
      reasons: {
        403: ['GROUP_FORBIDDEN'],
        404: ['GROUP_NOT_FOUND'],
        422: ['INVALID_IMAGE'],
        429: ['RATE_LIMITED'],
      },
      openapi: {
        method: 'PUT',
        path: '/group/{id}/logo',
        operationId: 'changeGroupLogo',
        tags,
        summary:
          "Change a group's logo (multipart/form-data: `file`; its OWNER/ADMIN or a site ADMIN)",
        description:
          'A 256 px square crop, without metadata, counted in the 100 uploads a day. ' +
          'The previous logo answers 404 within a minute.',
        successDescription: 'The group with logoUrl',
        errorResponses: {
          ...uploadErrors,
          400: 'id is not a UUID, or no `file` part',
          ...notManager,
          ...noGroup,
        },
      },
    })
    .input(groupIdInput)
    .output(groupSchema)
    .mutation(async ({ ctx, input }) => {
      await counted(ctx, () => ctx.services.groups.setLogo(input.id, ctx.upload, ctx.actor));
      return ctx.services.groups.get(input.id, ctx.actor);
    }),

  removeLogo: authedProcedure
    .meta({
      reasons: { 403: ['GROUP_FORBIDDEN'], 404: ['GROUP_NOT_FOUND'] },
      successStatus: 204,
      openapi: {
        method: 'DELETE',
        path: '/group/{id}/logo',
        operationId: 'deleteGroupLogo',
        tags,
        summary: "Remove a group's logo (its OWNER/ADMIN or a site ADMIN)",
        description: 'The files answer 404 within a minute; without a logo, nothing changes.',
        successDescription: 'Removed',
        errorResponses: { 400: 'id is not a UUID', ...unauthorized, ...notManager, ...noGroup },
      },
    })
    .input(groupIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.groups.removeLogo(input.id, ctx.actor)),
};
