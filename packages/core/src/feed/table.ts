import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  index,
  integer,
  pgEnum,
  type PgColumnBuilderBase,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { groups } from '../groups/table';
import { userRef, users } from '../users/table';
import { media } from '../media/table';
import { LIMITS } from '../common/limits';
import { POST_TYPES } from './enums';

export const postTypeEnum = pgEnum('post_type', POST_TYPES);

/** Counters are maintained in the same transaction as the rows they count. */
/** PostgreSQL's `tsvector`: the stored search document of a post. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * The moderation state a post and a comment share (docs/contract/feed.md, Moderation): `hiddenAt`
 * set while hidden (by the reporters' threshold or an admin's OCULTAR); `keptVisible` after an
 * admin's RESTAURAR, so that reports past the threshold no longer hide it.
 */
const moderated = () => ({
  hiddenAt: timestamp('hidden_at', { withTimezone: true }),
  keptVisible: boolean('kept_visible').notNull().default(false),
});

export const posts = pgTable(
  'posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: varchar('title', { length: LIMITS.post.title.max }).notNull(),
    content: text('content'),
    type: postTypeEnum('type').notNull(),
    author: varchar('author', { length: LIMITS.user.nickname.max }).notNull(),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    group: varchar('group', { length: LIMITS.post.group.max }),
    /**
     * The group it is posted in the name of; `group` is that group's name (docs/contract/groups.md,
     * Posts in a group).
     */
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'set null' }),
    eventDate: timestamp('event_date', { withTimezone: true }),
    eventFinishDate: timestamp('event_finish_date', { withTimezone: true }),
    location: varchar('location', { length: LIMITS.post.location.max }),
    likesCount: integer('likes_count').notNull().default(0),
    commentsCount: integer('comments_count').notNull().default(0),
    attendancesCount: integer('attendances_count').notNull().default(0),
    ...moderated(),
    /**
     * Title (weight A) and content (B) in Portuguese, accents ignored: `post_search_document`,
     * an immutable function of migration 0009. Never selected into a response.
     */
    search: tsvector('search').generatedAlwaysAs(
      (): ReturnType<typeof sql> => sql`post_search_document(title, content)`,
    ),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The feed's order. hidden_at and author_id ride along so that choosing a page's ids under
    // the reader's visibility is an index-only scan (page 1000 skips 9,990 rows without the heap).
    index('posts_feed_order_idx').on(t.createdAt.desc(), t.id.desc(), t.hiddenAt, t.authorId),
    // The author's and the group's posts, newest first (filters of GET /post).
    index('posts_author_created_idx').on(t.authorId, t.createdAt.desc(), t.id.desc()),
    index('posts_group_created_idx').on(t.groupId, t.createdAt.desc(), t.id.desc()),
    // type=: a cursor's page is a range of this index from its key on (docs/contract/cursors.md).
    index('posts_type_created_idx').on(t.type, t.createdAt.desc(), t.id.desc()),
    // upcoming=true: events by date.
    index('posts_event_date_idx')
      .on(t.eventDate, t.id)
      .where(sql`${t.type} = 'EVENT'`),
    index('posts_search_idx').using('gin', t.search),
    // Few rows: what the list totals subtract for readers who may not see them.
    index('posts_hidden_idx')
      .on(t.authorId)
      .where(sql`${t.hiddenAt} is not null`),
  ],
);

export const postComments = pgTable(
  'post_comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: varchar('content', { length: LIMITS.comment.content.max }).notNull(),
    ...moderated(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Null until the author edits it. */
    updatedAt: timestamp('updated_at', { withTimezone: true }),
  },
  (t) => [
    index('post_comments_post_idx').on(t.postId, t.createdAt.desc(), t.id.desc()),
    index('post_comments_author_idx').on(t.authorId),
    index('post_comments_hidden_idx')
      .on(t.postId, t.authorId)
      .where(sql`${t.hiddenAt} is not null`),
  ],
);

/** A row per user and post (likes, attendances, reports); `extra` columns keep their types. */
const perUserRecord = <Extra extends Record<string, PgColumnBuilderBase> = Record<never, never>>(
  name: string,
  extra: Extra = {} as Extra,
) =>
  pgTable(
    name,
    {
      id: uuid('id').primaryKey().defaultRandom(),
      postId: uuid('post_id')
        .notNull()
        .references(() => posts.id, { onDelete: 'cascade' }),
      userId: userRef(),
      ...extra,
      createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [
      unique(`${name}_post_user_unique`).on(t.postId, t.userId),
      // The sub-lists and the bounded embed of GET /post/{id}: newest first, by post.
      index(`${name}_post_created_idx`).on(t.postId, t.createdAt.desc(), t.id.desc()),
      // A user's rows: the account deletion's foreign-key cascade and the LGPD export.
      index(`${name}_user_idx`).on(t.userId),
    ],
  );

export const postLikes = perUserRecord('post_likes');
export const postAttendances = perUserRecord('post_attendances');
/** A report stays; an admin's decision closes it (`resolvedAt`). */
const reportColumns = () => ({
  reason: varchar('reason', { length: LIMITS.report.reason.max }).notNull(),
  resolvedAt: timestamp('resolved_at', { withTimezone: true }),
});

export const postReports = perUserRecord('post_reports', reportColumns());

/** One report per user and comment (docs/contract/feed.md, Reports). */
export const commentReports = pgTable(
  'comment_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    commentId: uuid('comment_id')
      .notNull()
      .references(() => postComments.id, { onDelete: 'cascade' }),
    userId: userRef(),
    ...reportColumns(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('comment_reports_comment_user_unique').on(t.commentId, t.userId),
    index('comment_reports_user_idx').on(t.userId),
  ],
);

/**
 * A post's photos, in order (docs/contract/media.md). A photo belongs to one post at most; a row
 * deleted (the post deleted, or the photo left out by a PATCH) discards its image (trigger
 * `post_media_discard`, migration 0020), so its files answer 404 within a minute.
 */
export const postMedia = pgTable(
  'post_media',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    mediaId: uuid('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' })
      .unique('post_media_media_unique'),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.mediaId] })],
);
