import { and, eq } from 'drizzle-orm';
import { avatarUrlOf } from '../media/references';
import type { Actor } from '../common/actor';
import type { Database } from '../db/client';
import { AppError, conflict, type Reason } from '../errors';
import { publish } from '../events/bus';
import { DEFAULT_REMINDER_LEAD_S, sendDueReminders } from '../notifications/reminders';
import { DEFAULT_MODERATION_THRESHOLD } from './hiding';
import { createCommentService, reportFiled } from './comments';
import { lockPost, movedCounter, perUserRows, type PerUserRows } from './locks';
import type { Report, UserRecord } from './schemas';
import { postReports, posts } from './table';

/*
 * Likes, attendances and post reports (comments: `comments.ts`). Every change runs in one
 * transaction that first locks the post row (`locks.ts`). Then:
 * - duplicates are decided by the unique (post_id, user_id) constraints: `insert … on conflict
 *   do nothing returning` and `delete … returning` say whether a row changed;
 * - the counter moves only when a row did, in the same transaction, so it always equals the rows.
 */

/** Likes and attendances: one row per user and post, counted on the post. */
const perUser = {
  like: {
    ...perUserRows.like,
    duplicate: ['You already like this post', 'ALREADY_LIKED'],
    missing: ['You do not like this post', 'NOT_LIKED'],
  },
  attendance: {
    ...perUserRows.attendance,
    duplicate: ['You already attend this event', 'ALREADY_ATTENDING'],
    missing: ['You do not attend this event', 'NOT_ATTENDING'],
  },
} as const satisfies Record<
  string,
  PerUserRows & { duplicate: [string, Reason]; missing: [string, Reason] }
>;
type PerUserKind = keyof typeof perUser;

export function createInteractionService(
  db: Database,
  {
    reminderLeadSeconds = DEFAULT_REMINDER_LEAD_S,
    moderationThreshold = DEFAULT_MODERATION_THRESHOLD,
  }: { reminderLeadSeconds?: number; moderationThreshold?: number } = {},
) {
  async function add(kind: PerUserKind, postId: string, actor: Actor): Promise<UserRecord> {
    const { table, duplicate } = perUser[kind];
    return db.transaction(async (tx) => {
      const post = await lockPost(tx, postId, actor);
      if (kind === 'attendance' && post.type !== 'EVENT') {
        throw new AppError('BAD_REQUEST', 'Attendance is only possible for EVENT posts', {
          reason: 'NOT_AN_EVENT',
        });
      }
      const [row] = await tx
        .insert(table)
        .values({ postId, userId: actor.id })
        .onConflictDoNothing({ target: [table.postId, table.userId] })
        .returning();
      if (!row) throw conflict(duplicate[0], duplicate[1]);
      await tx.update(posts).set(movedCounter(perUser[kind], 1)).where(eq(posts.id, postId));
      // Attending an event that starts within the reminder lead: reminded at once.
      if (kind === 'attendance') await sendDueReminders(tx, reminderLeadSeconds, { postId });
      await publish(tx, 'post', { key: postId });
      return {
        id: row.id,
        userId: row.userId,
        userName: actor.nickname,
        avatarUrl: await avatarUrlOf(tx, actor.id),
        createdAt: row.createdAt.toISOString(),
      };
    });
  }

  async function withdraw(kind: PerUserKind, postId: string, actor: Actor): Promise<void> {
    const { table, missing } = perUser[kind];
    await db.transaction(async (tx) => {
      await lockPost(tx, postId, actor);
      const [gone] = await tx
        .delete(table)
        .where(and(eq(table.postId, postId), eq(table.userId, actor.id)))
        .returning({ id: table.id });
      if (!gone) throw new AppError('NOT_FOUND', missing[0], { reason: missing[1] });
      await tx.update(posts).set(movedCounter(perUser[kind], -1)).where(eq(posts.id, postId));
      await publish(tx, 'post', { key: postId });
    });
  }

  return {
    like: (postId: string, actor: Actor) => add('like', postId, actor),
    unlike: (postId: string, actor: Actor) => withdraw('like', postId, actor),
    attend: (postId: string, actor: Actor) => add('attendance', postId, actor),
    unattend: (postId: string, actor: Actor) => withdraw('attendance', postId, actor),
    ...createCommentService(db, moderationThreshold),

    /**
     * One report per user and post; reports are not counted on the post. The report that brings
     * the open reports to the threshold hides the post (under the post lock: exactly once).
     */
    async report(postId: string, reason: string, actor: Actor): Promise<Report> {
      return db.transaction(async (tx) => {
        await lockPost(tx, postId, actor);
        const [row] = await tx
          .insert(postReports)
          .values({ postId, userId: actor.id, reason })
          .onConflictDoNothing({ target: [postReports.postId, postReports.userId] })
          .returning();
        return reportFiled(tx, row, { tipo: 'POST', id: postId }, moderationThreshold, actor);
      });
    },
  };
}
