import {
  commentListResponse,
  commentPageInput,
  commentSchema,
  createCommentReportInput,
  postPageInput,
  reportSchema,
  updateCommentInput,
  userRecordListResponse,
} from '@campus/core';
import { domainProcedures } from '../trpc';

/*
 * A post's threads (docs/contract/feed.md, Bounded reads): the paged sub-lists that GET /post/{id}
 * no longer embeds in full, a comment's edit and its report. Spread into the feed router
 * (`feed.*`).
 */

const { authedProcedure } = domainProcedures('en');

const tags = ['Feed'];
const unauthorized = { 401: 'Token missing or invalid' };
const pageErrors = {
  400: 'id is not a UUID, or an invalid page or limit (limit 1-50)',
  ...unauthorized,
  404: 'Post not found (or hidden by moderation)',
};

const commentErrors = { 400: 'Invalid input', ...unauthorized, 404: 'Comment not found' };

const subList = (what: string, path: `/${string}`, operationId: string) => ({
  method: 'GET' as const,
  path,
  operationId,
  tags,
  summary: `Page through a post's ${what}, newest first`,
  description: `GET /post/{id} embeds only the 50 newest ${what}; this pages through all of them.`,
  errorResponses: pageErrors,
});

/** A post's likes or attendances: the same record list, from the feed service's `list`. */
const userRecordList = (
  what: string,
  path: `/${string}`,
  operationId: string,
  list: 'listLikes' | 'listAttendances',
) =>
  authedProcedure
    .meta({ openapi: subList(what, path, operationId) })
    .input(postPageInput)
    .output(userRecordListResponse)
    .query(({ ctx, input }) => ctx.services.feed[list](input, ctx.actor));

export const threadProcedures = {
  listComments: authedProcedure
    .meta({
      openapi: {
        ...subList('comments', '/post/{id}/comment', 'listPostComments'),
        description:
          'GET /post/{id} embeds only the 50 newest comments; this pages through all of them, by ' +
          'page or by cursor (meta.nextCursor).',
        errorResponses: {
          ...pageErrors,
          400: 'id is not a UUID, or an invalid page, limit (1-50) or cursor (INVALID_CURSOR)',
        },
      },
      reasons: { 400: ['INVALID_CURSOR'] },
    })
    .input(commentPageInput)
    .output(commentListResponse)
    .query(({ ctx, input }) => ctx.services.feed.listComments(input, ctx.actor)),

  listLikes: userRecordList('likes', '/post/{id}/like', 'listPostLikes', 'listLikes'),
  listAttendances: userRecordList(
    'attendances',
    '/post/{id}/attendance',
    'listPostAttendances',
    'listAttendances',
  ),

  editComment: authedProcedure
    .meta({
      reasons: { 403: ['NOT_OWNER'] },
      openapi: {
        method: 'PATCH',
        path: '/comment/{id}',
        operationId: 'updateComment',
        tags,
        summary: 'Edit a comment (its author only)',
        description: 'The answer carries updatedAt, null until a comment is first edited.',
        errorResponses: { ...commentErrors, 403: 'Not the comment author' },
      },
    })
    .input(updateCommentInput)
    .output(commentSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.feed.editComment(input.id, input.content, ctx.actor),
    ),

  reportComment: authedProcedure
    .meta({
      reasons: { 409: ['ALREADY_REPORTED'] },
      successStatus: 201,
      location: '/comment/{input.id}',
      openapi: {
        method: 'POST',
        path: '/comment/{id}/report',
        operationId: 'reportComment',
        tags,
        errorResponses: { ...commentErrors, 409: 'Already reported' },
        summary: 'Report a comment (once per user)',
        description:
          'At MODERATION_THRESHOLD distinct reporters (default 5) the comment is hidden at once: ' +
          'only its author and site ADMINs still see it. The response carries the reporter’s ' +
          'userId for ADMIN callers only.',
        successDescription: 'The report record',
      },
    })
    .input(createCommentReportInput)
    .output(reportSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.feed.reportComment(input.id, input.reason, ctx.actor),
    ),
};
