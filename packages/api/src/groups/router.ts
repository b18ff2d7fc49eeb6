import {
  createGroupInput,
  groupIdInput,
  groupListResponse,
  groupSchema,
  listGroupsInput,
  updateGroupInput,
} from '@campus/core';
import { z } from 'zod';
import { router } from '../trpc';
import { logoProcedures } from './logo';
import { membershipProcedures } from './membership';
import { authedProcedure, noGroup, tags, unauthorized } from './shared';

/** Groups themselves (list, read, create, change, delete); membership in ./membership.ts. */
export const groupsRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/group',
        operationId: 'listGroups',
        tags,
        summary: 'List groups by name (Portuguese order: case and accents ignored)',
        description:
          'Filters: q (the name contains it, ignoring case and accents), groupType, verified, ' +
          'mine=true (groups the caller is a member of).',
        errorResponses: {
          400: 'Invalid filter, page or limit (limit 1-50), or a cursor made for another list, filters or user (INVALID_CURSOR)',
          ...unauthorized,
        },
      },
      reasons: { 400: ['INVALID_CURSOR'] },
    })
    .input(listGroupsInput)
    .output(groupListResponse)
    .query(({ ctx, input }) => ctx.services.groups.list(input, ctx.actor)),

  get: authedProcedure
    .meta({
      reasons: { 404: ['GROUP_NOT_FOUND'] },
      openapi: {
        method: 'GET',
        path: '/group/{id}',
        operationId: 'getGroup',
        tags,
        summary: "Read a group, with the caller's role, pending request and following",
        errorResponses: { 400: 'id is not a UUID', ...unauthorized, ...noGroup },
      },
    })
    .input(groupIdInput)
    .output(groupSchema)
    .query(({ ctx, input }) => ctx.services.groups.get(input.id, ctx.actor)),

  create: authedProcedure
    .meta({
      reasons: { 409: ['GROUP_NAME_IN_USE'] },
      successStatus: 201,
      location: '/group/{output.id}',
      openapi: {
        method: 'POST',
        path: '/group',
        operationId: 'createGroup',
        tags,
        summary: 'Create a group; the caller becomes its OWNER',
        description: 'verified and the counters in the body are ignored.',
        successDescription: 'The created group',
        errorResponses: {
          400: 'Invalid input',
          ...unauthorized,
          409: 'A group whose name differs only in case or accents exists (GROUP_NAME_IN_USE)',
        },
      },
    })
    .input(createGroupInput)
    .output(groupSchema)
    .mutation(({ ctx, input }) => ctx.services.groups.create(input, ctx.actor)),

  update: authedProcedure
    .meta({
      reasons: {
        403: ['GROUP_FORBIDDEN', 'ADMIN_REQUIRED'],
        404: ['GROUP_NOT_FOUND'],
        409: ['GROUP_NAME_IN_USE'],
      },
      openapi: {
        method: 'PATCH',
        path: '/group/{id}',
        operationId: 'updateGroup',
        tags,
        summary: 'Change a group (its OWNER or ADMIN; verified: a site ADMIN only)',
        errorResponses: {
          400: 'Invalid input, or no field to change',
          ...unauthorized,
          403: 'Not an OWNER or ADMIN of the group (GROUP_FORBIDDEN); verified by a non-ADMIN (ADMIN_REQUIRED)',
          ...noGroup,
          409: 'Name in use (GROUP_NAME_IN_USE)',
        },
      },
    })
    .input(updateGroupInput)
    .output(groupSchema)
    .mutation(({ ctx, input }) => ctx.services.groups.update(input, ctx.actor)),

  remove: authedProcedure
    .meta({
      reasons: { 403: ['GROUP_FORBIDDEN'], 404: ['GROUP_NOT_FOUND'] },
      successStatus: 204,
      openapi: {
        method: 'DELETE',
        path: '/group/{id}',
        operationId: 'deleteGroup',
        tags,
        summary: 'Delete a group (its OWNER or a site ADMIN); its posts stay, without the group',
        successDescription: 'Deleted',
        errorResponses: {
          400: 'id is not a UUID',
          ...unauthorized,
          403: 'Not an OWNER of the group (GROUP_FORBIDDEN)',
          ...noGroup,
        },
      },
    })
    .input(groupIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.groups.remove(input.id, ctx.actor)),

  ...logoProcedures,
  ...membershipProcedures,
});
