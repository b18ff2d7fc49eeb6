import {
  changeRoleInput,
  followSchema,
  groupIdInput,
  joinRequestInput,
  joinRequestListResponse,
  joinRequestSchema,
  listGroupPageInput,
  memberInput,
  memberListResponse,
  memberSchema,
} from '@campus/core';
import { z } from 'zod';
import { authedProcedure, noGroup, notManager, tags, unauthorized } from './shared';

/** `POST /group/{id}/requests/{requestId}/approve` and `…/reject`: one decision each. */
const decideRequest = (decision: 'approve' | 'reject', operationId: string, summary: string) =>
  authedProcedure
    .meta({
      reasons: {
        403: ['GROUP_FORBIDDEN'],
        404: ['GROUP_NOT_FOUND'],
        409: ['REQUEST_ALREADY_DECIDED'],
      },
      openapi: {
        method: 'POST',
        path: `/group/{id}/requests/{requestId}/${decision}`,
        operationId,
        tags,
        summary,
        errorResponses: {
          400: 'id or requestId is not a UUID',
          ...unauthorized,
          ...notManager,
          404: 'Group or request not found',
          409: 'The request was already decided (REQUEST_ALREADY_DECIDED)',
        },
      },
    })
    .input(joinRequestInput)
    .output(joinRequestSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.groups[decision](input.id, input.requestId, ctx.actor),
    );

/** Join requests, members and their roles, following: spread into the groups router (`groups.*`). */
export const membershipProcedures = {
  requestToJoin: authedProcedure
    .meta({
      reasons: {
        403: ['GROUP_CLOSED'],
        404: ['GROUP_NOT_FOUND'],
        409: ['ALREADY_MEMBER', 'ALREADY_REQUESTED'],
      },
      successStatus: 201,
      location: '/group/{input.id}/requests',
      openapi: {
        method: 'POST',
        path: '/group/{id}/requests',
        operationId: 'createGroupJoinRequest',
        tags,
        summary: 'Ask to join a group',
        successDescription: 'The pending request',
        errorResponses: {
          400: 'id is not a UUID',
          ...unauthorized,
          403: 'The group is not accepting new members (GROUP_CLOSED)',
          ...noGroup,
          409: 'Already a member (ALREADY_MEMBER) or already asked (ALREADY_REQUESTED)',
        },
      },
    })
    .input(groupIdInput)
    .output(joinRequestSchema)
    .mutation(({ ctx, input }) => ctx.services.groups.requestToJoin(input.id, ctx.actor)),

  listRequests: authedProcedure
    .meta({
      reasons: { 403: ['GROUP_FORBIDDEN'], 404: ['GROUP_NOT_FOUND'] },
      openapi: {
        method: 'GET',
        path: '/group/{id}/requests',
        operationId: 'listGroupJoinRequests',
        tags,
        summary: 'Pending join requests, oldest first (group OWNER or ADMIN)',
        errorResponses: {
          400: 'Invalid id, page or limit',
          ...unauthorized,
          ...notManager,
          ...noGroup,
        },
      },
    })
    .input(listGroupPageInput)
    .output(joinRequestListResponse)
    .query(({ ctx, input }) => ctx.services.groups.listRequests(input, ctx.actor)),

  approveRequest: decideRequest(
    'approve',
    'approveGroupJoinRequest',
    'Approve a join request: the user becomes a MEMBER',
  ),
  rejectRequest: decideRequest('reject', 'rejectGroupJoinRequest', 'Reject a join request'),

  withdrawRequest: authedProcedure
    .meta({
      reasons: { 404: ['GROUP_NOT_FOUND'] },
      successStatus: 204,
      openapi: {
        method: 'DELETE',
        path: '/group/{id}/requests/mine',
        operationId: 'withdrawGroupJoinRequest',
        tags,
        summary: "Withdraw the caller's pending join request",
        successDescription: 'Withdrawn',
        errorResponses: {
          400: 'id is not a UUID',
          ...unauthorized,
          404: 'Group not found, or no pending request',
        },
      },
    })
    .input(groupIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.groups.withdraw(input.id, ctx.actor)),

  listMembers: authedProcedure
    .meta({
      reasons: { 404: ['GROUP_NOT_FOUND'] },
      openapi: {
        method: 'GET',
        path: '/group/{id}/members',
        operationId: 'listGroupMembers',
        tags,
        summary: 'Members: owners first, then admins, then members, each by joinedAt',
        errorResponses: { 400: 'Invalid id, page or limit', ...unauthorized, ...noGroup },
      },
    })
    .input(listGroupPageInput)
    .output(memberListResponse)
    .query(({ ctx, input }) => ctx.services.groups.listMembers(input)),

  changeRole: authedProcedure
    .meta({
      reasons: { 403: ['GROUP_FORBIDDEN'], 404: ['GROUP_NOT_FOUND'], 409: ['LAST_OWNER'] },
      openapi: {
        method: 'PATCH',
        path: '/group/{id}/members/{userId}',
        operationId: 'changeGroupMemberRole',
        tags,
        summary: "Change a member's role (a group OWNER only)",
        errorResponses: {
          400: 'Invalid input',
          ...unauthorized,
          403: 'Not an OWNER of the group (GROUP_FORBIDDEN)',
          404: 'Group or member not found',
          409: 'Demoting the last OWNER (LAST_OWNER)',
        },
      },
    })
    .input(changeRoleInput)
    .output(memberSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.groups.changeRole(input.id, input.userId, input.role, ctx.actor),
    ),

  removeMember: authedProcedure
    .meta({
      reasons: { 403: ['GROUP_FORBIDDEN'], 404: ['GROUP_NOT_FOUND'], 409: ['LAST_OWNER'] },
      successStatus: 204,
      openapi: {
        method: 'DELETE',
        path: '/group/{id}/members/{userId}',
        operationId: 'removeGroupMember',
        tags,
        summary: 'Leave a group (oneself) or remove a member (OWNER: anyone; ADMIN: MEMBERs)',
        successDescription: 'Removed',
        errorResponses: {
          400: 'id or userId is not a UUID',
          ...unauthorized,
          403: 'Not allowed to remove this member (GROUP_FORBIDDEN)',
          404: 'Group or member not found',
          409: 'The last OWNER cannot leave (LAST_OWNER)',
        },
      },
    })
    .input(memberInput)
    .output(z.void())
    .mutation(({ ctx, input }) =>
      ctx.services.groups.removeMember(input.id, input.userId, ctx.actor),
    ),

  follow: authedProcedure
    .meta({
      reasons: { 404: ['GROUP_NOT_FOUND'], 409: ['ALREADY_FOLLOWING'] },
      successStatus: 201,
      location: '/group/{input.id}',
      openapi: {
        method: 'POST',
        path: '/group/{id}/follow',
        operationId: 'followGroup',
        tags,
        summary: 'Follow a group',
        successDescription: 'Following',
        errorResponses: {
          400: 'id is not a UUID',
          ...unauthorized,
          ...noGroup,
          409: 'Already following (ALREADY_FOLLOWING)',
        },
      },
    })
    .input(groupIdInput)
    .output(followSchema)
    .mutation(({ ctx, input }) => ctx.services.groups.follow(input.id, ctx.actor)),

  unfollow: authedProcedure
    .meta({
      reasons: { 404: ['GROUP_NOT_FOUND', 'NOT_FOLLOWING'] },
      successStatus: 204,
      openapi: {
        method: 'DELETE',
        path: '/group/{id}/follow',
        operationId: 'unfollowGroup',
        tags,
        summary: 'Stop following a group',
        successDescription: 'Not following any more',
        errorResponses: {
          400: 'id is not a UUID',
          ...unauthorized,
          404: 'Group not found, or not following (NOT_FOLLOWING)',
        },
      },
    })
    .input(groupIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.groups.unfollow(input.id, ctx.actor)),
};
