import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { qualified } from '../db/qualified';
import { conflict, forbidden, type AppError } from '../errors';
import { matchNotFound } from './queries';
import { hasStarted, placeNewPlayer } from './rules';
import { matchPlayers, matchWaitlist, matches } from './table';

/**
 * What a seat request needs to know, read without a lock: the match's state and counters, and
 * whether the caller plays or waits. A refusal true of this committed snapshot is a correct
 * answer, so refusals never queue on the match row.
 */
export function seatSnapshot(db: Database) {
  const userId = sql.placeholder('userId');
  const entryIn = (table: typeof matchPlayers | typeof matchWaitlist) =>
    sql<boolean>`exists (select 1 from ${table} where ${qualified(table.matchId)} = ${qualified(matches.id)} and ${qualified(table.userId)} = ${userId})`;
  return db
    .select({
      status: matches.status,
      matchDate: matches.matchDate,
      maxPlayers: matches.maxPlayers,
      playersA: matches.playersA,
      playersB: matches.playersB,
      teamNameA: matches.teamNameA,
      teamNameB: matches.teamNameB,
      playing: entryIn(matchPlayers),
      waiting: entryIn(matchWaitlist),
    })
    .from(matches)
    .where(eq(matches.id, sql.placeholder('id')));
}
export type SeatSnapshot = Awaited<ReturnType<ReturnType<typeof seatSnapshot>['execute']>>[number];

/**
 * Why the caller cannot take a seat (`PLAY`) or a place on the waiting list (`WAIT`) in the
 * match as seen, or undefined when it can: 404, 403 MATCH_STARTED, 409 ALREADY_SUBSCRIBED or
 * ALREADY_WAITING, then 403 MATCH_FULL (play) or 409 MATCH_NOT_FULL (wait).
 */
export function seatRefusal(
  seen: SeatSnapshot | undefined,
  wanted: 'PLAY' | 'WAIT',
): AppError | undefined {
  if (!seen) return matchNotFound();
  if (hasStarted(seen.status, seen.matchDate, new Date())) {
    return forbidden('The match has already started', 'MATCH_STARTED');
  }
  if (seen.playing)
    return conflict('You are already subscribed to this match', 'ALREADY_SUBSCRIBED');
  if (seen.waiting) {
    return conflict('You are already on the waiting list of this match', 'ALREADY_WAITING');
  }
  const full = !placeNewPlayer({ A: seen.playersA, B: seen.playersB }, seen.maxPlayers);
  if (wanted === 'PLAY' && full) return forbidden('The match is full', 'MATCH_FULL');
  if (wanted === 'WAIT' && !full) {
    return conflict('A spot is free: subscribe instead', 'MATCH_NOT_FULL');
  }
  return undefined;
}
