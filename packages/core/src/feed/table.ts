import {
  index,
  integer,
  pgEnum,
  type PgColumnBuilderBase,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { groups } from '../groups/table';
import { users } from '../users/table';
import { LIMITS } from '../common/limits';
import { POST_TYPES } from './enums';

export const postTypeEnum = pgEnum('post_type', POST_TYPES);

/** Counters are maintained in the same transaction as the rows they count. */
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
    /** The group it is posted in the name of; `group` is that group's name (extensions.md §A). */
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'set null' }),
    eventDate: timestamp('event_date', { withTimezone: true }),
    eventFinishDate: timestamp('event_finish_date', { withTimezone: true }),
    location: varchar('location', { length: LIMITS.post.location.max }),
    likesCount: integer('likes_count').notNull().default(0),
    commentsCount: integer('comments_count').notNull().default(0),
    attendancesCount: integer('attendances_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('posts_created_at_id_idx').on(t.createdAt.desc(), t.id.desc()),
    index('posts_author_idx').on(t.authorId),
    index('posts_group_idx').on(t.groupId),
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('post_comments_post_idx').on(t.postId, t.createdAt.desc(), t.id.desc())],
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
      userId: uuid('user_id')
        .notNull()
        .references(() => users.id, { onDelete: 'cascade' }),
      ...extra,
      createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [unique(`${name}_post_user_unique`).on(t.postId, t.userId)],
  );

export const postLikes = perUserRecord('post_likes');
export const postAttendances = perUserRecord('post_attendances');
export const postReports = perUserRecord('post_reports', {
  reason: varchar('reason', { length: LIMITS.report.reason.max }).notNull(),
});
