import { and, asc, count, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { qualified } from '../db/qualified';
import { rowCounts } from '../db/row-counts';
import { users } from '../users/table';
import { groupColumns, statusFilter, userColumns, viewerColumns } from './queries';
import type { PlayerJson } from './records';
import type { ListMatchesQuery } from './schemas';
import { matchPlayers, matchWaitlist, matches } from './table';

/** Which filters a list call uses: one prepared statement pair per combination, made on first use. */
type Filters = Pick<ListMatchesQuery, 'status'> & {
  sport: boolean;
  groupId: boolean;
  mine: boolean;
};

const viewer = sql.placeholder('viewer');

/** Matches the viewer created, plays in or waits for. */
const mineFilter = () =>
  or(
    eq(matches.authorId, viewer),
    sql`exists (select 1 from ${matchPlayers} where ${qualified(matchPlayers.matchId)} = ${qualified(matches.id)} and ${qualified(matchPlayers.userId)} = ${viewer})`,
    sql`exists (select 1 from ${matchWaitlist} where ${qualified(matchWaitlist.matchId)} = ${qualified(matches.id)} and ${qualified(matchWaitlist.userId)} = ${viewer})`,
  );

function whereOf(filters: Filters): SQL | undefined {
  return and(
    filters.status ? statusFilter(filters.status) : undefined,
    filters.sport ? eq(matches.sport, sql.placeholder('sport')) : undefined,
    filters.groupId ? eq(matches.groupId, sql.placeholder('groupId')) : undefined,
    filters.mine ? mineFilter() : undefined,
  );
}

/**
 * The list's prepared statements: a page and a total for each combination of filters. Each
 * match's players, the waiting list's length and the viewer's team and place come in the page's
 * own statement (no query per match). The unfiltered total is the trigger-kept row count.
 */
export function prepareMatchList(db: Database) {
  const listColumns = {
    match: matches,
    author: userColumns,
    ...groupColumns,
    ...viewerColumns(viewer),
    waitlistCount:
      sql<number>`(select count(*) from ${matchWaitlist} where ${qualified(matchWaitlist.matchId)} = ${qualified(matches.id)})`.mapWith(
        Number,
      ),
    players: sql<PlayerJson[]>`coalesce((
      select json_agg(json_build_object(
          'id', u.id, 'name', u.nome, 'userName', u.nickname, 'team', mp.team, 'subscribedAt', mp.subscribed_at
        ) order by mp.subscribed_at, mp.id)
      from ${matchPlayers} mp join ${users} u on u.id = mp.user_id
      where mp.match_id = ${qualified(matches.id)}), '[]'::json)`.mapWith((value: unknown) =>
      typeof value === 'string' ? (JSON.parse(value) as PlayerJson[]) : (value as PlayerJson[]),
    ),
  };
  const prepared = new Map<string, ReturnType<typeof prepare>>();

  function prepare(filters: Filters, name: string) {
    const where = whereOf(filters);
    const page = db
      .select(listColumns)
      .from(matches)
      .innerJoin(users, eq(users.id, matches.authorId))
      .where(where)
      .orderBy(asc(matches.matchDate), asc(matches.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(`matches_page${name}`);
    const total = where
      ? db.select({ n: count() }).from(matches).where(where).prepare(`matches_total${name}`)
      : // Kept exact by a trigger in the transaction of every insert and delete (migration 0001).
        db
          .select({ n: rowCounts.rowCount })
          .from(rowCounts)
          .where(eq(rowCounts.tableName, 'matches'))
          .prepare('matches_total');
    return { page, total };
  }

  return (query: ListMatchesQuery) => {
    const filters: Filters = {
      status: query.status,
      sport: query.sport !== undefined,
      groupId: query.groupId !== undefined,
      mine: query.mine === true,
    };
    const name = [
      filters.status,
      filters.sport && 'sport',
      filters.groupId && 'group',
      filters.mine && 'mine',
    ]
      .filter(Boolean)
      .map((part) => `_${part}`)
      .join('');
    let statements = prepared.get(name);
    if (!statements) prepared.set(name, (statements = prepare(filters, name)));
    return statements;
  };
}
