import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import type { AuthUser } from '../auth/service';
import { listMeta, pageOffset } from '../common/pagination';
import type { Database, Executor, Transaction } from '../db/client';
import { qualified } from '../db/qualified';
import { rowCounts } from '../db/row-counts';
import { conflict, forbidden, isUniqueViolation, notFound } from '../errors';
import { users } from '../users/table';
import {
  lockMatch,
  matchNotFound,
  matchWithAuthor,
  playersOf,
  statusFilter,
  subscriptionSnapshot,
  teamsOf,
  userColumns,
  type MatchRow,
} from './queries';
import {
  canTransition,
  effectiveStatus,
  fitsCapacity,
  hasStarted,
  otherTeam,
  placeNewPlayer,
  teamCapacity,
  type MatchStatus,
  type Team,
  type TeamCounts,
} from './rules';
import type {
  CreateMatchInput,
  ListMatchesQuery,
  Match,
  MatchFields,
  MatchListItem,
  MatchPlayer,
  MatchSubscription,
  MatchTeamChange,
  UpdateMatchFields,
  MatchUser,
} from './schemas';
import { MATCH_STATUSES, matchPlayers, matches } from './table';

/** Who is calling: the author check and the ADMIN exception need only these. */
type Caller = Pick<AuthUser, 'id' | 'perfil'>;

const isAdmin = (caller: Caller) => caller.perfil === 'ADMIN';

/**
 * Why a subscription is refused (thrown), or the team it goes to: the match started (effective
 * status not EM_BREVE, which includes a passed date), the caller is in already, or both teams are full.
 */
function refuseSubscription(
  match: Pick<MatchRow, 'status' | 'matchDate' | 'maxPlayers'>,
  counts: TeamCounts,
  subscribed: boolean,
): Team {
  if (hasStarted(match.status, match.matchDate, new Date())) {
    throw forbidden('The match has already started', 'MATCH_STARTED');
  }
  if (subscribed) throw conflict('You are already subscribed to this match', 'ALREADY_SUBSCRIBED');
  const team = placeNewPlayer(counts, match.maxPlayers);
  if (!team) throw forbidden('The match is full', 'MATCH_FULL');
  return team;
}

// ---- shaping --------------------------------------------------------------------------------

function toFields(row: MatchRow, author: MatchUser, filled: number, now: Date): MatchFields {
  return {
    id: row.id,
    title: row.title,
    ...(row.description !== null ? { description: row.description } : {}),
    author,
    authorId: row.authorId,
    maxPlayers: row.maxPlayers,
    MatchDate: row.matchDate.toISOString(),
    MatchStatus: effectiveStatus(row.status, row.matchDate, now),
    location: row.location,
    teamNameA: row.teamNameA,
    teamNameB: row.teamNameB,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    isSubscriptionOpen: !hasStarted(row.status, row.matchDate, now) && filled < row.maxPlayers,
  };
}

type PlayerRow = Omit<MatchPlayer, 'subscribedAt'> & { subscribedAt: Date };

function toMatch(row: MatchRow, author: MatchUser, playerRows: PlayerRow[], now: Date): Match {
  const players = playerRows.map((p) => ({ ...p, subscribedAt: p.subscribedAt.toISOString() }));
  const capacity = teamCapacity(row.maxPlayers);
  const windowOpen = !hasStarted(row.status, row.matchDate, now);
  const team = (t: Team) => {
    const members = players.filter((p) => p.team === t);
    return {
      name: t === 'A' ? row.teamNameA : row.teamNameB,
      max: capacity[t],
      filled: members.length,
      isOpen: windowOpen && members.length < capacity[t],
      players: members.map(({ id, name, userName }) => ({ id, name, userName })),
    };
  };
  return {
    ...toFields(row, author, players.length, now),
    players,
    spots: { totalMax: row.maxPlayers, totalFilled: players.length },
    teamA: team('A'),
    teamB: team('B'),
  };
}

/** A list item's players as the page's statement aggregates them (JSON, timestamps as text). */
type PlayerJson = Omit<MatchPlayer, 'subscribedAt'> & { subscribedAt: string };

function toListItem(
  row: MatchRow,
  author: MatchUser,
  playerRows: PlayerJson[],
  now: Date,
): MatchListItem {
  const players = playerRows.map((p) => ({
    ...p,
    subscribedAt: new Date(p.subscribedAt).toISOString(),
  }));
  const filled = players.length;
  return {
    ...toFields(row, author, filled, now),
    players,
    spots: { filled, open: Math.max(0, row.maxPlayers - filled) },
  };
}

async function readMatch(ex: Executor, id: string, now: Date): Promise<Match> {
  const [[found], players] = await Promise.all([matchWithAuthor(ex, id), playersOf(ex, id)]);
  if (!found) throw matchNotFound();
  return toMatch(found.match, found.author, players, now);
}

/** Matches with team placement (decisions.md §6). Player changes run under a lock on the match row. */
export function createMatchService(db: Database) {
  const byId = matchWithAuthor(db, sql.placeholder('id')).prepare('matches_by_id');
  const playersById = playersOf(db, sql.placeholder('id')).prepare('matches_players');
  const subscribeSnapshot = subscriptionSnapshot(db).prepare('matches_subscribe_snapshot');
  const userById = db
    .select(userColumns)
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('matches_user_ref');

  const listColumns = {
    match: matches,
    author: userColumns,
    // Each match's players in the page's own statement (no query per match), in subscription order.
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
  const page = pageWhere(undefined, 'matches_page');
  const total = db
    .select({ n: rowCounts.rowCount })
    .from(rowCounts)
    .where(eq(rowCounts.tableName, 'matches'))
    .prepare('matches_total');
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
  ) as Record<MatchStatus, { page: typeof page; total: typeof total }>;

  /** Runs a player change in one transaction; the unique (match, user) index is the last guard. */
  async function underLock<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (isUniqueViolation(error, 'match_players_match_user_unique')) {
        throw conflict('You are already subscribed to this match', 'ALREADY_SUBSCRIBED');
      }
      throw error;
    }
  }

  return {
    async create(input: CreateMatchInput, caller: Caller): Promise<Match> {
      if (input.userId !== caller.id && !isAdmin(caller)) {
        throw forbidden(
          'userId must be your own id: only an admin creates a match for someone else',
          'NOT_OWNER',
        );
      }
      const [author] = await userById.execute({ id: input.userId });
      if (!author) throw notFound('User not found');
      const [row] = await db
        .insert(matches)
        .values({
          title: input.title,
          description: input.description ?? null,
          authorId: author.id,
          maxPlayers: input.maxPlayers,
          matchDate: new Date(input.MatchDate),
          location: input.location,
          teamNameA: input.teamNameA,
          teamNameB: input.teamNameB,
        })
        .returning();
      return toMatch(row!, author, [], new Date());
    },

    async get(id: string): Promise<Match> {
      const now = new Date();
      const [[found], players] = await Promise.all([
        byId.execute({ id }),
        playersById.execute({ id }),
      ]);
      if (!found) throw matchNotFound();
      return toMatch(found.match, found.author, players, now);
    },

    /** MatchDate ascending, then id; `status` filters by the status as it reads now. */
    async list(query: ListMatchesQuery) {
      const now = new Date();
      const params = { limit: query.limit, offset: pageOffset(query), now: now.toISOString() };
      const statements = query.status ? byStatus[query.status] : { page, total };
      const [rows, [counted]] = await Promise.all([
        statements.page.execute(params),
        statements.total.execute(params),
      ]);
      return {
        data: rows.map((r) => toListItem(r.match, r.author, r.players, now)),
        meta: listMeta(query, counted?.n ?? 0),
      };
    },

    /**
     * Author or ADMIN. Under the match lock: the status transition is checked from the status as
     * it reads now, the date only moves while EM_BREVE, and maxPlayers never drops below the
     * players already in (in total or in either team under the new split).
     */
    async update(id: string, fields: UpdateMatchFields, caller: Caller): Promise<Match> {
      return db.transaction(async (tx) => {
        const match = await lockMatch(tx, id);
        if (match.authorId !== caller.id && !isAdmin(caller)) {
          throw forbidden('Only the author or an admin can change this match', 'NOT_OWNER');
        }
        const now = new Date();
        const current = effectiveStatus(match.status, match.matchDate, now);
        if (fields.MatchStatus && !canTransition(current, fields.MatchStatus)) {
          throw conflict(
            `MatchStatus cannot change from ${current} to ${fields.MatchStatus}`,
            'INVALID_TRANSITION',
          );
        }
        if (fields.MatchDate && current !== 'EM_BREVE') {
          throw conflict(`MatchDate cannot change once the match is ${current}`, 'MATCH_STARTED');
        }
        if (fields.maxPlayers !== undefined && fields.maxPlayers < match.maxPlayers) {
          const { counts } = await teamsOf(tx, id, caller.id);
          if (!fitsCapacity(counts, fields.maxPlayers)) {
            const { A, B } = teamCapacity(fields.maxPlayers);
            throw conflict(
              `maxPlayers ${fields.maxPlayers} (teams of ${A} and ${B}) is below the players already in ` +
                `(${counts.A} in team A, ${counts.B} in team B)`,
              'CAPACITY_BELOW_PLAYERS',
            );
          }
        }
        await tx
          .update(matches)
          .set({
            ...(fields.title !== undefined ? { title: fields.title } : {}),
            ...(fields.description !== undefined ? { description: fields.description } : {}),
            ...(fields.maxPlayers !== undefined ? { maxPlayers: fields.maxPlayers } : {}),
            ...(fields.MatchDate !== undefined ? { matchDate: new Date(fields.MatchDate) } : {}),
            ...(fields.location !== undefined ? { location: fields.location } : {}),
            ...(fields.teamNameA !== undefined ? { teamNameA: fields.teamNameA } : {}),
            ...(fields.teamNameB !== undefined ? { teamNameB: fields.teamNameB } : {}),
            // Storing the effective status makes an EM_BREVE-by-date match explicitly EM_ANDAMENTO.
            ...(fields.MatchStatus !== undefined ? { status: fields.MatchStatus } : {}),
            updatedAt: sql`clock_timestamp()`,
          })
          .where(eq(matches.id, id));
        return readMatch(tx, id, now);
      });
    },

    /** Author or ADMIN; the players go with the match (cascade). */
    async remove(id: string, caller: Caller): Promise<void> {
      const ownMatch = isAdmin(caller) ? undefined : eq(matches.authorId, caller.id);
      const deleted = await db
        .delete(matches)
        .where(and(eq(matches.id, id), ownMatch))
        .returning({ id: matches.id });
      if (deleted.length) return;
      const [exists] = await byId.execute({ id });
      if (!exists) throw matchNotFound();
      throw forbidden('Only the author or an admin can delete this match', 'NOT_OWNER');
    },

    /**
     * The caller joins the team with fewer players (a tie goes to A). A refusal read from a
     * committed snapshot without the lock is already a correct answer (the match was full or
     * started, or the caller in, at that moment), so refusals skip the queue on the match row;
     * an admission is decided again, and made, under the lock.
     */
    async subscribe(matchId: string, userId: string): Promise<MatchSubscription> {
      const [snapshot] = await subscribeSnapshot.execute({ id: matchId, userId });
      if (!snapshot) throw matchNotFound();
      refuseSubscription(snapshot, { A: snapshot.a, B: snapshot.b }, snapshot.subscribed);
      return underLock(async (tx) => {
        const match = await lockMatch(tx, matchId);
        const { counts, callerTeam } = await teamsOf(tx, matchId, userId);
        const team = refuseSubscription(match, counts, callerTeam !== undefined);
        const [row] = await tx
          .insert(matchPlayers)
          // clock_timestamp(): the moment of the insert, so subscribedAt follows the lock order.
          .values({ matchId, userId, team, subscribedAt: sql`clock_timestamp()` })
          .returning({ subscribedAt: matchPlayers.subscribedAt });
        return {
          matchId,
          userId,
          team,
          teamName: team === 'A' ? match.teamNameA : match.teamNameB,
          subscribedAt: row!.subscribedAt.toISOString(),
        };
      });
    },

    /** Allowed at any status (the spec's only condition is that the subscription exists). */
    unsubscribe(matchId: string, userId: string): Promise<MatchTeamChange> {
      return underLock(async (tx) => {
        await lockMatch(tx, matchId);
        const [left] = await tx
          .delete(matchPlayers)
          .where(and(eq(matchPlayers.matchId, matchId), eq(matchPlayers.userId, userId)))
          .returning({ team: matchPlayers.team });
        if (!left) throw notFound('You are not subscribed to this match');
        return { matchId, userId, team: left.team };
      });
    },

    /** Moves the caller to the other team if it has room. */
    switchTeam(matchId: string, userId: string): Promise<MatchTeamChange> {
      return underLock(async (tx) => {
        const match = await lockMatch(tx, matchId);
        const { counts, callerTeam } = await teamsOf(tx, matchId, userId);
        if (!callerTeam) throw notFound('You are not subscribed to this match');
        if (hasStarted(match.status, match.matchDate, new Date())) {
          throw forbidden('The match has already started', 'MATCH_STARTED');
        }
        const target = otherTeam(callerTeam);
        if (counts[target] >= teamCapacity(match.maxPlayers)[target]) {
          throw forbidden(`Team ${target} is full`, 'TEAM_FULL');
        }
        await tx
          .update(matchPlayers)
          .set({ team: target })
          .where(and(eq(matchPlayers.matchId, matchId), eq(matchPlayers.userId, userId)));
        return { matchId, userId, team: target };
      });
    },
  };
}
