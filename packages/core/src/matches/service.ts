import { and, eq, sql } from 'drizzle-orm';
import { assertMayChange, type Actor } from '../common/actor';
import { listMeta, pageOffset } from '../common/pagination';
import type { Database, Executor, Transaction } from '../db/client';
import { conflict, forbidden, isUniqueViolation, notFound } from '../errors';
import { prepareUserById } from '../users/records';
import { publish } from '../events/bus';
import { notify } from '../notifications/service';
import { matchCancelledNotification } from '../notifications/messages';
import { DEFAULT_REMINDER_LEAD_S, sendDueReminders } from '../notifications/reminders';
import {
  lockMatch,
  matchNotFound,
  matchWithAuthor,
  playersOf,
  prepareMatchList,
  subscriptionSnapshot,
  teamsOf,
  userColumns,
  type MatchRow,
} from './queries';
import { toFoundMatch, toListItem, toMatch, toMatchColumns } from './records';
import {
  canTransition,
  effectiveStatus,
  fitsCapacity,
  hasStarted,
  otherTeam,
  placeNewPlayer,
  teamCapacity,
  type Team,
  type TeamCounts,
} from './rules';
import type {
  CreateMatchInput,
  ListMatchesQuery,
  Match,
  MatchSubscription,
  MatchTeamChange,
  UpdateMatchFields,
} from './schemas';
import { matchPlayers, matches } from './table';

/**
 * The team a new player joins, or the refusal (thrown): the match started (effective status not
 * EM_BREVE, which includes a passed date), the actor is in already, or both teams are full.
 */
function teamToJoin(
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

/** The match with its author and players, read inside a transaction. */
async function readMatch(ex: Executor, id: string, now: Date): Promise<Match> {
  const [[found], players] = await Promise.all([matchWithAuthor(ex, id), playersOf(ex, id)]);
  return toFoundMatch(found, players, now);
}

/** Matches with team placement (decisions.md §6). Player changes run under a lock on the match row. */
export function createMatchService(
  db: Database,
  { reminderLeadSeconds = DEFAULT_REMINDER_LEAD_S }: { reminderLeadSeconds?: number } = {},
) {
  const byId = matchWithAuthor(db, sql.placeholder('id')).prepare('matches_by_id');
  const playersById = playersOf(db, sql.placeholder('id')).prepare('matches_players');
  const subscribeSnapshot = subscriptionSnapshot(db).prepare('matches_subscribe_snapshot');
  const listStatements = prepareMatchList(db);
  const userById = prepareUserById(db, userColumns, 'matches_user_ref');

  /**
   * Runs a change of a match's players in one transaction (the work takes the match lock); a
   * double subscription that got past it is still refused by the unique (match, user) index.
   */
  async function playerTransaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
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
    async create(input: CreateMatchInput, actor: Actor): Promise<Match> {
      assertMayChange(
        actor,
        { ownerId: input.userId },
        'userId must be your own id: only an admin creates a match for someone else',
      );
      const [author] = await userById.execute({ id: input.userId });
      if (!author) throw notFound('User not found');
      const [row] = await db
        .insert(matches)
        .values({ ...toMatchColumns(input), authorId: author.id })
        .returning();
      return toMatch(row!, author, [], new Date());
    },

    async get(id: string): Promise<Match> {
      const now = new Date();
      const [[found], players] = await Promise.all([
        byId.execute({ id }),
        playersById.execute({ id }),
      ]);
      return toFoundMatch(found, players, now);
    },

    /** MatchDate ascending, then id; `status` filters by the status as it reads now. */
    async list(query: ListMatchesQuery) {
      const now = new Date();
      const params = { limit: query.limit, offset: pageOffset(query), now: now.toISOString() };
      const statements = listStatements(query.status);
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
    async update(id: string, fields: UpdateMatchFields, actor: Actor): Promise<Match> {
      return db.transaction(async (tx) => {
        const match = await lockMatch(tx, id);
        assertMayChange(
          actor,
          { ownerId: match.authorId },
          'Only the author or an admin can change this match',
        );
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
          const { counts } = await teamsOf(tx, id, actor.id);
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
          .set({ ...toMatchColumns(fields), updatedAt: sql`clock_timestamp()` })
          .where(eq(matches.id, id));
        if (fields.MatchStatus === 'CANCELADA' && current !== 'CANCELADA') {
          // The players are told in this transaction; whoever cancelled it knows already.
          const players = await tx
            .select({ userId: matchPlayers.userId })
            .from(matchPlayers)
            .where(eq(matchPlayers.matchId, id));
          await notify(
            tx,
            players
              .filter((p) => p.userId !== actor.id)
              .map((p) => matchCancelledNotification(match, p.userId)),
          );
        }
        // A date moved into the reminder window: its players are reminded now, not at the next sweep.
        if (fields.MatchDate) await sendDueReminders(tx, reminderLeadSeconds, { matchId: id });
        await publish(tx, 'match', { key: id });
        return readMatch(tx, id, now);
      });
    },

    /** Author or ADMIN; the players go with the match (cascade). */
    async remove(id: string, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
        const match = await lockMatch(tx, id);
        assertMayChange(
          actor,
          { ownerId: match.authorId },
          'Only the author or an admin can delete this match',
        );
        await tx.delete(matches).where(eq(matches.id, id));
        await publish(tx, 'match', { key: id, deleted: true });
      });
    },

    /**
     * The actor joins the team with fewer players (a tie goes to A). A refusal read from a
     * committed snapshot without the lock is already a correct answer (the match was full or
     * started, or the actor in, at that moment), so refusals skip the queue on the match row;
     * an admission is decided again, and made, under the lock.
     */
    async subscribe(matchId: string, actor: Actor): Promise<MatchSubscription> {
      const userId = actor.id;
      const [snapshot] = await subscribeSnapshot.execute({ id: matchId, userId });
      if (!snapshot) throw matchNotFound();
      teamToJoin(snapshot, { A: snapshot.a, B: snapshot.b }, snapshot.subscribed);
      return playerTransaction(async (tx) => {
        const match = await lockMatch(tx, matchId);
        const { counts, callerTeam } = await teamsOf(tx, matchId, userId);
        const team = teamToJoin(match, counts, callerTeam !== undefined);
        const [row] = await tx
          .insert(matchPlayers)
          // clock_timestamp(): the moment of the insert, so subscribedAt follows the lock order.
          .values({ matchId, userId, team, subscribedAt: sql`clock_timestamp()` })
          .returning({ subscribedAt: matchPlayers.subscribedAt });
        // Joining a match that starts within the reminder lead: reminded at once.
        await sendDueReminders(tx, reminderLeadSeconds, { matchId });
        await publish(tx, 'match', { key: matchId });
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
    unsubscribe(matchId: string, actor: Actor): Promise<MatchTeamChange> {
      const userId = actor.id;
      return playerTransaction(async (tx) => {
        await lockMatch(tx, matchId);
        const [left] = await tx
          .delete(matchPlayers)
          .where(and(eq(matchPlayers.matchId, matchId), eq(matchPlayers.userId, userId)))
          .returning({ team: matchPlayers.team });
        if (!left) throw notFound('You are not subscribed to this match');
        await publish(tx, 'match', { key: matchId });
        return { matchId, userId, team: left.team };
      });
    },

    /** Moves the actor to the other team if it has room. */
    switchTeam(matchId: string, actor: Actor): Promise<MatchTeamChange> {
      const userId = actor.id;
      return playerTransaction(async (tx) => {
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
        await publish(tx, 'match', { key: matchId });
        return { matchId, userId, team: target };
      });
    },
  };
}
