import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { GROUP_ROLES } from '../common/actor';
import { LIMITS } from '../common/limits';
import { media } from '../media/table';
import { users } from '../users/table';
import { GROUP_TYPES, JOIN_REQUEST_STATUSES } from './enums';

export const groupTypeEnum = pgEnum('group_type', GROUP_TYPES);
/** Declared in rank order, so `order by role` lists owners, then admins, then members. */
export const groupRoleEnum = pgEnum('group_role', GROUP_ROLES);
export const joinRequestStatusEnum = pgEnum('group_join_request_status', JOIN_REQUEST_STATUSES);

/**
 * `lower(unaccent(name))`, an immutable SQL function (migration 0004): the key of the unique name
 * rule (no two names that differ only in case or accents), of the name order and of `q`.
 */
export const groupNameKey = (value: unknown) => sql`group_name_key(${value})`;

/** Counters are kept by triggers in the transaction of every member and follower row (0006). */
export const groups = pgTable(
  'groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: varchar('name', { length: LIMITS.group.name.max }).notNull(),
    description: varchar('description', { length: LIMITS.group.description.max }),
    groupType: groupTypeEnum('group_type').notNull(),
    sports: text('sports')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    acceptingNewMembers: boolean('accepting_new_members').notNull().default(true),
    verified: boolean('verified').notNull().default(false),
    membersCount: integer('members_count').notNull().default(0),
    followersCount: integer('followers_count').notNull().default(0),
    /** The current logo (docs/contract/media.md, Group logos); a replaced one is discarded. */
    logoMediaId: uuid('logo_media_id').references(() => media.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('groups_name_key_unique').using('btree', groupNameKey(t.name)),
    index('groups_type_name_idx').using('btree', t.groupType, groupNameKey(t.name)),
    // The clean-up job deletes media rows: the foreign key finds a logo's group by index.
    index('groups_logo_media_idx').on(t.logoMediaId),
    check('groups_counts_not_negative', sql`${t.membersCount} >= 0 and ${t.followersCount} >= 0`),
  ],
);

/** The group and the user of a membership, request or follow: both rows go, it goes. */
const groupRef = () =>
  uuid('group_id')
    .notNull()
    .references(() => groups.id, { onDelete: 'cascade' });
const userRef = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

export const groupMembers = pgTable(
  'group_members',
  {
    groupId: groupRef(),
    userId: userRef(),
    role: groupRoleEnum('role').notNull().default('MEMBER'),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'group_members_pk', columns: [t.groupId, t.userId] }),
    // GET /group/{id}/members: owners, admins, members, each by joinedAt, from the index.
    index('group_members_listing_idx').on(t.groupId, t.role, t.joinedAt, t.userId),
    index('group_members_user_idx').on(t.userId, t.role),
  ],
);

export const groupJoinRequests = pgTable(
  'group_join_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    groupId: groupRef(),
    userId: userRef(),
    status: joinRequestStatusEnum('status').notNull().default('PENDING'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    // At most one pending request per user and group: the guard against a double request.
    uniqueIndex('group_join_requests_pending_unique')
      .on(t.groupId, t.userId)
      .where(sql`${t.status} = 'PENDING'`),
    index('group_join_requests_group_idx').on(t.groupId, t.status, t.createdAt, t.id),
    // Foreign keys to users: a deleted account's rows are found by index, not by a full scan.
    index('group_join_requests_user_idx').on(t.userId),
    index('group_join_requests_decided_by_idx').on(t.decidedBy),
  ],
);

export const groupFollows = pgTable(
  'group_follows',
  {
    groupId: groupRef(),
    userId: userRef(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'group_follows_pk', columns: [t.groupId, t.userId] }),
    index('group_follows_user_idx').on(t.userId),
  ],
);

export type GroupRow = typeof groups.$inferSelect;
