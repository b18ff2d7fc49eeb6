import { index, integer, pgEnum, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { MODERATION_TARGETS } from '../feed/enums';
import { users } from '../users/table';

/** An admin's decision on reported content (docs/contract/feed.md, Moderation). */
export const MODERATION_ACTIONS = ['OCULTAR', 'RESTAURAR', 'DESCARTAR'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export const moderationTargetEnum = pgEnum('moderation_target', MODERATION_TARGETS);
export const moderationActionEnum = pgEnum('moderation_action', MODERATION_ACTIONS);

/**
 * Every decision, kept: who, when, what, and how many open reports it closed. `targetId` names a
 * post or a comment (no FK: the record outlives deleted content).
 */
export const moderationDecisions = pgTable(
  'moderation_decisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    targetType: moderationTargetEnum('target_type').notNull(),
    targetId: uuid('target_id').notNull(),
    action: moderationActionEnum('action').notNull(),
    adminId: uuid('admin_id').references(() => users.id, { onDelete: 'set null' }),
    reportsClosed: integer('reports_closed').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('moderation_decisions_target_idx').on(t.targetType, t.targetId, t.createdAt),
    // The foreign key to users: a deleted admin's decisions are found by index.
    index('moderation_decisions_admin_idx').on(t.adminId),
  ],
);
