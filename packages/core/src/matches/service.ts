import { and, eq, sql } from 'drizzle-orm';
import { assertMayChange, type Actor } from '../common/actor';
import type { Cursors } from '../common/cursor';
import type { Database, Transaction } from '../db/client';
import { conflict, forbidden, notFound } from '../errors';
import { publish } from '../events/bus';
import { groupToPostIn, roleIn } from '../groups/access';
import { matchCancelledNotification } from '../notifications/messages';
import { DEFAULT_REMINDER_LEAD_S, sendDueReminders } from '../notifications/reminders';
import { notify } from '../notifications/service';
import { prepareUserById } from '../users/records';
import { createMatchList } from './list';
import {
  countsOf,
  lockMatch,
  matchWithAuthor,
  playersOf,
  teamsOf,
  userColumns,
  waitlistOf,
  type MatchRow,
} from './queries';
import { readMatch, toFoundMatch, toMatchColumns, toSubscription } from './records';
import {
  canTransition,
  effectiveStatus,
  fitsCapacity,
  hasStarted,
  otherTeam,
  teamCapacity,
} from './rules';
import type {
  CreateMatchInput,
  Match,
  MatchSubscription,
  MatchTeamChange,
  MatchWaitlistEntry,
  UpdateMatchFields,
} from './schemas';
import { admit, joinWaitlist, leaveMatch, oneEntryPerUser, promoteWaiting } from './seats';
import { seatSnapshot, seatRefusal } from './snapshot';
import { matchPlayers, matches } from './table';

const groupRefusal = 'Only an OWNER or ADMIN of the group can organise a match in its name';

/**
 * The author, an OWNER/ADMIN of the organising group, or a site ADMIN (common/actor.ts's one
 * rule); otherwise 403 NOT_OWNER.
 */
async function assertMayManageMatch(tx: Transaction, actor: Actor, match: MatchRow, what: string) {
  const actorGroupRole = match.groupId ? await roleIn(tx, match.groupId, actor.id) : null;
  assertMayChange(
    actor,
    { ownerId: match.authorId, actorGroupRole },
    `Only the author, the organising group's OWNER/ADMIN or an admin can ${what} this match`,
  );
}

/** Matches with team placement (decisions.md §6) and a waiting list (extensions.md §D). */
export function createMatchService(
  db: Database,
  {
    reminderLeadSeconds = DEFAULT_REMINDER_LEAD_S,
    cursors,
  }: { reminderLeadSeconds?: number; cursors: Cursors },
) {
  const byId = matchWithAuthor(db, sql.placeholder('id')).prepare('matches_by_id');
  const playersById = playersOf(db, sql.placeholder('id')).prepare('matches_players');
  const waitlistById = waitlistOf(db, sql.placeholder('id')).prepare('matches_waitlist');
  const snapshot = seatSnapshot(db).prepare('matches_seat_snapshot');
  const userById = prepareUserById(db, userColumns, 'matches_user_ref');
  const seatOptions = { reminderLeadSeconds };

  /**
   * Runs `attempt`, the statement that takes a seat (`PLAY`) or a place in line (`WAIT`) only if
   * the match row allows it, and when it did not, throws the refusal a fresh snapshot gives.
   * Seats change between the two: a player may leave just after the statement found the match
   * full, and the snapshot then shows the free seat, with nothing to refuse. The user asked for
   * what is now possible, so it is tried again; after a few rounds of seats changing under it, the
   * answer is what every attempt met (full, or a seat free).
   */
  async function takeSeat<T>(
    matchId: string,
    userId: string,
    wanted: 'PLAY' | 'WAIT',
    attempt: () => Promise<T | undefined>,
  ): Promise<T> {
    for (let round = 0; round < 3; round++) {
      const done = await oneEntryPerUser(attempt);
      if (done !== undefined) return done;
      const [seen] = await snapshot.execute({ id: matchId, userId });
      const refusal = seatRefusal(seen, wanted);
      if (refusal) throw refusal;
    }
    throw wanted === 'PLAY'
      ? forbidden('The match is full', 'MATCH_FULL')
      : conflict('A spot is free: subscribe instead', 'MATCH_NOT_FULL');
  }

  /** Joining or moving a match into the reminder lead time: its players are reminded now. */
  const withinReminderLead = (matchDate: Date) =>
    matchDate.getTime() - Date.now() <= reminderLeadSeconds * 1000;

  return {
    async create(input: CreateMatchInput, actor: Actor): Promise<Match> {
      assertMayChange(
        actor,
        { ownerId: input.userId },
        'userId must be your own id: only an admin creates a match for someone else',
      );
      const [author] = await userById.execute({ id: input.userId });
      if (!author) throw notFound('User not found');
      return db.transaction(async (tx) => {
        if (input.groupId) await groupToPostIn(tx, actor, input.groupId, groupRefusal);
        const [row] = await tx
          .insert(matches)
          .values({ ...toMatchColumns(input), authorId: author.id })
          .returning({ id: matches.id });
        return readMatch(tx, row!.id, new Date(), actor.id);
      });
    },

    async get(id: string, viewerId: string): Promise<Match> {
      const [[found], players, waiting] = await Promise.all([
        byId.execute({ id }),
        playersById.execute({ id }),
        waitlistById.execute({ id }),
      ]);
      return toFoundMatch(found, players, waiting, new Date(), viewerId);
    },

    /** The match as nobody in particular sees it (live streams add each watcher's view). */
    read: (id: string) => readMatch(db, id, new Date()),

    list: createMatchList(db, cursors),

    /**
     * Under the match lock: the status transition is checked from the status as it reads now,
     * the date only moves while EM_BREVE, maxPlayers never drops below the players already in
     * (in total or in either team), scores only once FINALIZADA, and a larger maxPlayers gives
     * the new seats to the waiting list at once.
     */
    async update(id: string, fields: UpdateMatchFields, actor: Actor): Promise<Match> {
      return db.transaction(async (tx) => {
        const match = await lockMatch(tx, id);
        await assertMayManageMatch(tx, actor, match, 'change');
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
        const scored = fields.teamAScore !== undefined || fields.teamBScore !== undefined;
        if (scored && (fields.MatchStatus ?? current) !== 'FINALIZADA') {
          throw conflict('Scores can be set once the match is FINALIZADA', 'MATCH_NOT_FINISHED');
        }
        if (fields.groupId && fields.groupId !== match.groupId) {
          await groupToPostIn(tx, actor, fields.groupId, groupRefusal);
        }
        if (fields.maxPlayers !== undefined && fields.maxPlayers < match.maxPlayers) {
          const counts = countsOf(match);
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
        if (fields.maxPlayers !== undefined && fields.maxPlayers > match.maxPlayers) {
          await promoteWaiting(tx, id, reminderLeadSeconds);
        }
        // A date moved into the reminder window: its players are reminded now, not at the next sweep.
        if (fields.MatchDate) await sendDueReminders(tx, reminderLeadSeconds, { matchId: id });
        await publish(tx, 'match', { key: id });
        return readMatch(tx, id, now, actor.id);
      });
    },

    /** The author, the group's OWNER/ADMIN or a site ADMIN; players and waiting list go with it. */
    async remove(id: string, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
        const match = await lockMatch(tx, id);
        await assertMayManageMatch(tx, actor, match, 'delete');
        await tx.delete(matches).where(eq(matches.id, id));
        await publish(tx, 'match', { key: id, deleted: true });
      });
    },

    /**
     * The actor joins the team with fewer players (a tie goes to A). A refusal read from a
     * committed snapshot is already a correct answer, so refusals never touch the match row; an
     * admission is one statement that checks the seat on the row and inserts (seats.admit).
     */
    async subscribe(matchId: string, actor: Actor): Promise<MatchSubscription> {
      const userId = actor.id;
      const [seen] = await snapshot.execute({ id: matchId, userId });
      const early = seatRefusal(seen, 'PLAY');
      if (early) throw early;
      const placed = await takeSeat(matchId, userId, 'PLAY', () => admit(db, matchId, userId));
      // Joining a match that starts within the reminder lead: reminded at once (else the sweep).
      if (withinReminderLead(seen!.matchDate)) {
        await db.transaction((tx) => sendDueReminders(tx, reminderLeadSeconds, { matchId }));
      }
      return toSubscription(matchId, userId, placed, seen!);
    },

    /** Allowed at any status; the seat goes to the first waiting user while the match is open. */
    async unsubscribe(matchId: string, actor: Actor): Promise<MatchTeamChange> {
      const left = await db.transaction((tx) =>
        leaveMatch(tx, matchId, actor.id, { ...seatOptions, from: 'PLAYING' }),
      );
      if (left?.as !== 'PLAYER') throw notFound('You are not subscribed to this match');
      return { matchId, userId: actor.id, team: left.team };
    },

    /** The end of the waiting list of a full match (409 MATCH_NOT_FULL when a seat is free). */
    async joinWaitlist(matchId: string, actor: Actor): Promise<MatchWaitlistEntry> {
      const userId = actor.id;
      const [seen] = await snapshot.execute({ id: matchId, userId });
      const early = seatRefusal(seen, 'WAIT');
      if (early) throw early;
      const position = await takeSeat(matchId, userId, 'WAIT', () =>
        joinWaitlist(db, matchId, userId),
      );
      return { matchId, userId, position };
    },

    async leaveWaitlist(matchId: string, actor: Actor): Promise<void> {
      const left = await db.transaction((tx) =>
        leaveMatch(tx, matchId, actor.id, { ...seatOptions, from: 'WAITING' }),
      );
      if (!left) throw notFound('You are not on the waiting list of this match');
    },

    /** Moves the actor to the other team if it has room. */
    switchTeam(matchId: string, actor: Actor): Promise<MatchTeamChange> {
      const userId = actor.id;
      return db.transaction(async (tx) => {
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
export type MatchService = ReturnType<typeof createMatchService>;
