import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { notFound } from '../errors';
import { commentSchema, type Comment } from '../feed/schemas';
import { postComments, posts } from '../feed/table';
import { matchSchema, type Match } from '../matches/schemas';
import { users } from '../users/table';
import type { EventBus } from './bus';
import { follow, sharedReads } from './live';

/** The match stream: the match whenever its spots, teams, status or fields change; `deleted` ends it. */
export const matchStreamEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('match'), match: matchSchema }),
  z.object({ kind: z.literal('deleted') }),
]);
export type MatchStreamEvent = z.infer<typeof matchStreamEvent>;

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
 * Live match and post streams: each starts with the current state, then follows the bus; after
 * a lost listener connection it sends the current state again. They end when `signal` aborts or
 * the thing is deleted.
 */
export function createLiveStreams(
  db: Database,
  bus: EventBus | undefined,
  readMatch: (id: string) => Promise<Match>,
) {
  const sharedMatch = sharedReads(async (id) => {
    try {
      return await readMatch(id);
    } catch (error) {
      if ((error as { status?: number }).status === 404) return undefined;
      throw error;
    }
  });
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
          author: { id: row.authorId, userName: row.userName },
        }
      : undefined;
  });
  const needBus = () => {
    if (!bus) throw new Error('live streams need the event bus');
    return bus;
  };

  return {
    /** Throws 404 before the stream starts when the match does not exist. */
    async match(id: string, signal: AbortSignal): Promise<AsyncGenerator<MatchStreamEvent>> {
      const items = await follow(needBus(), 'match', id, signal);
      const first = await sharedMatch(id, performance.now()).catch(async (error: unknown) => {
        await items.return();
        throw error;
      });
      if (!first) {
        await items.return();
        throw notFound('Match not found');
      }
      return (async function* () {
        try {
          yield { kind: 'match', match: first };
          for await (const item of items) {
            const match = await sharedMatch(id, item.at);
            if (!match) {
              yield { kind: 'deleted' };
              return;
            }
            yield { kind: 'match', match };
          }
        } finally {
          await items.return();
        }
      })();
    },

    /** Throws 404 before the stream starts when the post does not exist. */
    async post(id: string, signal: AbortSignal): Promise<AsyncGenerator<PostStreamEvent>> {
      const items = await follow(needBus(), 'post', id, signal);
      const first = await sharedCounters(id, performance.now()).catch(async (error: unknown) => {
        await items.return();
        throw error;
      });
      if (!first) {
        await items.return();
        throw notFound('Post not found');
      }
      return (async function* () {
        try {
          yield { kind: 'post', counters: first };
          for await (const item of items) {
            const counters = await sharedCounters(id, item.at);
            if (!counters) {
              yield { kind: 'deleted' };
              return;
            }
            const commentId = item.type === 'event' ? item.event.commentId : undefined;
            const comment = commentId ? await sharedComment(commentId, item.at) : undefined;
            yield { kind: 'post', counters, ...(comment ? { comment } : {}) };
          }
        } finally {
          await items.return();
        }
      })();
    },
  };
}
