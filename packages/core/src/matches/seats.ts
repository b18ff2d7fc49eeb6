import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database, Executor, Transaction } from '../db/client';
import { qualified } from '../db/qualified';
import { rowsOf } from '../db/rows';
import { conflict, isUniqueViolation } from '../errors';
import { publish, publishExpression } from '../events/bus';
import { spotGrantedNotification } from '../notifications/messages';
import { DEFAULT_REMINDER_LEAD_S, sendDueReminders } from '../notifications/reminders';
import { notify } from '../notifications/service';
import { countsOf, lockMatch } from './queries';
import { hasStarted, placeNewPlayer, type Team } from './rules';
import { matchPlayers, matchWaitlist, matches } from './table';

/*
 * Who holds a seat in a match, and who waits for one (docs/contract/matches.md, Teams and seats,
 * Waiting list). The rules that a second request could race are decided in SQL on the match row:
 * - an admission (subscribe) and a join of the waiting list are one statement each: it locks the
 *   match row only while it runs, checks capacity on the row's team counters (kept by a trigger
 *   on match_players, migration 0010) and inserts;
 * - a seat given up (unsubscribe, account deletion) and a larger maxPlayers promote the first
 *   waiting users under the match row lock, in the transaction that opened the seats.
 * Nobody is both playing and waiting: triggers refuse the second row (migration 0010).
 */

/** The team a new player joins (rules.placeNewPlayer), over the row `m` of matches. */
const placement = sql`(case
  when (m.players_b < m.players_a and m.players_b < m.max_players / 2)
    or (m.players_b >= m.players_a and m.players_a >= (m.max_players + 1) / 2)
  then 'B' else 'A' end)::team`;

/** The match accepts changes of its players: EM_BREVE and its date still ahead. */
const open = sql`status = 'EM_BREVE' and match_date > now()`;

/** A second row for the same user that got past the checks is refused by the constraints. */
export async function oneEntryPerUser<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (
      isUniqueViolation(error, 'match_players_match_user_unique') ||
      isUniqueViolation(error, 'match_waitlist_user_playing')
    ) {
      throw conflict('You are already subscribed to this match', 'ALREADY_SUBSCRIBED');
    }
    if (
      isUniqueViolation(error, 'match_waitlist_match_user_unique') ||
      isUniqueViolation(error, 'match_players_user_waiting')
    ) {
      throw conflict('You are already on the waiting list of this match', 'ALREADY_WAITING');
    }
    throw error;
  }
}

/**
 * Places `userId` in the match in one statement (the match row is locked only while it runs,
 * and re-read under the lock, so the counters are exact), and publishes the change with it.
 * Nothing is returned when the match is not open or has no free seat (the caller says why).
 */
export async function admit(
  db: Database,
  matchId: string,
  userId: string,
): Promise<{ team: Team; subscribedAt: Date } | undefined> {
  const result = await db.execute(sql`
    with placed as (
      insert into ${matchPlayers} (match_id, user_id, team, subscribed_at)
      select m.id, ${userId}, ${placement}, clock_timestamp()
      from (select id, players_a, players_b, max_players from ${matches}
            where id = ${matchId} and ${open} and players_a + players_b < max_players
            for no key update) m
      returning team, subscribed_at
    )
    select team, subscribed_at as "subscribedAt", ${publishExpression('match', { key: matchId })}
    from placed`);
  const [row] = rowsOf<{ team: Team; subscribedAt: Date | string }>(result);
  return row && { team: row.team, subscribedAt: new Date(row.subscribedAt) };
}

/**
 * Puts `userId` at the end of the waiting list of a full, open match, and answers the place in
 * line. `for share` lets joins run side by side, and keeps any seat change (which locks the row
 * for update) from running meanwhile: a joiner never waits for a seat that is already free.
 */
export async function joinWaitlist(
  db: Database,
  matchId: string,
  userId: string,
): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    const inserted = await tx.execute(sql`
      insert into ${matchWaitlist} (match_id, user_id, queued_at)
      select m.id, ${userId}, clock_timestamp()
      from (select id from ${matches}
            where id = ${matchId} and ${open} and players_a + players_b >= max_players
            for share) m
      returning id`);
    if (rowsOf(inserted).length === 0) return undefined;
    const position = await waitlistPosition(tx, matchId, userId);
    await publish(tx, 'match', { key: matchId });
    return position ?? undefined;
  });
}

/** The user's place in the match's waiting list (1 = next), or null when not waiting. */
export async function waitlistPosition(ex: Executor, matchId: string, userId: string) {
  const result = await ex.execute(sql`
    select (select count(*) from ${matchWaitlist} w
            where w.match_id = me.match_id and (w.queued_at, w.id) <= (me.queued_at, me.id)) as position
    from ${matchWaitlist} me where me.match_id = ${matchId} and me.user_id = ${userId}`);
  const [row] = rowsOf<{ position: number | string | null }>(result);
  return row?.position == null ? null : Number(row.position);
}

/**
 * Fills the free seats of a locked match from its waiting list, first in line first, each placed
 * by the usual rule and told (`MATCH_SPOT_GRANTED`), while the match is open. Run under the match
 * row lock, in the transaction that opened the seats. Returns who was promoted, in order.
 */
export async function promoteWaiting(
  tx: Transaction,
  matchId: string,
  reminderLeadSeconds: number,
): Promise<string[]> {
  const promoted: string[] = [];
  let match: typeof matches.$inferSelect | undefined;
  for (;;) {
    // Read again each time: the trigger moved the counters with the last insert.
    [match] = await tx.select().from(matches).where(eq(matches.id, matchId));
    if (!match || hasStarted(match.status, match.matchDate, new Date())) break;
    const team = placeNewPlayer(countsOf(match), match.maxPlayers);
    if (!team) break;
    const first = tx
      .select({ id: matchWaitlist.id })
      .from(matchWaitlist)
      .where(eq(matchWaitlist.matchId, matchId))
      .orderBy(asc(matchWaitlist.queuedAt), asc(matchWaitlist.id))
      .limit(1);
    const [next] = await tx
      .delete(matchWaitlist)
      .where(eq(matchWaitlist.id, sql`(${first})`))
      .returning({ userId: matchWaitlist.userId });
    if (!next) {
      // Empty, or the first one's account was deleted meanwhile (a cascade takes no match lock).
      const [anyone] = await first;
      if (!anyone) break;
      continue;
    }
    await tx
      .insert(matchPlayers)
      .values({ matchId, userId: next.userId, team, subscribedAt: sql`clock_timestamp()` });
    promoted.push(next.userId);
  }
  if (match && promoted.length > 0) {
    await notify(
      tx,
      promoted.map((userId) => spotGrantedNotification(match, userId)),
    );
    await sendDueReminders(tx, reminderLeadSeconds, { matchId });
  }
  return promoted;
}

/** What `leaveMatch` removed. */
export type LeftMatch = { as: 'PLAYER'; team: Team; promoted: string[] } | { as: 'WAITING' };

/**
 * Removes `userId` from the match, whether playing or waiting (`from` narrows it), in the
 * caller's transaction: a player's seat goes to the first waiting user at once (placed by the
 * usual rule, notified), and watchers are told. `undefined` when the user was not there (a match
 * that does not exist: 404 thrown by the lock). The one way out of a match: unsubscribe, leaving
 * the waiting list and account deletion (with `entriesOf`) use it.
 * Takes the match row lock; a caller removing someone from several matches should go through
 * them in one order (e.g. by match id) so two such transactions cannot deadlock.
 */
export async function leaveMatch(
  tx: Transaction,
  matchId: string,
  userId: string,
  {
    reminderLeadSeconds = DEFAULT_REMINDER_LEAD_S,
    from = 'ANY',
  }: { reminderLeadSeconds?: number; from?: 'ANY' | 'PLAYING' | 'WAITING' } = {},
): Promise<LeftMatch | undefined> {
  await lockMatch(tx, matchId);
  const [left] =
    from === 'WAITING'
      ? []
      : await tx
          .delete(matchPlayers)
          .where(and(eq(matchPlayers.matchId, matchId), eq(matchPlayers.userId, userId)))
          .returning({ team: matchPlayers.team });
  if (left) {
    const promoted = await promoteWaiting(tx, matchId, reminderLeadSeconds);
    await publish(tx, 'match', { key: matchId });
    return { as: 'PLAYER', team: left.team, promoted };
  }
  if (from === 'PLAYING') return undefined;
  const [waited] = await tx
    .delete(matchWaitlist)
    .where(and(eq(matchWaitlist.matchId, matchId), eq(matchWaitlist.userId, userId)))
    .returning({ id: matchWaitlist.id });
  if (!waited) return undefined;
  await publish(tx, 'match', { key: matchId });
  return { as: 'WAITING' };
}

/** The matches `userId` plays in or waits for, in id order (the order to leave them in). */
export async function entriesOf(ex: Executor, userId: string): Promise<string[]> {
  const result = await ex.execute(sql`
    select match_id as "matchId" from ${matchPlayers} where ${qualified(matchPlayers.userId)} = ${userId}
    union
    select match_id from ${matchWaitlist} where ${qualified(matchWaitlist.userId)} = ${userId}
    order by 1`);
  return rowsOf<{ matchId: string }>(result).map((row) => row.matchId);
}
