import { z } from 'zod';
import type { FieldIssue } from '../errors';
import {
  cursorListResponse,
  cursorPageQuery,
  listResponse,
  pageQuery,
  queryFlag,
} from '../common/pagination';
import { POST_TYPES } from './enums';
import { LIMITS } from '../common/limits';
import { mediaIdsInput, mediaItemSchema } from '../media/schemas';

/*
 * Feed inputs and outputs (docs/contract/feed.md). Messages in English.
 * Unknown body keys (a client `id`, counters, collections) are stripped by zod, i.e. ignored.
 */

const text = (field: string, min: number, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .min(
      min,
      min === 1 ? `${field} must not be empty` : `${field} must have at least ${min} characters`,
    )
    .max(max, `${field} must have at most ${max} characters`);

const timestamp = (field: string) =>
  z.iso.datetime({ offset: true, error: `${field} must be an ISO 8601 date-time` });

export const postTypeSchema = z.enum(POST_TYPES, { error: 'type must be GENERAL or EVENT' });
export type PostType = z.infer<typeof postTypeSchema>;

const idInput = z.object({ id: z.uuid('id must be a UUID') });
/** A post's id in the path (`/post/{id}`). */
export const postIdInput = idInput;
/** A comment's id in the path (`/comment/{id}`). */
export const commentIdInput = idInput;

/** Fields a client may set, on creation and on PATCH. */
const editable = {
  title: text('title', LIMITS.post.title.min, LIMITS.post.title.max),
  content: z
    .string({ error: 'content must be a string' })
    .max(LIMITS.post.content.max, `content must have at most ${LIMITS.post.content.max} characters`)
    .nullish(),
  type: postTypeSchema,
  author: z
    .string({ error: 'author must be a string' })
    .min(LIMITS.post.author.min, 'author must not be empty')
    .max(LIMITS.post.author.max, `author must have at most ${LIMITS.post.author.max} characters`)
    .describe("Accepted for compatibility; the service stores the author user's nickname"),
  authorId: z.uuid('authorId must be a UUID'),
  group: z
    .string({ error: 'group must be a string' })
    .max(LIMITS.post.group.max, `group must have at most ${LIMITS.post.group.max} characters`)
    .nullish()
    .describe("Accepted for compatibility; the service stores the name of the groupId's group"),
  groupId: z
    .uuid('groupId must be a UUID')
    .nullish()
    .describe('The group to post in the name of: the caller must be its OWNER or ADMIN'),
  eventDate: timestamp('eventDate').nullish(),
  eventFinishDate: timestamp('eventFinishDate').nullish(),
  location: text('location', LIMITS.post.location.min, LIMITS.post.location.max).nullish(),
  mediaIds: mediaIdsInput.optional(),
};

/** The event fields of a post, whatever their source (body strings or stored dates). */
export interface EventFields {
  type: PostType;
  eventDate?: Date | string | null | undefined;
  eventFinishDate?: Date | string | null | undefined;
  location?: string | null | undefined;
}

const time = (value: Date | string) => new Date(value).getTime();

/**
 * The rules that involve several fields: an EVENT needs `eventDate` and `location` and ends no
 * earlier than it starts; a GENERAL post has no event fields. Checked on the body of a creation
 * and on the merged result of a PATCH.
 */
export function eventFieldIssues(post: EventFields): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (post.type === 'EVENT') {
    if (post.eventDate == null)
      issues.push({ path: 'eventDate', message: 'eventDate is required for an EVENT' });
    if (post.location == null)
      issues.push({ path: 'location', message: 'location is required for an EVENT' });
    if (
      post.eventDate != null &&
      post.eventFinishDate != null &&
      time(post.eventFinishDate) < time(post.eventDate)
    ) {
      issues.push({
        path: 'eventFinishDate',
        message: 'eventFinishDate must not be before eventDate',
      });
    }
  } else {
    for (const field of ['eventDate', 'eventFinishDate', 'location'] as const) {
      if (post[field] != null)
        issues.push({ path: field, message: `${field} must be null for a GENERAL post` });
    }
  }
  return issues;
}

export const createPostInput = z
  .object({
    id: z.string().optional().describe('Ignored: the service generates the id'),
    ...editable,
  })
  .superRefine(
    (post, ctx) => {
      for (const issue of eventFieldIssues(post)) {
        ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
      }
    },
    // Across fields only once each field is valid on its own (no "before" of an unreadable date).
    { when: (payload) => payload.issues.length === 0 },
  )
  .meta({
    examples: [
      {
        title: 'Campus cup final',
        content: 'Come and cheer for the team',
        type: 'EVENT',
        author: 'maria_silva',
        authorId: '0b6f7a8e-2c4d-4e5f-9a1b-3c5d7e9f1a2b',
        eventDate: '2036-05-10T18:00:00.000Z',
        eventFinishDate: '2036-05-10T20:00:00.000Z',
        location: 'Main stadium',
      },
    ],
  });
export type CreatePostInput = z.infer<typeof createPostInput>;

const patchFields = z.object({
  title: editable.title.optional(),
  content: editable.content,
  type: editable.type.optional(),
  author: editable.author.optional(),
  authorId: editable.authorId.optional(),
  group: editable.group,
  groupId: editable.groupId,
  eventDate: editable.eventDate,
  eventFinishDate: editable.eventFinishDate,
  location: editable.location,
  mediaIds: editable.mediaIds,
});
export type PostChanges = z.infer<typeof patchFields>;

export const updatePostInput = postIdInput
  .extend(patchFields.shape)
  .refine((input) => Object.keys(input).some((key) => key !== 'id'), {
    message: 'at least one field to change is required',
    path: [],
  })
  .meta({ examples: [{ title: 'Campus cup final: new time', content: 'Now at 19:00' }] });
export type UpdatePostInput = z.infer<typeof updatePostInput>;

/** GET /post: every filter optional and combinable (docs/contract/feed.md, Listing). */
export const listPostsInput = cursorPageQuery(50).extend({
  type: postTypeSchema.optional(),
  groupId: z.uuid('groupId must be a UUID').optional(),
  authorId: z.uuid('authorId must be a UUID').optional(),
  q: text('q', 1, LIMITS.post.search.max)
    .optional()
    .describe(
      'Full-text search of title and content in Portuguese (stemming; accents and case ignored; ' +
        'web-search syntax: "exact phrase", or, -word), most relevant first',
    ),
  following: queryFlag('following')
    .optional()
    .describe('true: only posts of groups the caller follows'),
  upcoming: queryFlag('upcoming')
    .optional()
    .describe('true: only EVENT posts whose eventDate is not past, soonest first'),
});
export type ListPostsQuery = z.infer<typeof listPostsInput>;

/** A post's sub-list (`/post/{id}/comment`, `/like`, `/attendance`): newest first, paged. */
export const postPageInput = postIdInput.extend(pageQuery(50).shape);
export type PostPageQuery = z.infer<typeof postPageInput>;
/** GET /post/{id}/comment: newest first, by page or by cursor. */
export const commentPageInput = postIdInput.extend(cursorPageQuery(50).shape);
export type CommentPageQuery = z.infer<typeof commentPageInput>;

export const updateCommentInput = commentIdInput
  .extend({ content: text('content', LIMITS.comment.content.min, LIMITS.comment.content.max) })
  .meta({ examples: [{ content: 'See you there! (from 19:00)' }] });
export const createCommentReportInput = commentIdInput
  .extend({ reason: text('reason', LIMITS.report.reason.min, LIMITS.report.reason.max) })
  .meta({ examples: [{ reason: 'Offensive language' }] });

export const createCommentInput = postIdInput
  .extend({ content: text('content', LIMITS.comment.content.min, LIMITS.comment.content.max) })
  .meta({ examples: [{ content: 'See you there!' }] });
export const createReportInput = postIdInput
  .extend({ reason: text('reason', LIMITS.report.reason.min, LIMITS.report.reason.max) })
  .meta({ examples: [{ reason: 'Spam: the same advert posted many times' }] });

// ---- outputs ----

/** Who wrote a comment: a user as the feed shows one. */
const avatarUrl = z.string().nullable().describe('Their avatar (256 px square), null when none');
const userRef = z.object({ id: z.uuid(), userName: z.string(), avatarUrl }).meta({ id: 'UserRef' });

export const commentSchema = z
  .object({
    id: z.uuid(),
    content: z.string(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime().nullable().describe('null until the author edits it'),
    hidden: z
      .boolean()
      .describe('Hidden by moderation: only its author and site ADMINs still see it'),
    author: userRef,
  })
  .meta({ id: 'PostComment' });
export type Comment = z.infer<typeof commentSchema>;

/** A like or an attendance: who, and when. */
export const userRecordSchema = z
  .object({
    id: z.uuid(),
    userId: z.uuid(),
    userName: z.string(),
    avatarUrl,
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'PostUserRecord' });
export type UserRecord = z.infer<typeof userRecordSchema>;

/** The reporter's `userId` is shown to ADMIN callers only: a reporter stays anonymous. */
export const reportSchema = z
  .object({
    id: z.uuid(),
    reason: z.string(),
    createdAt: z.iso.datetime(),
    userId: z.uuid().optional(),
  })
  .meta({ id: 'PostReport' });
export type Report = z.infer<typeof reportSchema>;

export const postSummarySchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    content: z.string().nullable(),
    type: postTypeSchema,
    author: z.string(),
    authorId: z.uuid(),
    group: z.string().nullable(),
    groupId: z.uuid().nullable(),
    groupVerified: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    eventDate: z.iso.datetime().nullable(),
    eventFinishDate: z.iso.datetime().nullable(),
    location: z.string().nullable(),
    likesCount: z.number().int(),
    commentsCount: z.number().int(),
    attendancesCount: z.number().int(),
    likedByMe: z.boolean().describe('Whether the caller likes it'),
    attendingByMe: z.boolean().describe('Whether the caller confirmed attendance'),
    hidden: z
      .boolean()
      .describe('Hidden by moderation: only its author and site ADMINs still see it'),
    media: z.array(mediaItemSchema).describe('Its photos, in order (empty when none)'),
    authorAvatarUrl: avatarUrl,
  })
  .meta({ id: 'PostSummary' });
export type PostSummary = z.infer<typeof postSummarySchema>;

/**
 * Deliberate changes (docs/contract/feed.md, Posts and Bounded reads): collections are always
 * arrays, never `{}`, and hold at most the 50 newest items each; the counters give the totals.
 */
export const postSchema = postSummarySchema
  .extend({
    comments: z.array(commentSchema),
    likes: z.array(userRecordSchema),
    reports: z.array(reportSchema),
    attendances: z.array(userRecordSchema),
  })
  .meta({ id: 'Post' });
export type Post = z.infer<typeof postSchema>;

export const postListResponse = cursorListResponse(postSummarySchema).meta({ id: 'PostList' });
export type PostList = z.infer<typeof postListResponse>;

export const commentListResponse = cursorListResponse(commentSchema).meta({ id: 'CommentList' });
export type CommentList = z.infer<typeof commentListResponse>;
export const userRecordListResponse = listResponse(userRecordSchema).meta({
  id: 'PostUserRecordList',
});
export type UserRecordList = z.infer<typeof userRecordListResponse>;

/**
 * The feed stream (GET /streams/feed): `ready` once listening, then each post as it is published
 * (`post`: its id and author), and `missed` when the server's listening connection was lost and
 * posts may have gone by unannounced. A client shows "novos posts" and reads the list's first
 * page when asked; the stream itself carries no post.
 */
export const feedStreamEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ready') }),
  z.object({ kind: z.literal('post'), postId: z.uuid(), authorId: z.uuid() }),
  z.object({ kind: z.literal('missed') }),
]);
export type FeedStreamEvent = z.infer<typeof feedStreamEvent>;
