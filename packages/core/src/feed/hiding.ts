import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Transaction } from '../db/client';
import { commentReports, postComments, postReports, posts } from './table';
import { moveCommentCount } from './locks';
import { contentHiddenNotification } from '../notifications/messages';
import { notify } from '../notifications/service';
import type { ModerationTarget } from './enums';

/*
 * Hiding and showing content (docs/contract/feed.md, Moderation). Every function runs inside a
 * transaction that holds the post row lock (FOR NO KEY UPDATE, taken first by every interaction and
 * decision), so the open-report count read by the threshold statement cannot change under it: five
 * reporters at once queue on that lock and exactly one of them crosses the threshold. Each change
 * is also a guarded `update … where` that reports whether it changed a row, so a hide happens (and
 * its author is notified) once. A comment's visibility moves its post's `commentsCount`, which
 * counts what a reader sees.
 */

export const DEFAULT_MODERATION_THRESHOLD = 5;

export interface Target {
  tipo: ModerationTarget;
  id: string;
}

/** Hides the content; true when it was visible. `automatic`: only below RESTAURAR's protection. */
export async function hide(tx: Transaction, target: Target, automatic: boolean): Promise<boolean> {
  if (target.tipo === 'POST') {
    const [row] = await tx
      .update(posts)
      .set({ hiddenAt: sql`now()`, ...(automatic ? {} : { keptVisible: false }) })
      .where(
        and(
          eq(posts.id, target.id),
          isNull(posts.hiddenAt),
          automatic ? eq(posts.keptVisible, false) : undefined,
        ),
      )
      .returning({ authorId: posts.authorId, title: posts.title });
    if (!row) return false;
    await notify(tx, [contentHiddenNotification({ kind: 'POST', postId: target.id, ...row })]);
    return true;
  }
  const [row] = await tx
    .update(postComments)
    .set({ hiddenAt: sql`now()`, ...(automatic ? {} : { keptVisible: false }) })
    .where(
      and(
        eq(postComments.id, target.id),
        isNull(postComments.hiddenAt),
        automatic ? eq(postComments.keptVisible, false) : undefined,
      ),
    )
    .returning({ authorId: postComments.authorId, postId: postComments.postId });
  if (!row) return false;
  await moveCommentCount(tx, row.postId, -1);
  const [post] = await tx
    .select({ title: posts.title })
    .from(posts)
    .where(eq(posts.id, row.postId));
  await notify(tx, [
    contentHiddenNotification({
      kind: 'COMENTARIO',
      commentId: target.id,
      title: post?.title ?? '',
      ...row,
    }),
  ]);
  return true;
}

/** Shows hidden content again; `keep`: RESTAURAR (reports past the threshold no longer hide it). */
export async function show(tx: Transaction, target: Target, keep: boolean): Promise<void> {
  const changes = { hiddenAt: null, ...(keep ? { keptVisible: true } : {}) };
  if (target.tipo === 'POST') {
    await tx.update(posts).set(changes).where(eq(posts.id, target.id));
    return;
  }
  const [before] = await tx
    .select({ hiddenAt: postComments.hiddenAt, postId: postComments.postId })
    .from(postComments)
    .where(eq(postComments.id, target.id))
    .for('no key update');
  if (!before) return;
  await tx.update(postComments).set(changes).where(eq(postComments.id, target.id));
  if (before.hiddenAt) await moveCommentCount(tx, before.postId, 1);
}

/** Open reports on the target, counted under the post lock. */
async function openReports(tx: Transaction, target: Target): Promise<number> {
  const [row] =
    target.tipo === 'POST'
      ? await tx
          .select({ n: count() })
          .from(postReports)
          .where(and(eq(postReports.postId, target.id), isNull(postReports.resolvedAt)))
      : await tx
          .select({ n: count() })
          .from(commentReports)
          .where(and(eq(commentReports.commentId, target.id), isNull(commentReports.resolvedAt)));
  return row?.n ?? 0;
}

/** After a new report: hides the target at `threshold` distinct open reporters. */
export async function hideWhenReported(
  tx: Transaction,
  target: Target,
  threshold: number,
): Promise<boolean> {
  if ((await openReports(tx, target)) < threshold) return false;
  return hide(tx, target, true);
}
