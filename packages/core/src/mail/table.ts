import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';
import { LIMITS } from '../common/limits';
import { users } from '../users/table';

/**
 * The e-mail outbox (docs/contract/accounts.md, E-mail): a message is written here in the
 * transaction of the change that causes it, and sent later by the job queue's `mail-drain`. A
 * message whose send failed stays, with `nextAttemptAt` pushed back, until it goes: a mail server
 * that is down delays mail and loses none. Once sent, its body (which may hold a one-time link) is
 * erased; the row goes with its user's account.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    to: varchar('to', { length: LIMITS.user.email.max }).notNull(),
    subject: varchar('subject', { length: 200 }).notNull(),
    /** Plain text and HTML bodies; null once sent. */
    text: text('text'),
    html: text('html'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: varchar('last_error', { length: 500 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When it left (over SMTP, or written to the log when mail is disabled in development). */
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    // The drain's read: what is due and not sent yet.
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} is null`),
    index('mail_outbox_user_idx').on(t.userId),
  ],
);
