import { eq, sql } from 'drizzle-orm';
import { assertMayChange, type Actor } from '../common/actor';
import type { Transaction } from '../db/client';
import { conflict } from '../errors';
import { publish } from '../events/bus';
import { groupToPostIn, roleIn } from '../groups/access';
import { matchCancelledNotification } from '../notifications/messages';
import { sendDueReminders } from '../notifications/reminders';
import { notify } from '../notifications/service';
import { countsOf, lockMatch, type MatchRow } from './queries';
import { readMatch, toMatchColumns } from './records';
import {
  canTransition,
  effectiveStatus,
  fitsCapacity,
  teamCapacity,
  type MatchStatus,
} from './rules';
import type { Match, UpdateMatchFields } from './schemas';
import { promoteWaiting } from './seats';
import { matchPlayers, matches } from './table';

/* Who may organise and change a match, and what a change may do. */

export const groupRefusal = 'Only an OWNER or ADMIN of the group can organise a match in its name';

/**
 * The author, an OWNER/ADMIN of the organising group, or a site ADMIN (common/actor.ts's one
 * rule); otherwise 403 NOT_OWNER.
 */
export async function assertMayManageMatch(
  tx: Transaction,
  actor: Actor,
  match: MatchRow,
  what: string,
) {
  const actorGroupRole = match.groupId ? await roleIn(tx, match.groupId, actor.id) : null;
  assertMayChange(
    actor,
    { ownerId: match.authorId, actorGroupRole },
    `Only the author, the organising group's OWNER/ADMIN or an admin can ${what} this match`,
  );
}

/**
 * Under the match lock: the status transition is checked from the status as it reads now,
 * the date only moves while EM_BREVE, maxPlayers never drops below the players already in
 * (in total or in either team), scores only once FINALIZADA, and a larger maxPlayers gives
 * the new seats to the waiting list at once.
 */
export async function updateMatch(
  tx: Transaction,
  id: string,
  fields: UpdateMatchFields,
  actor: Actor,
  reminderLeadSeconds: number,
): Promise<Match> {
  const match = await lockMatch(tx, id);
  await assertMayManageMatch(tx, actor, match, 'change');
  const now = new Date();
  const current = effectiveStatus(match.status, match.matchDate, now);
  await assertChangeAllowed(tx, actor, match, current, fields);
  await tx
    .update(matches)
    .set({ ...toMatchColumns(fields), updatedAt: sql`clock_timestamp()` })
    .where(eq(matches.id, id));
  if (fields.MatchStatus === 'CANCELADA' && current !== 'CANCELADA') {
    await notifyCancelled(tx, match, actor);
  }
  if (fields.maxPlayers !== undefined && fields.maxPlayers > match.maxPlayers) {
    await promoteWaiting(tx, id, reminderLeadSeconds);
  }
  // A date moved into the reminder window: its players are reminded now, not at the next sweep.
  if (fields.MatchDate) await sendDueReminders(tx, reminderLeadSeconds, { matchId: id });
  await publish(tx, 'match', { key: id });
  return readMatch(tx, id, now, actor.id);
}

/** The checks of `updateMatch`, against the match row it locked and the status as it reads now. */
async function assertChangeAllowed(
  tx: Transaction,
  actor: Actor,
  match: MatchRow,
  current: MatchStatus,
  fields: UpdateMatchFields,
) {
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
}

async function notifyCancelled(tx: Transaction, match: MatchRow, actor: Actor) {
  // The players are told in this transaction; whoever cancelled it knows already.
  const players = await tx
    .select({ userId: matchPlayers.userId })
    .from(matchPlayers)
    .where(eq(matchPlayers.matchId, match.id));
  await notify(
    tx,
    players
      .filter((p) => p.userId !== actor.id)
      .map((p) => matchCancelledNotification(match, p.userId)),
  );
}
