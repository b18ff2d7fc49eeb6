import { index, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/table';

/**
 * One row per open live stream, whatever process holds it: the per-user limit counts these.
 * The holding process renews `expires_at` while the stream is open; a process that dies without
 * deleting its rows frees them when they expire.
 */
export const streamLeases = pgTable(
  'stream_leases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('stream_leases_user_idx').on(t.userId, t.expiresAt)],
);
