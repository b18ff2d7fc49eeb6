import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  jsonb,
  pgEnum,
  pgTable,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { users } from '../users/table';

/** Every kind of notification of extensions.md §C (GROUP_POST and MATCH_SPOT_GRANTED: written by their issues). */
export const NOTIFICATION_TYPES = [
  'POST_COMMENT',
  'GROUP_JOIN_REQUEST',
  'GROUP_JOIN_APPROVED',
  'GROUP_JOIN_REJECTED',
  'GROUP_POST',
  'MATCH_SPOT_GRANTED',
  'MATCH_CANCELLED',
  'MATCH_REMINDER',
  'EVENT_REMINDER',
  'CONTENT_HIDDEN',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const notificationTypeEnum = pgEnum('notification_type', NOTIFICATION_TYPES);

/** What a notification points at. */
export interface NotificationData {
  postId?: string;
  commentId?: string;
  matchId?: string;
  groupId?: string;
}

/**
 * A user's inbox. `seq` orders it and is the stream's event id (`Last-Event-ID` resumes after
 * it). `dedupeKey`, when set, makes a notification at most once per user (reminders).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: notificationTypeEnum('type').notNull(),
    message: varchar('message', { length: 500 }).notNull(),
    data: jsonb('data').$type<NotificationData>().notNull().default({}),
    dedupeKey: varchar('dedupe_key', { length: 200 }),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_user_seq_idx').on(t.userId, t.seq.desc()),
    index('notifications_user_unread_idx')
      .on(t.userId, t.seq.desc())
      .where(sql`${t.readAt} is null`),
    uniqueIndex('notifications_user_dedupe_unique').on(t.userId, t.dedupeKey),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;
