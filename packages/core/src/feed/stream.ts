import { eq } from 'drizzle-orm';
import { avatarKeyOf } from '../media/references';
import { urlOrNull } from '../media/urls';
import { qualified } from '../db/qualified';
import { z } from 'zod';
import type { Database } from '../db/client';
import type { EventBus } from '../events/bus';
import { followState, sharedReads } from '../events/live';
import { users } from '../users/table';
import { commentSchema, type Comment } from './schemas';
import { postComments, posts } from './table';

const postCounters = z.object({
  likesCount: z.number().int(),
  commentsCount: z.number().int(),
  attendancesCount: z.number().int(),
});

/** The post stream: its counters whenever they change, with the comment that was added if one was. */
export const postStreamEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('post'), counters: postCounters, comment: commentSchema.optional() }),
  z.object({ kind: z.literal('deleted') }),
]);
export type PostStreamEvent = z.infer<typeof postStreamEvent>;

/**
 * The live post stream: it starts with the post's counters, then follows the bus; after a lost
 * listener connection it sends them again. It ends when `signal` aborts or the post is deleted.
 */
export function createPostStream(db: Database, bus: EventBus | undefined) {
  const sharedCounters = sharedReads(async (id) => {
    const [row] = await db
      .select({
        likesCount: posts.likesCount,
        commentsCount: posts.commentsCount,
        attendancesCount: posts.attendancesCount,
      })
      .from(posts)
      .where(eq(posts.id, id));
    return row;
  });
  const sharedComment = sharedReads(async (id): Promise<Comment | undefined> => {
    const [row] = await db
      .select({
        id: postComments.id,
        content: postComments.content,
        createdAt: postComments.createdAt,
        updatedAt: postComments.updatedAt,
        hiddenAt: postComments.hiddenAt,
        authorId: users.id,
        userName: users.nickname,
        avatarKey: avatarKeyOf(qualified(users.id)),
      })
      .from(postComments)
      .innerJoin(users, eq(users.id, postComments.authorId))
      .where(eq(postComments.id, id));
    return row
      ? {
          id: row.id,
          content: row.content,
          createdAt: row.createdAt.toISOString(),
          updatedAt: row.updatedAt ? row.updatedAt.toISOString() : null,
          hidden: row.hiddenAt !== null,
          author: { id: row.authorId, userName: row.userName, avatarUrl: urlOrNull(row.avatarKey) },
        }
      : undefined;
  });
  /** Throws 404 before the stream starts when the post does not exist. */
  return (id: string, signal: AbortSignal): Promise<AsyncGenerator<PostStreamEvent>> =>
    followState(
      bus,
      { kind: 'post', key: id, missing: 'Post not found' },
      signal,
      (at) => sharedCounters(id, at),
      async (counters, item) => {
        const commentId = item?.type === 'event' ? item.event.commentId : undefined;
        const comment = item && commentId ? await sharedComment(commentId, item.at) : undefined;
        return { kind: 'post' as const, counters, ...(comment ? { comment } : {}) };
      },
    );
}
