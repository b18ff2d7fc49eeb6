import {
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  timestamp,
  unique,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from '../users/table';
import { LIMITS } from '../common/limits';
import { MATCH_STATUSES, TEAMS } from './enums';

export const matchStatusEnum = pgEnum('match_status', MATCH_STATUSES);
export const teamEnum = pgEnum('team', TEAMS);

export const matches = pgTable(
  'matches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: varchar('title', { length: LIMITS.match.title.max }).notNull(),
    description: varchar('description', { length: LIMITS.match.description.max }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    maxPlayers: integer('max_players').notNull(),
    matchDate: timestamp('match_date', { withTimezone: true }).notNull(),
    status: matchStatusEnum('status').notNull().default('EM_BREVE'),
    location: varchar('location', { length: LIMITS.match.location.max }).notNull(),
    teamNameA: varchar('team_name_a', { length: LIMITS.match.teamName.max })
      .notNull()
      .default('TIME_A'),
    teamNameB: varchar('team_name_b', { length: LIMITS.match.teamName.max })
      .notNull()
      .default('TIME_B'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('matches_date_id_idx').on(t.matchDate, t.id),
    index('matches_status_date_id_idx').on(t.status, t.matchDate, t.id),
    check('matches_max_players_range', sql`${t.maxPlayers} between 2 and 100`),
  ],
);

/** One row per player in a match. The unique constraint is the last guard against doubles. */
export const matchPlayers = pgTable(
  'match_players',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    matchId: uuid('match_id')
      .notNull()
      .references(() => matches.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    team: teamEnum('team').notNull(),
    subscribedAt: timestamp('subscribed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('match_players_match_user_unique').on(t.matchId, t.userId),
    index('match_players_match_team_idx').on(t.matchId, t.team, t.subscribedAt),
  ],
);
