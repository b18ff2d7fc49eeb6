import { eq, sql } from 'drizzle-orm';
import { avatarUrlOf } from '../media/references';
import { mayChange, type Actor } from '../common/actor';
import type { Database, Transaction } from '../db/client';
import { conflict, forbidden, notFound } from '../errors';
import { publish } from '../events/bus';
import { hideWhenReported, type Target } from './hiding';
import { commentNotification } from '../notifications/messages';
import { notify } from '../notifications/service';
import { lockComment, lockPost, moveCommentCount } from './locks';
import { toReport } from './records';
import type { Comment, Report } from './schemas';
import { commentReports, postComments } from './table';

/*
 * Comments: write, edit, delete, report. Each runs in one transaction that locks the post row
 * first (`locks.ts`); `commentsCount` counts the comments a reader sees (hidden ones left out).
 */

/**
 * The answer to a report of a post or a comment: 409 when the user had reported it already (no
 * row inserted); otherwise the threshold may hide the content, under the post lock the caller holds.
 */
export async function reportFiled(
  tx: Transaction,
  row: { id: string; reason: string; createdAt: Date; userId: string } | undefined,
  target: Target,
  moderationThreshold: number,
  actor: Actor,
): Promise<Report> {
  const what = target.tipo === 'POST' ? 'post' : 'comment';
  if (!row) throw conflict(`You already reported this ${what}`, 'ALREADY_REPORTED');
  await hideWhenReported(tx, target, moderationThreshold);
  const { id, reason, createdAt, userId } = row;
  return toReport({ id, reason, createdAt: createdAt.toISOString(), userId }, actor);
}

export function createCommentService(db: Database, moderationThreshold: number) {
  return {
    async addComment(postId: string, content: string, actor: Actor): Promise<Comment> {
      return db.transaction(async (tx) => {
        const post = await lockPost(tx, postId, actor);
        const [row] = await tx
          .insert(postComments)
          .values({ postId, authorId: actor.id, content })
          .returning();
        await moveCommentCount(tx, postId, 1);
        // In this transaction: a comment that rolls back notifies nobody.
        if (post.authorId !== actor.id) {
          await notify(tx, [commentNotification(post, row!, actor.nickname)]);
        }
        await publish(tx, 'post', { key: postId, commentId: row!.id });
        return {
          id: row!.id,
          content: row!.content,
          createdAt: row!.createdAt.toISOString(),
          updatedAt: null,
          hidden: false,
          author: {
            id: actor.id,
            userName: actor.nickname,
            avatarUrl: await avatarUrlOf(tx, actor.id),
          },
        };
      });
    },

    /** Its author only (docs/contract/feed.md, Who may change what); sets `updatedAt`. */
    async editComment(commentId: string, content: string, actor: Actor): Promise<Comment> {
      return db.transaction(async (tx) => {
        const found = await lockComment(tx, commentId, actor);
        if (found.authorId !== actor.id) {
          throw forbidden('Only its author can edit this comment', 'NOT_OWNER');
        }
        const [row] = await tx
          .update(postComments)
          .set({ content, updatedAt: sql`now()` })
          .where(eq(postComments.id, commentId))
          .returning();
        if (!row) throw notFound('Comment not found');
        await publish(tx, 'post', { key: found.postId });
        return {
          id: row.id,
          content: row.content,
          createdAt: row.createdAt.toISOString(),
          updatedAt: row.updatedAt!.toISOString(),
          hidden: row.hiddenAt !== null,
          author: {
            id: actor.id,
            userName: actor.nickname,
            avatarUrl: await avatarUrlOf(tx, actor.id),
          },
        };
      });
    },

    /** The comment's author, the post's author or an ADMIN. */
    async removeComment(commentId: string, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
        const found = await lockComment(tx, commentId, actor);
        // A comment is changed like its own author's thing, and like the post's.
        const allowed =
          mayChange(actor, { ownerId: found.authorId }) ||
          mayChange(actor, { ownerId: found.post.authorId });
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
          .returning({ hiddenAt: postComments.hiddenAt });
        if (!gone) throw notFound('Comment not found');
        // A hidden comment was already left out of the counter.
        if (gone.hiddenAt === null) await moveCommentCount(tx, found.postId, -1);
        await publish(tx, 'post', { key: found.postId });
      });
    },

    /** One report per user and comment; the threshold hides it, like a post. */
    async reportComment(commentId: string, reason: string, actor: Actor): Promise<Report> {
      return db.transaction(async (tx) => {
        await lockComment(tx, commentId, actor);
        const [row] = await tx
          .insert(commentReports)
          .values({ commentId, userId: actor.id, reason })
          .onConflictDoNothing({ target: [commentReports.commentId, commentReports.userId] })
          .returning();
        const target = { tipo: 'COMENTARIO', id: commentId } as const;
        return reportFiled(tx, row, target, moderationThreshold, actor);
      });
    },
  };
}
