import { eq, sql } from 'drizzle-orm';
import { assertMayChange, type Actor } from '../common/actor';
import type { Cursors } from '../db/cursor';
import type { Database } from '../db/client';
import { notFound } from '../errors';
import { publish } from '../events/bus';
import { groupToPostIn } from '../groups/access';
import { DEFAULT_REMINDER_LEAD_S } from '../notifications/reminders';
import { prepareUserById } from '../users/records';
import { createMatchList } from './list';
import { assertMayManageMatch, groupRefusal, updateMatch } from './manage';
import { createParticipation } from './participation';
import { lockMatch, matchWithAuthor, playersOf, userColumns, waitlistOf } from './queries';
import { readMatch, toFoundMatch, toMatchColumns } from './records';
import type { CreateMatchInput, Match, UpdateMatchFields } from './schemas';
import { matches } from './table';

/** Matches with team placement and a waiting list (docs/contract/matches.md). */
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
  const userById = prepareUserById(db, userColumns, 'matches_user_ref');

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

    /** See `updateMatch`: the checks and the change, under the match lock. */
    update(id: string, fields: UpdateMatchFields, actor: Actor): Promise<Match> {
      return db.transaction((tx) => updateMatch(tx, id, fields, actor, reminderLeadSeconds));
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

    ...createParticipation(db, reminderLeadSeconds),
  };
}
export type MatchService = ReturnType<typeof createMatchService>;
