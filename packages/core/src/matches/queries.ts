import { and, asc, count, eq, gt, lte, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { avatarUrlColumn } from '../media/references';
import type { Executor, Transaction } from '../db/client';
import { qualified } from '../db/qualified';
import { notFound } from '../errors';
import { groups } from '../groups/table';
import { users } from '../users/table';
import type { MatchStatus, TeamCounts } from './rules';
import { matchPlayers, matchWaitlist, matches } from './table';

/** The queries of the match service, written once for the database (prepared) and for a transaction. */

export type MatchRow = typeof matches.$inferSelect;

/** A user as `{id, name, userName, avatarUrl}`. */
export const userColumns = {
  id: users.id,
  name: users.nome,
  userName: users.nickname,
  avatarUrl: avatarUrlColumn(users.id),
};
export const matchNotFound = () => notFound('Match not found');

type Id = string | Placeholder;

/** The organising group's name and verified flag, beside a match row (null/false without one). */
export const groupColumns = {
  group: sql<
    string | null
  >`(select ${qualified(groups.name)} from ${groups} where ${qualified(groups.id)} = ${qualified(matches.groupId)})`,
  groupVerified: sql<boolean>`coalesce((select ${qualified(groups.verified)} from ${groups} where ${qualified(groups.id)} = ${qualified(matches.groupId)}), false)`,
};

export const matchWithAuthor = (ex: Executor, id: Id) =>
  ex
    .select({ match: matches, author: userColumns, ...groupColumns })
    .from(matches)
    .innerJoin(users, eq(users.id, matches.authorId))
    .where(eq(matches.id, id));

/** The waiting list, first in line first (`queuedAt`, then id). */
export const waitlistOf = (ex: Executor, matchId: Id) =>
  ex
    .select(userColumns)
    .from(matchWaitlist)
    .innerJoin(users, eq(users.id, matchWaitlist.userId))
    .where(eq(matchWaitlist.matchId, matchId))
    .orderBy(asc(matchWaitlist.queuedAt), asc(matchWaitlist.id));

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

/** Players per team (the match row's counters) and the caller's team, read under the match lock. */
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

/** `matches.players_a`/`players_b` as team counts. */
export const countsOf = (match: Pick<MatchRow, 'playersA' | 'playersB'>): TeamCounts => ({
  A: match.playersA,
  B: match.playersB,
});

/**
 * Whether `userId` (a placeholder or a value) plays in / waits for the current `matches` row:
 * the team letter, and the place in line (1 = next).
 */
export const viewerColumns = (userId: SQL | Placeholder | string) => ({
  myTeam: sql<
    'A' | 'B' | null
  >`(select ${qualified(matchPlayers.team)} from ${matchPlayers} where ${qualified(matchPlayers.matchId)} = ${qualified(matches.id)} and ${qualified(matchPlayers.userId)} = ${userId})`,
  myWaitlistPosition: sql<
    number | null
  >`(select count(*) from ${matchWaitlist} w, ${matchWaitlist} me
      where me.match_id = ${qualified(matches.id)} and me.user_id = ${userId}
        and w.match_id = me.match_id and (w.queued_at, w.id) <= (me.queued_at, me.id)
      having count(*) > 0)`.mapWith((value: unknown) => (value === null ? null : Number(value))),
});

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
