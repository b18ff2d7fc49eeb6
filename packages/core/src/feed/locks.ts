import { eq, sql } from 'drizzle-orm';
import { isSiteAdmin, type Actor } from '../common/actor';
import type { Transaction } from '../db/client';
import { notFound } from '../errors';
import { filterBit } from './records';
import { postComments, posts } from './table';

/*
 * Every change to a post's interactions first locks the post row (FOR NO KEY UPDATE: it does not
 * block inserts of child rows by other posts' FKs, but serialises the interactions of one post
 * and waits for a concurrent delete of it). Locks are always taken post row first, then child
 * rows, so these transactions cannot deadlock. Content hidden by moderation is, for anyone but
 * its author and site ADMINs, as if it did not exist (404).
 */

export type Counter = 'likesCount' | 'commentsCount' | 'attendancesCount';

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

/** A reader-flag filter of the post (records.ts): who ever liked it, who ever attended. */
export type Filter = 'likersFilter' | 'attendeesFilter';

/**
 * Moves the post's counter; with `mark`, the same UPDATE also sets the user's bit in the filter
 * (a like or an attendance added). Nothing ever clears a bit: a removal leaves it set.
 */
export function moveCounter(
  tx: Transaction,
  postId: string,
  counter: Counter,
  delta: 1 | -1,
  mark?: { filter: Filter; userId: string },
) {
  return tx
    .update(posts)
    .set({
      [counter]: sql`${posts[counter]} + ${delta}`,
      ...(mark && { [mark.filter]: sql`${posts[mark.filter]} | ${filterBit(mark.userId)}` }),
    })
    .where(eq(posts.id, postId));
}
