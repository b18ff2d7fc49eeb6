import { eq, sql } from 'drizzle-orm';
import { isSiteAdmin, type Actor } from '../common/actor';
import type { Transaction } from '../db/client';
import { notFound } from '../errors';
import { postAttendances, postComments, postLikes, posts } from './table';

/*
 * Every change to a post's interactions first locks the post row (FOR NO KEY UPDATE: it does not
 * block inserts of child rows by other posts' FKs, but serialises the interactions of one post
 * and waits for a concurrent delete of it). Locks are always taken post row first, then child
 * rows, so these transactions cannot deadlock. Content hidden by moderation is, for anyone but
 * its author and site ADMINs, as if it did not exist (404).
 */

const maySee = (actor: Actor, thing: { hiddenAt: Date | null; authorId: string }) =>
  thing.hiddenAt === null || thing.authorId === actor.id || isSiteAdmin(actor);

export async function lockPost(tx: Transaction, postId: string, actor: Actor) {
  const [post] = await tx
    .select({
      type: posts.type,
      authorId: posts.authorId,
      title: posts.title,
      hiddenAt: posts.hiddenAt,
    })
    .from(posts)
    .where(eq(posts.id, postId))
    .for('no key update');
  if (!post || !maySee(actor, post)) throw notFound('Post not found');
  return post;
}

/** The comment, its post locked first; 404 when either is unknown or hidden from the actor. */
export async function lockComment(tx: Transaction, commentId: string, actor: Actor) {
  const [found] = await tx
    .select({
      postId: postComments.postId,
      authorId: postComments.authorId,
      hiddenAt: postComments.hiddenAt,
      createdAt: postComments.createdAt,
      post: { authorId: posts.authorId, hiddenAt: posts.hiddenAt, title: posts.title },
    })
    .from(postComments)
    .innerJoin(posts, eq(posts.id, postComments.postId))
    .where(eq(postComments.id, commentId))
    .for('no key update', { of: posts });
  if (!found || !maySee(actor, found) || !maySee(actor, found.post))
    throw notFound('Comment not found');
  return found;
}

/** Likes and attendances: the table of rows and the post's counter of them. */
export const perUserRows = {
  like: { table: postLikes, counter: 'likesCount' },
  attendance: { table: postAttendances, counter: 'attendancesCount' },
} as const;
export type PerUserRows = (typeof perUserRows)[keyof typeof perUserRows];

/** The post's counter once a row of `kind` was added (+1) or removed (-1). */
export const movedCounter = ({ counter }: PerUserRows, delta: 1 | -1) => ({
  [counter]: sql`${posts[counter]} + ${delta}`,
});

/** Moves the comment counter of the post. */
export function moveCommentCount(tx: Transaction, postId: string, delta: 1 | -1) {
  return tx
    .update(posts)
    .set({ commentsCount: sql`${posts.commentsCount} + ${delta}` })
    .where(eq(posts.id, postId));
}
