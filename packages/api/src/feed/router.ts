import {
  commentIdInput,
  commentSchema,
  createCommentInput,
  createPostInput,
  createReportInput,
  listPostsInput,
  postIdInput,
  postListResponse,
  postSchema,
  reportSchema,
  updatePostInput,
  userRecordSchema,
} from '@campus/core';
import { z } from 'zod';
import { domainProcedures, router } from '../trpc';
import { threadProcedures } from './threads';

const { authedProcedure } = domainProcedures('en');

const tags = ['Feed'];
const unauthorized = { 401: 'Token missing or invalid' };
const badId = { 400: 'id is not a UUID' };

export const feedRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/post',
        operationId: 'listPosts',
        tags,
        summary: 'List posts, newest first (basic fields only), with filters',
        description:
          'Each post carries likedByMe and attendingByMe for the caller. Filters, each optional and ' +
          'combinable: type, groupId, authorId, q (full-text search of title and content in ' +
          'Portuguese, most relevant first), following=true (posts of groups the caller follows), ' +
          'upcoming=true (EVENT posts whose eventDate is not past, soonest first). totalCount is ' +
          'exact. Posts hidden by moderation are left out (and out of totalCount) except for their ' +
          'author and site ADMINs, who see them with hidden: true.',
        errorResponses: {
          400: 'Invalid filter, page or limit (limit 1-50), or a cursor made for another list, filters or user (INVALID_CURSOR)',
          ...unauthorized,
        },
      },
      reasons: { 400: ['INVALID_CURSOR'] },
    })
    .input(listPostsInput)
    .output(postListResponse)
    .query(({ ctx, input }) => ctx.services.feed.list(input, ctx.actor)),

  get: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/post/{id}',
        operationId: 'getPost',
        tags,
        summary: 'Read a post with its newest comments, likes, reports and attendances',
        description:
          'Bounded read (a deliberate change from "the full Post"): each ' +
          'collection holds at most its 50 newest items; the counters give the totals, and ' +
          'GET /post/{id}/comment, /like and /attendance page through all of them. Carries ' +
          'likedByMe and attendingByMe for the caller. A post hidden by moderation is a 404 for ' +
          "everyone but its author and site ADMINs. Reports carry the reporter's userId for ADMIN " +
          'callers only.',
        errorResponses: {
          ...badId,
          ...unauthorized,
          404: 'Post not found (or hidden by moderation)',
        },
      },
    })
    .input(postIdInput)
    .output(postSchema)
    .query(({ ctx, input }) => ctx.services.feed.get(input.id, ctx.actor)),

  create: authedProcedure
    .meta({
      reasons: {
        400: ['MEDIA_NOT_AVAILABLE'],
        403: ['NOT_OWNER', 'GROUP_FORBIDDEN'],
        404: ['GROUP_NOT_FOUND'],
      },
      successStatus: 201,
      location: '/post/{output.id}',
      openapi: {
        method: 'POST',
        path: '/post',
        operationId: 'createPost',
        tags,
        summary: 'Create a post',
        description:
          'authorId must be the caller (any user for an ADMIN). The stored author is that user’s nickname. ' +
          'A client id and counters in the body are ignored. EVENT needs eventDate and location; ' +
          'GENERAL has no event fields. mediaIds: 0-4 uploads (POST /media) of the caller that no post uses, in order.',
        successDescription: 'The created post, with empty collections',
        errorResponses: {
          400: 'Invalid input, or a mediaIds entry that is not an unused upload of the caller (MEDIA_NOT_AVAILABLE)',
          ...unauthorized,
          403: 'Posting as another user, or in the name of a group the caller is not OWNER or ADMIN of (GROUP_FORBIDDEN)',
          404: 'Author or group not found (GROUP_NOT_FOUND)',
        },
      },
    })
    .input(createPostInput)
    .output(postSchema)
    .mutation(({ ctx, input }) => ctx.services.feed.create(input, ctx.actor)),

  update: authedProcedure
    .meta({
      reasons: {
        400: ['MEDIA_NOT_AVAILABLE'],
        403: ['NOT_OWNER', 'GROUP_FORBIDDEN'],
        404: ['GROUP_NOT_FOUND'],
      },
      openapi: {
        method: 'PATCH',
        path: '/post/{id}',
        operationId: 'updatePost',
        tags,
        summary: 'Change a post (its author or an ADMIN)',
        description:
          'Only the fields sent change; the merged post must still be valid (an EVENT keeps eventDate and ' +
          'location; turning an EVENT into GENERAL needs the event fields set to null). mediaIds replaces the ' +
          'photos, in the order given; photos left out are deleted.',
        errorResponses: {
          400: 'Invalid input, no field to change, or a mediaIds entry that is not an unused upload of the caller (MEDIA_NOT_AVAILABLE)',
          ...unauthorized,
          403: 'Not the author, a group OWNER/ADMIN nor an ADMIN; or a groupId the caller does not manage (GROUP_FORBIDDEN)',
          404: 'Post (or new author, or group) not found',
        },
      },
    })
    .input(updatePostInput)
    .output(postSchema)
    .mutation(({ ctx, input }) => ctx.services.feed.update(input, ctx.actor)),

  remove: authedProcedure
    .meta({
      reasons: { 403: ['NOT_OWNER'] },
      successStatus: 204,
      openapi: {
        method: 'DELETE',
        path: '/post/{id}',
        operationId: 'deletePost',
        tags,
        summary: 'Delete a post with its comments, likes, reports and attendances',
        successDescription: 'Deleted',
        errorResponses: {
          ...badId,
          ...unauthorized,
          403: 'Not the author nor an ADMIN',
          404: 'Post not found',
        },
      },
    })
    .input(postIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.feed.remove(input.id, ctx.actor)),

  removeComment: authedProcedure
    .meta({
      reasons: { 403: ['NOT_OWNER'] },
      successStatus: 204,
      openapi: {
        method: 'DELETE',
        path: '/comment/{id}',
        operationId: 'deleteComment',
        tags,
        summary: 'Delete a comment (its author, the post author or an ADMIN)',
        successDescription: 'Deleted',
        errorResponses: {
          ...badId,
          ...unauthorized,
          403: 'Not allowed to delete it',
          404: 'Comment not found',
        },
      },
    })
    .input(commentIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.feed.removeComment(input.id, ctx.actor)),

  addComment: authedProcedure
    .meta({
      successStatus: 201,
      location: '/comment/{output.id}',
      openapi: {
        method: 'POST',
        path: '/post/{id}/comment',
        operationId: 'commentOnPost',
        tags,
        summary: 'Comment on a post',
        successDescription: 'The created comment',
        errorResponses: { 400: 'Invalid input', ...unauthorized, 404: 'Post not found' },
      },
    })
    .input(createCommentInput)
    .output(commentSchema)
    .mutation(({ ctx, input }) => ctx.services.feed.addComment(input.id, input.content, ctx.actor)),

  like: authedProcedure
    .meta({
      reasons: { 409: ['ALREADY_LIKED'] },
      successStatus: 201,
      location: '/post/{input.id}/like',
      openapi: {
        method: 'POST',
        path: '/post/{id}/like',
        operationId: 'likePost',
        tags,
        summary: 'Like a post',
        successDescription: 'The like record',
        errorResponses: { ...badId, ...unauthorized, 404: 'Post not found', 409: 'Already liked' },
      },
    })
    .input(postIdInput)
    .output(userRecordSchema)
    .mutation(({ ctx, input }) => ctx.services.feed.like(input.id, ctx.actor)),

  unlike: authedProcedure
    .meta({
      reasons: { 404: ['NOT_LIKED'] },
      successStatus: 204,
      openapi: {
        method: 'DELETE',
        path: '/post/{id}/like',
        operationId: 'unlikePost',
        tags,
        summary: 'Take back a like',
        successDescription: 'Like removed',
        errorResponses: { ...badId, ...unauthorized, 404: 'Post not found, or not liked' },
      },
    })
    .input(postIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.feed.unlike(input.id, ctx.actor)),

  attend: authedProcedure
    .meta({
      reasons: { 400: ['NOT_AN_EVENT'], 409: ['ALREADY_ATTENDING'] },
      successStatus: 201,
      location: '/post/{input.id}/attendance',
      openapi: {
        method: 'POST',
        path: '/post/{id}/attendance',
        operationId: 'attendEvent',
        tags,
        summary: 'Confirm attendance at an EVENT',
        successDescription: 'The attendance record',
        errorResponses: {
          400: 'id is not a UUID, or the post is not an EVENT',
          ...unauthorized,
          404: 'Post not found',
          409: 'Already attending',
        },
      },
    })
    .input(postIdInput)
    .output(userRecordSchema)
    .mutation(({ ctx, input }) => ctx.services.feed.attend(input.id, ctx.actor)),

  unattend: authedProcedure
    .meta({
      reasons: { 404: ['NOT_ATTENDING'] },
      successStatus: 204,
      openapi: {
        method: 'DELETE',
        path: '/post/{id}/attendance',
        operationId: 'withdrawAttendance',
        tags,
        summary: 'Withdraw an attendance',
        successDescription: 'Attendance removed',
        errorResponses: { ...badId, ...unauthorized, 404: 'Post not found, or not attending' },
      },
    })
    .input(postIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.feed.unattend(input.id, ctx.actor)),

  report: authedProcedure
    .meta({
      reasons: { 409: ['ALREADY_REPORTED'] },
      successStatus: 201,
      location: '/post/{input.id}',
      openapi: {
        method: 'POST',
        path: '/post/{id}/report',
        operationId: 'reportPost',
        tags,
        summary: 'Report a post (once per user)',
        description:
          'At MODERATION_THRESHOLD distinct reporters (default 5) the post is hidden at once: only ' +
          "its author and site ADMINs still see it. The response carries the reporter's userId " +
          'for ADMIN callers only.',
        successDescription: 'The report record',
        errorResponses: {
          400: 'Invalid input',
          ...unauthorized,
          404: 'Post not found',
          409: 'Already reported',
        },
      },
    })
    .input(createReportInput)
    .output(reportSchema)
    .mutation(({ ctx, input }) => ctx.services.feed.report(input.id, input.reason, ctx.actor)),
  ...threadProcedures,
});
