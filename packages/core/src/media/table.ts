import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { users } from '../users/table';
import { LIMITS } from '../common/limits';

/**
 * Every stored image (docs/contract/media.md): a post's photo, an avatar or a group logo. `key`
 * is the unguessable part of its file names and URLs. A row is served while `discarded_at` is
 * null; the clean-up job deletes the files and the row of a discarded one, and of a post photo
 * no post took within 24 h (`attached_at` null). Detaching a photo from its post (a trigger on
 * `post_media`, migration 0020) discards it.
 */
export const media = pgTable(
  'media',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').notNull().unique('media_key_unique'),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['post', 'avatar', 'logo'] }).notNull(),
    contentType: text('content_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    thumbWidth: integer('thumb_width').notNull(),
    thumbHeight: integer('thumb_height').notNull(),
    thumbBytes: integer('thumb_bytes').notNull(),
    alt: varchar('alt', { length: LIMITS.media.alt.max }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    attachedAt: timestamp('attached_at', { withTimezone: true }),
    discardedAt: timestamp('discarded_at', { withTimezone: true }),
  },
  (t) => [
    index('media_owner_idx').on(t.ownerId),
    // One current avatar per account.
    uniqueIndex('media_one_avatar_idx')
      .on(t.ownerId)
      .where(sql`kind = 'avatar' and discarded_at is null`),
    // What the clean-up job looks for.
    index('media_unattached_idx')
      .on(t.createdAt)
      .where(sql`attached_at is null or discarded_at is not null`),
  ],
);

export type MediaRow = typeof media.$inferSelect;
