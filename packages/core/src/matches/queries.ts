import { and, asc, count, eq, gt, lte, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Database, Executor, Transaction } from '../db/client';
import { qualified } from '../db/qualified';
import { rowCounts } from '../db/row-counts';
import { notFound } from '../errors';
import { users } from '../users/table';
import type { PlayerJson } from './records';
import type { MatchStatus, Team, TeamCounts } from './rules';
import { MATCH_STATUSES } from './enums';
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

/**
 * The list's prepared statements, a page and a total for each status filter and for none. Each
 * match's players come in the page's own statement (no query per match), in subscription order.
 */
export function prepareMatchList(db: Database) {
  const listColumns = {
    match: matches,
    author: userColumns,
    players: sql<PlayerJson[]>`coalesce((
      select json_agg(json_build_object(
          'id', u.id, 'name', u.nome, 'userName', u.nickname, 'team', mp.team, 'subscribedAt', mp.subscribed_at
        ) order by mp.subscribed_at, mp.id)
      from ${matchPlayers} mp join ${users} u on u.id = mp.user_id
      where mp.match_id = ${qualified(matches.id)}), '[]'::json)`.mapWith((value: unknown) =>
      typeof value === 'string' ? (JSON.parse(value) as PlayerJson[]) : (value as PlayerJson[]),
    ),
  };
  const pageWhere = (where: SQL | undefined, name: string) =>
    db
      .select(listColumns)
      .from(matches)
      .innerJoin(users, eq(users.id, matches.authorId))
      .where(where)
      .orderBy(asc(matches.matchDate), asc(matches.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(name);
  const unfiltered = {
    page: pageWhere(undefined, 'matches_page'),
    // Kept exact by a trigger in the transaction of every insert and delete (migration 0001).
    total: db
      .select({ n: rowCounts.rowCount })
      .from(rowCounts)
      .where(eq(rowCounts.tableName, 'matches'))
      .prepare('matches_total'),
  };
  const byStatus = Object.fromEntries(
    MATCH_STATUSES.map((status) => [
      status,
      {
        page: pageWhere(statusFilter(status), `matches_page_${status}`),
        total: db
          .select({ n: count() })
          .from(matches)
          .where(statusFilter(status))
          .prepare(`matches_total_${status}`),
      },
    ]),
  ) as Record<MatchStatus, typeof unfiltered>;
  return (status: MatchStatus | undefined) => (status ? byStatus[status] : unfiltered);
}
