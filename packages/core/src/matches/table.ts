// The table builders, then the column types.
import { check, index, pgEnum, pgTable, unique } from 'drizzle-orm/pg-core';
import { integer, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { groups } from '../groups/table';
import { userRef, users } from '../users/table';
import { LIMITS } from '../common/limits';
import { MATCH_STATUSES, SPORTS, TEAMS } from './enums';

export const matchStatusEnum = pgEnum('match_status', MATCH_STATUSES);
export const teamEnum = pgEnum('team', TEAMS);

export const sportEnum = pgEnum('match_sport', SPORTS);

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
    sport: sportEnum('sport'),
    /** The organising group (its OWNER/ADMIN may manage the match); a deleted group leaves it null. */
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'set null' }),
    /** Set by the author once FINALIZADA. */
    teamAScore: integer('team_a_score'),
    teamBScore: integer('team_b_score'),
    /**
     * Players per team, kept by a trigger on match_players in the transaction of every insert,
     * team change and delete (migration 0010): an admission checks capacity on this row in the
     * same statement that inserts the player.
     */
    playersA: integer('players_a').notNull().default(0),
    playersB: integer('players_b').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('matches_date_id_idx').on(t.matchDate, t.id),
    index('matches_status_date_id_idx').on(t.status, t.matchDate, t.id),
    index('matches_sport_date_id_idx').on(t.sport, t.matchDate, t.id),
    index('matches_group_date_id_idx').on(t.groupId, t.matchDate, t.id),
    index('matches_author_idx').on(t.authorId),
    check('matches_max_players_range', sql`${t.maxPlayers} between 2 and 100`),
    check(
      'matches_scores_range',
      sql`${t.teamAScore} between 0 and 999 and ${t.teamBScore} between 0 and 999`,
    ),
  ],
);

/** A user's row in a match (a seat, a place in the queue): it goes with the match or the user. */
const matchUserColumns = () => ({
  id: uuid('id').primaryKey().defaultRandom(),
  matchId: uuid('match_id')
    .notNull()
    .references(() => matches.id, { onDelete: 'cascade' }),
  userId: userRef(),
});

/** One row per player in a match. The unique constraint is the last guard against doubles. */
export const matchPlayers = pgTable(
  'match_players',
  {
    ...matchUserColumns(),
    team: teamEnum('team').notNull(),
    subscribedAt: timestamp('subscribed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('match_players_match_user_unique').on(t.matchId, t.userId),
    index('match_players_match_team_idx').on(t.matchId, t.team, t.subscribedAt),
    index('match_players_user_idx').on(t.userId),
  ],
);

/**
 * The waiting list of a full match, first come first served by `queuedAt` (then id). A user is
 * never both here and in match_players: triggers refuse either insert while the other row exists
 * (migration 0010), and promotion moves the row under the match lock.
 */
export const matchWaitlist = pgTable(
  'match_waitlist',
  {
    ...matchUserColumns(),
    queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('match_waitlist_match_user_unique').on(t.matchId, t.userId),
    index('match_waitlist_queue_idx').on(t.matchId, t.queuedAt, t.id),
    index('match_waitlist_user_idx').on(t.userId),
  ],
);
