import { and, asc, count, eq, or, sql, type SQL } from 'drizzle-orm';
import { avatarKeyOf } from '../media/references';
import { urlOrNull } from '../media/urls';
import { cursorScope, microsOf, timestampOf, type Cursors } from '../db/cursor';
import type { Database } from '../db/client';
import { qualified } from '../db/qualified';
import { rowCounts } from '../db/row-counts';
import { users } from '../users/table';
import { groupColumns, statusFilter, userColumns, viewerColumns } from './queries';
import { toListItem, type PlayerJson } from './records';
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

/** After a cursor's (match_date, id): the range of the (…, match_date, id) indexes from it on. */
const afterKey = sql`(${qualified(matches.matchDate)}, ${qualified(matches.id)}) > (${timestampOf(sql.placeholder('k0'))}, ${sql.placeholder('k1')}::uuid)`;

/**
 * The list's prepared statements: a page (by OFFSET, or after a cursor's key) and a total for
 * each combination of filters. Each match's players, the waiting list's length and the viewer's
 * team and place come in the page's own statement (no query per match), with its sort key. The
 * unfiltered total is the trigger-kept row count.
 */
function prepareMatchList(db: Database) {
  const listColumns = {
    match: matches,
    author: userColumns,
    ...groupColumns,
    ...viewerColumns(viewer),
    cursorKey: sql<string>`concat_ws(' ', ${microsOf(matches.matchDate)}, ${qualified(matches.id)})`,
    waitlistCount:
      sql<number>`(select count(*) from ${matchWaitlist} where ${qualified(matchWaitlist.matchId)} = ${qualified(matches.id)})`.mapWith(
        Number,
      ),
    players: sql<PlayerJson[]>`coalesce((
      select json_agg(json_build_object(
          'id', u.id, 'name', u.nome, 'userName', u.nickname, 'avatarUrl', ${avatarKeyOf(sql`u.id`)}, 'team', mp.team, 'subscribedAt', mp.subscribed_at
        ) order by mp.subscribed_at, mp.id)
      from ${matchPlayers} mp join ${users} u on u.id = mp.user_id
      where mp.match_id = ${qualified(matches.id)}), '[]'::json)`.mapWith((value: unknown) =>
      (typeof value === 'string'
        ? (JSON.parse(value) as PlayerJson[])
        : (value as PlayerJson[])
      ).map((player) => ({ ...player, avatarUrl: urlOrNull(player.avatarUrl) })),
    ),
  };
  const prepared = new Map<string, ReturnType<typeof prepare>>();

  function prepare(filters: Filters, name: string) {
    const where = whereOf(filters);
    const select = (start: SQL | undefined) =>
      db
        .select(listColumns)
        .from(matches)
        .innerJoin(users, eq(users.id, matches.authorId))
        .where(and(where, start))
        .orderBy(asc(matches.matchDate), asc(matches.id))
        .limit(sql.placeholder('limit'));
    const page = select(undefined).offset(sql.placeholder('offset')).prepare(`matches_page${name}`);
    const after = select(afterKey).prepare(`matches_after${name}`);
    const total = where
      ? db.select({ n: count() }).from(matches).where(where).prepare(`matches_total${name}`)
      : // Kept exact by a trigger in the transaction of every insert and delete (migration 0001).
        db
          .select({ n: rowCounts.rowCount })
          .from(rowCounts)
          .where(eq(rowCounts.tableName, 'matches'))
          .prepare('matches_total');
    return { page, after, total };
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

/** GET /match: MatchDate ascending, then id; `status` filters by the status as it reads now. */
export function createMatchList(db: Database, cursors: Cursors) {
  const listStatements = prepareMatchList(db);
  return async function list(query: ListMatchesQuery, viewerId: string) {
    const now = new Date();
    const scope = cursorScope(
      'matches',
      viewerId,
      query.status ?? null,
      query.sport ?? null,
      query.groupId ?? null,
      query.mine ?? null,
    );
    const position = cursors.positionOf(scope, query);
    const params = {
      limit: query.limit + 1,
      offset: position.offset,
      k0: position.after?.[0],
      k1: position.after?.[1],
      now: now.toISOString(),
      viewer: viewerId,
      sport: query.sport ?? null,
      groupId: query.groupId ?? null,
    };
    const statements = listStatements(query);
    const [rows, [counted]] = await Promise.all([
      (position.after ? statements.after : statements.page).execute(params),
      statements.total.execute(params),
    ]);
    return cursors.page(
      scope,
      position,
      query.limit,
      rows,
      counted?.n ?? 0,
      (r) => r.cursorKey.split(' '),
      (r) => toListItem(r.match, r, r.players, r.waitlistCount, now),
    );
  };
}
