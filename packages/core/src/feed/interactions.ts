import { and, eq, sql } from 'drizzle-orm';
import { mayChange, type Actor } from '../common/actor';
import type { Database, Transaction } from '../db/client';
import { AppError, conflict, forbidden, notFound, type Reason } from '../errors';
import { publish } from '../events/bus';
import { notify } from '../notifications/service';
import { commentNotification } from '../notifications/messages';
import { DEFAULT_REMINDER_LEAD_S, sendDueReminders } from '../notifications/reminders';
import { toReport } from './records';
import type { Comment, Report, UserRecord } from './schemas';
import { postAttendances, postComments, postLikes, postReports, posts } from './table';

/*
 * Comments, likes, attendances and reports. Every change runs in one transaction that first locks
 * the post row (FOR NO KEY UPDATE: it does not block inserts of child rows by other posts' FKs,
 * but serialises the interactions of one post and waits for a concurrent delete of it). Then:
 * - duplicates are decided by the unique (post_id, user_id) constraints: `insert … on conflict
 *   do nothing returning` and `delete … returning` say whether a row changed;
 * - the counter moves only when a row did, in the same transaction, so it always equals the rows.
 * Locks are always taken post row first, then child rows, so these transactions cannot deadlock.
 */

type Counter = 'likesCount' | 'commentsCount' | 'attendancesCount';

async function lockPost(tx: Transaction, postId: string) {
  const [post] = await tx
    .select({ type: posts.type, authorId: posts.authorId, title: posts.title })
    .from(posts)
    .where(eq(posts.id, postId))
    .for('no key update');
  if (!post) throw notFound('Post not found');
  return post;
}

function moveCounter(tx: Transaction, postId: string, counter: Counter, delta: 1 | -1) {
  return tx
    .update(posts)
    .set({ [counter]: sql`${posts[counter]} + ${delta}` })
    .where(eq(posts.id, postId));
}

/** Likes and attendances: one row per user and post, counted on the post. */
const perUser = {
  like: {
    table: postLikes,
    counter: 'likesCount',
    duplicate: ['You already like this post', 'ALREADY_LIKED'],
    missing: ['You do not like this post', 'NOT_LIKED'],
  },
  attendance: {
    table: postAttendances,
    counter: 'attendancesCount',
    duplicate: ['You already attend this event', 'ALREADY_ATTENDING'],
    missing: ['You do not attend this event', 'NOT_ATTENDING'],
  },
} as const satisfies Record<
  string,
  {
    table: typeof postLikes;
    counter: Counter;
    duplicate: [string, Reason];
    missing: [string, Reason];
  }
>;
type PerUserKind = keyof typeof perUser;

export function createInteractionService(
  db: Database,
  { reminderLeadSeconds = DEFAULT_REMINDER_LEAD_S }: { reminderLeadSeconds?: number } = {},
) {
  async function add(kind: PerUserKind, postId: string, actor: Actor): Promise<UserRecord> {
    const { table, counter, duplicate } = perUser[kind];
    return db.transaction(async (tx) => {
      const post = await lockPost(tx, postId);
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
      await moveCounter(tx, postId, counter, 1);
      // Attending an event that starts within the reminder lead: reminded at once.
      if (kind === 'attendance') await sendDueReminders(tx, reminderLeadSeconds, { postId });
      await publish(tx, 'post', { key: postId });
      return {
        id: row.id,
        userId: row.userId,
        userName: actor.nickname,
        createdAt: row.createdAt.toISOString(),
      };
    });
  }

  async function withdraw(kind: PerUserKind, postId: string, actor: Actor): Promise<void> {
    const { table, counter, missing } = perUser[kind];
    await db.transaction(async (tx) => {
      await lockPost(tx, postId);
      const [gone] = await tx
        .delete(table)
        .where(and(eq(table.postId, postId), eq(table.userId, actor.id)))
        .returning({ id: table.id });
      if (!gone) throw new AppError('NOT_FOUND', missing[0], { reason: missing[1] });
      await moveCounter(tx, postId, counter, -1);
      await publish(tx, 'post', { key: postId });
    });
  }

  return {
    like: (postId: string, actor: Actor) => add('like', postId, actor),
    unlike: (postId: string, actor: Actor) => withdraw('like', postId, actor),
    attend: (postId: string, actor: Actor) => add('attendance', postId, actor),
    unattend: (postId: string, actor: Actor) => withdraw('attendance', postId, actor),

    async addComment(postId: string, content: string, actor: Actor): Promise<Comment> {
      return db.transaction(async (tx) => {
        const post = await lockPost(tx, postId);
        const [row] = await tx
          .insert(postComments)
          .values({ postId, authorId: actor.id, content })
          .returning();
        await moveCounter(tx, postId, 'commentsCount', 1);
        // In this transaction: a comment that rolls back notifies nobody.
        if (post.authorId !== actor.id) {
          await notify(tx, [commentNotification(post, row!, actor.nickname)]);
        }
        await publish(tx, 'post', { key: postId, commentId: row!.id });
        return {
          id: row!.id,
          content: row!.content,
          createdAt: row!.createdAt.toISOString(),
          author: { id: actor.id, userName: actor.nickname },
        };
      });
    },

    /** The comment's author, the post's author or an ADMIN. */
    async removeComment(commentId: string, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
        const [found] = await tx
          .select({
            postId: postComments.postId,
            authorId: postComments.authorId,
            postAuthorId: posts.authorId,
          })
          .from(postComments)
          .innerJoin(posts, eq(posts.id, postComments.postId))
          .where(eq(postComments.id, commentId))
          .for('no key update', { of: posts });
        if (!found) throw notFound('Comment not found');
        // A comment is changed like its own author's thing, and like the post's.
        const allowed =
          mayChange(actor, { ownerId: found.authorId }) ||
          mayChange(actor, { ownerId: found.postAuthorId });
        if (!allowed) {
          throw forbidden(
            'Only the comment author, the post author or an ADMIN can delete this comment',
            'NOT_OWNER',
          );
        }
        // A concurrent delete of the same comment may have won while this one waited for the lock.
        const [gone] = await tx
          .delete(postComments)
          .where(eq(postComments.id, commentId))
          .returning({ id: postComments.id });
        if (!gone) throw notFound('Comment not found');
        await moveCounter(tx, found.postId, 'commentsCount', -1);
        await publish(tx, 'post', { key: found.postId });
      });
    },

    /** One report per user and post; reports are not counted on the post. */
    async report(postId: string, reason: string, actor: Actor): Promise<Report> {
      return db.transaction(async (tx) => {
        await lockPost(tx, postId);
        const [row] = await tx
          .insert(postReports)
          .values({ postId, userId: actor.id, reason })
          .onConflictDoNothing({ target: [postReports.postId, postReports.userId] })
          .returning();
        if (!row) throw conflict('You already reported this post', 'ALREADY_REPORTED');
        return toReport(
          {
            id: row.id,
            reason: row.reason,
            createdAt: row.createdAt.toISOString(),
            userId: row.userId,
          },
          actor,
        );
      });
    },
  };
}
