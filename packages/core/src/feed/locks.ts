import { eq, sql } from 'drizzle-orm';
import { isSiteAdmin, type Actor } from '../common/actor';
import type { Transaction } from '../db/client';
import { notFound } from '../errors';
import { qualified } from '../db/qualified';
import { filterBit } from './records';
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

/** How many users a post's reader set (`likers`, `attendees`) holds before it is null. */
export const READER_SET_MAX = 32;

/**
 * What the reader's flags are read from (records.ts), per kind: the table of rows, the post's
 * exact set while small, and its filter of every user who ever had a row.
 */
export const readerSets = {
  like: { table: postLikes, set: 'likers', filter: 'likersFilter', counter: 'likesCount' },
  attendance: {
    table: postAttendances,
    set: 'attendees',
    filter: 'attendeesFilter',
    counter: 'attendancesCount',
  },
} as const;
export type ReaderSet = (typeof readerSets)[keyof typeof readerSets];

const MAX = sql.raw(String(READER_SET_MAX));

/**
 * The post's columns once `userId` has a new row: counter + 1, the user's bit set in the filter,
 * and the user added to the set, which becomes null past READER_SET_MAX and stays null.
 */
export function joined({ set, filter, counter }: ReaderSet, userId: string) {
  return {
    [counter]: sql`${posts[counter]} + 1`,
    [filter]: sql`${posts[filter]} | ${filterBit(userId)}`,
    [set]: sql`case when ${posts[set]} is not null and cardinality(${posts[set]}) < ${MAX} then array_append(${posts[set]}, ${userId}::uuid) end`,
  };
}

/**
 * The post's columns once `userId`'s row is gone (or is about to go, in the same transaction):
 * counter - 1, the user taken out of the set; a null set (more than READER_SET_MAX) read again
 * from the rows when the count comes back within it. The bit stays in the filter. The rows are
 * read by this statement's snapshot: the post row must be locked before it (lockPost), so that
 * no change to the post's rows commits unseen in between.
 */
export function left({ table, set, counter }: ReaderSet, userId: string) {
  return {
    [counter]: sql`${posts[counter]} - 1`,
    [set]: sql`case when ${posts[set]} is not null then array_remove(${posts[set]}, ${userId}::uuid) when ${posts[counter]} - 1 <= ${MAX} then (select coalesce(array_agg(${qualified(table.userId)}), '{}') from ${table} where ${qualified(table.postId)} = ${qualified(posts.id)} and ${qualified(table.userId)} <> ${userId}::uuid) end`,
  };
}

/** Moves the comment counter of the post. */
export function moveCommentCount(tx: Transaction, postId: string, delta: 1 | -1) {
  return tx
    .update(posts)
    .set({ commentsCount: sql`${posts.commentsCount} + ${delta}` })
    .where(eq(posts.id, postId));
}
