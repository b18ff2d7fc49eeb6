import { and, eq } from 'drizzle-orm';
import type { Actor } from '../common/actor';
import type { Database } from '../db/client';
import { conflict, forbidden, notFound } from '../errors';
import { publish } from '../events/bus';
import { sendDueReminders } from '../notifications/reminders';
import { lockMatch, teamsOf } from './queries';
import { toSubscription } from './records';
import { hasStarted, otherTeam, teamCapacity } from './rules';
import type { MatchSubscription, MatchTeamChange, MatchWaitlistEntry } from './schemas';
import { admit, joinWaitlist, leaveMatch, oneEntryPerUser } from './seats';
import { seatSnapshot, seatRefusal } from './snapshot';
import { matchPlayers } from './table';

/** Taking and leaving a seat or a place on the waiting list, and switching teams. */
export function createParticipation(db: Database, reminderLeadSeconds: number) {
  const snapshot = seatSnapshot(db).prepare('matches_seat_snapshot');
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
