import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { users } from '../users/table';
import { LIMITS } from '../common/limits';

/**
 * The first answer of each create sent with an `Idempotency-Key` (docs/contract/protocol.md,
 * Idempotency-Key), per user and key, so a retry within 24 h is answered again instead of creating
 * twice, whichever process it reaches. `status` is null while the first request runs.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: varchar('key', { length: LIMITS.idempotencyKey.max }).notNull(),
    /** The tRPC path of the procedure, e.g. `feed.create`. */
    procedure: text('procedure').notNull(),
    /** SHA-256 of the procedure and its input: the same key with another request is refused. */
    fingerprint: text('fingerprint').notNull(),
    status: integer('status'),
    response: jsonb('response'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);
