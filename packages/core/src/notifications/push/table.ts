import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { users } from '../../users/table';
import { notificationTypeEnum, notifications } from '../table';

/**
 * A browser's push subscription (docs/contract/push.md). The endpoint is unique: a browser that
 * subscribes again, under another account, moves its row to that account. Goes with its account.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: varchar('endpoint', { length: 1000 }).notNull(),
    /** The browser's P-256 public key and auth secret (RFC 8291), base64url. */
    p256dh: varchar('p256dh', { length: 200 }).notNull(),
    auth: varchar('auth', { length: 100 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_unique').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId),
  ],
);

/** A type the user does not want pushed (`push = false`); no row: pushed (the default). */
export const pushPreferences = pgTable(
  'push_preferences',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: notificationTypeEnum('type').notNull(),
    push: boolean('push').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.type] })],
);

/**
 * The push outbox: one row per notification and subscription, written in the notification's
 * transaction and sent by the job queue's `push-drain`. The unique pair is what makes a
 * notification go at most once to a subscription; `sentAt` marks it gone. A row goes with its
 * notification or its subscription.
 */
export const pushOutbox = pgTable(
  'push_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    notificationId: uuid('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: varchar('last_error', { length: 500 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('push_outbox_pair_unique').on(t.notificationId, t.subscriptionId),
    index('push_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} is null`),
    index('push_outbox_subscription_idx').on(t.subscriptionId),
  ],
);

/**
 * The VAPID key pair made by the first process when none is configured: one row (id 1), so every
 * process signs with the same pair. base64url, as web-push reads them.
 */
export const pushVapidKeys = pgTable(
  'push_vapid_keys',
  {
    id: smallint('id').primaryKey().default(1),
    publicKey: varchar('public_key', { length: 100 }).notNull(),
    privateKey: varchar('private_key', { length: 100 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('push_vapid_keys_one_row', sql`${t.id} = 1`)],
);
