import { and, asc, count, eq, gt, lte, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Database, Executor, Transaction } from '../db/client';
import { qualified } from '../db/qualified';
import { notFound } from '../errors';
import { users } from '../users/table';
import type { MatchStatus, Team, TeamCounts } from './rules';
import { matchPlayers, matches } from './table';

/** The queries of the match service, written once for the database (prepared) and for a transaction. */

export type MatchRow = typeof matches.$inferSelect;

/** A user as `{id, name, userName}`. */
export const userColumns = { id: users.id, name: users.nome, userName: users.nickname };
export const matchNotFound = () => notFound('Match not found');

type Id = string | Placeholder;

export const matchWithAuthor = (ex: Executor, id: Id) =>
  ex
    .select({ match: matches, author: userColumns })
    .from(matches)
    .innerJoin(users, eq(users.id, matches.authorId))
    .where(eq(matches.id, id));

export const playersOf = (ex: Executor, matchId: Id) =>
  ex
    .select({ ...userColumns, team: matchPlayers.team, subscribedAt: matchPlayers.subscribedAt })
    .from(matchPlayers)
    .innerJoin(users, eq(users.id, matchPlayers.userId))
    .where(eq(matchPlayers.matchId, matchId))
    .orderBy(asc(matchPlayers.subscribedAt), asc(matchPlayers.id));

/** The match row, locked until the transaction ends: every change to a match's players queues here. */
export async function lockMatch(tx: Transaction, id: string): Promise<MatchRow> {
  const [row] = await tx.select().from(matches).where(eq(matches.id, id)).for('update');
  if (!row) throw matchNotFound();
  return row;
}

/** Players per team and the caller's team, read under the match lock, so exact. */
export async function teamsOf(tx: Transaction, matchId: string, userId: string) {
  const rows = await tx
    .select({
      team: matchPlayers.team,
      players: count(),
      mine: sql<boolean>`bool_or(${matchPlayers.userId} = ${userId})`,
    })
    .from(matchPlayers)
    .where(eq(matchPlayers.matchId, matchId))
    .groupBy(matchPlayers.team);
  const counts: TeamCounts = { A: 0, B: 0 };
  for (const row of rows) counts[row.team] = row.players;
  return { counts, callerTeam: rows.find((row) => row.mine)?.team };
}

/**
 * The list filter by status as it reads now (`now` is a placeholder): EM_BREVE rows whose date
 * has passed belong to EM_ANDAMENTO. Served by matches_status_date_id_idx.
 */
export function statusFilter(status: MatchStatus): SQL | undefined {
  const now = sql.placeholder('now');
  if (status === 'EM_BREVE') return and(eq(matches.status, 'EM_BREVE'), gt(matches.matchDate, now));
  if (status === 'EM_ANDAMENTO') {
    return or(
      eq(matches.status, 'EM_ANDAMENTO'),
      and(eq(matches.status, 'EM_BREVE'), lte(matches.matchDate, now)),
    );
  }
  return eq(matches.status, status);
}

/** What a subscribe needs to know (players per team, whether the caller is in), read without a lock. */
export function subscriptionSnapshot(db: Database) {
  const playersIn = (team: Team) =>
    sql<number>`(select count(*) from ${matchPlayers} where ${qualified(matchPlayers.matchId)} = ${qualified(matches.id)} and ${qualified(matchPlayers.team)} = ${team})`.mapWith(
      Number,
    );
  return db
    .select({
      status: matches.status,
      matchDate: matches.matchDate,
      maxPlayers: matches.maxPlayers,
      a: playersIn('A'),
      b: playersIn('B'),
      subscribed: sql<boolean>`exists (select 1 from ${matchPlayers} where ${qualified(matchPlayers.matchId)} = ${qualified(matches.id)} and ${qualified(matchPlayers.userId)} = ${sql.placeholder('userId')})`,
    })
    .from(matches)
    .where(eq(matches.id, sql.placeholder('id')));
}
