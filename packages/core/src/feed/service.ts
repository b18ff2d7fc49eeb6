import { and, eq, ne, sql } from 'drizzle-orm';
import { avatarKeyFor } from '../media/references';
import { assertMayChange, type Actor } from '../common/actor';
import type { Cursors } from '../db/cursor';
import type { Database, Executor } from '../db/client';
import { AppError, notFound } from '../errors';
import { publish } from '../events/bus';
import { DEFAULT_REMINDER_LEAD_S, sendDueReminders } from '../notifications/reminders';
import { groupToPostIn, roleIn } from '../groups/access';
import { groupFollows } from '../groups/table';
import { groupPostNotifications } from '../notifications/messages';
import { notify } from '../notifications/service';
import { users } from '../users/table';
import { createInteractionService } from './interactions';
import { createPostListing } from './listing';
import { FEED_KEY } from './new-posts';
import {
  groupVerified,
  postColumns,
  preparePostRead,
  withNoInteractions,
  type PostRow,
} from './records';
import { createThreadService } from './threads';
import {
  eventFieldIssues,
  type CreatePostInput,
  type Post,
  type PostChanges,
  type UpdatePostInput,
} from './schemas';
import { posts } from './table';
import { postMediaRows, setPostMedia } from './post-media';

const toDate = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null ? null : new Date(value);

/** The actor's role in the post's group (null for a post without one), for `mayChange`. */
const groupRole = (db: Executor, post: Pick<PostRow, 'groupId'>, actor: Actor) =>
  post.groupId ? roleIn(db, post.groupId, actor.id) : null;

/**
 * Body fields → column values; `author` and `group` are not among them (derived from `authorId`
 * and `groupId`).
 */
function toColumns({
  author: _author,
  group: _group,
  mediaIds: _mediaIds,
  eventDate,
  eventFinishDate,
  ...rest
}: PostChanges) {
  return {
    ...rest,
    eventDate: toDate(eventDate),
    eventFinishDate: toDate(eventFinishDate),
  } satisfies Partial<typeof posts.$inferInsert>;
}

/**
 * Nobody posts as someone else (docs/contract/feed.md, Posts): `authorId` is the caller unless the
 * caller is ADMIN, and must be an existing user. The stored `author` is that user's nickname,
 * whatever the body said. Checked before the lookup, so a non-admin cannot probe which user ids
 * exist.
 */
async function authorNickname(db: Executor, actor: Actor, authorId: string): Promise<string> {
  assertMayChange(actor, { ownerId: authorId }, 'You cannot post as another user');
  if (authorId === actor.id) return actor.nickname;
  const [author] = await db
    .select({ nickname: users.nickname })
    .from(users)
    .where(eq(users.id, authorId));
  if (!author) throw notFound('Author not found');
  return author.nickname;
}

export interface FeedOptions {
  /** Signs and checks the lists' cursors (the post list, comments). */
  cursors: Cursors;
  reminderLeadSeconds?: number;
  /** Distinct reporters that hide a post or comment at once (MODERATION_THRESHOLD, default 5). */
  moderationThreshold?: number;
}

/** Posts of the feed, and (spread in) their comments, likes, attendances and reports. */
export function createFeedService(db: Database, options: FeedOptions) {
  const readPost = preparePostRead(db);

  async function get(id: string, actor: Actor): Promise<Post> {
    const post = await readPost(id, actor);
    if (!post) throw notFound('Post not found');
    return post;
  }

  return {
    ...createInteractionService(db, options),
    ...createThreadService(db, options.cursors),
    get,
    list: createPostListing(db, options.cursors),

    /** A client `id` and counters in the body were stripped by the schema: never used. */
    async create(input: CreatePostInput, actor: Actor): Promise<Post> {
      const { id: _ignored, ...changes } = input;
      const author = await authorNickname(db, actor, input.authorId);
      const row = await db.transaction(async (tx) => {
        // `group` is the name of the group posted in (its OWNER/ADMIN only), never free text.
        const group = input.groupId ? await groupToPostIn(tx, actor, input.groupId) : null;
        const [inserted] = await tx
          .insert(posts)
          .values({
            ...toColumns(changes),
            title: input.title,
            type: input.type,
            authorId: input.authorId,
            author,
            group,
          })
          .returning({ ...postColumns, groupVerified: groupVerified() });
        if (input.mediaIds?.length) await setPostMedia(tx, inserted!.id, input.mediaIds, actor);
        if (input.groupId && group) {
          // The group's followers hear of it (GROUP_POST), in this transaction.
          const followers = await tx
            .select({ userId: groupFollows.userId })
            .from(groupFollows)
            .where(and(eq(groupFollows.groupId, input.groupId), ne(groupFollows.userId, actor.id)));
          await notify(
            tx,
            groupPostNotifications(
              { id: input.groupId, name: group },
              inserted!,
              followers.map((f) => f.userId),
            ),
          );
        }
        // The feed's readers hear of it when this commits ("novos posts").
        await publish(tx, 'feed', {
          key: FEED_KEY,
          postId: inserted!.id,
          authorId: input.authorId,
        });
        const media = input.mediaIds?.length ? await postMediaRows(tx, inserted!.id) : [];
        return { ...inserted!, media, authorAvatarKey: await avatarKeyFor(tx, input.authorId) };
      });
      return withNoInteractions(row);
    },

    /**
     * The post row is locked while the change is checked and written, so the merged result that
     * is validated (an EVENT keeps its date and location, …) is the one stored.
     */
    async update({ id, ...changes }: UpdatePostInput, actor: Actor): Promise<Post> {
      await db.transaction(async (tx) => {
        const [current] = await tx
          .select()
          .from(posts)
          .where(eq(posts.id, id))
          .for('no key update');
        if (!current) throw notFound('Post not found');
        assertMayChange(
          actor,
          { ownerId: current.authorId, actorGroupRole: await groupRole(tx, current, actor) },
          'Only the author, the group OWNER/ADMIN or an ADMIN can change this post',
        );
        const values: Partial<PostRow> = toColumns(changes);
        if (changes.groupId !== undefined && changes.groupId !== current.groupId) {
          values.group = changes.groupId ? await groupToPostIn(tx, actor, changes.groupId) : null;
        }
        if (changes.author !== undefined || changes.authorId !== undefined) {
          values.author = await authorNickname(tx, actor, changes.authorId ?? current.authorId);
        }
        const issues = eventFieldIssues({ ...current, ...withoutUndefined(values) });
        if (issues.length) throw new AppError('BAD_REQUEST', 'Invalid input', { issues });
        await tx
          .update(posts)
          .set({ ...values, updatedAt: sql`now()` })
          .where(eq(posts.id, id));
        if (changes.mediaIds) await setPostMedia(tx, id, changes.mediaIds, actor);
        // An event moved into the reminder window: its attendees are reminded now.
        if (values.eventDate) {
          await sendDueReminders(tx, options.reminderLeadSeconds ?? DEFAULT_REMINDER_LEAD_S, {
            postId: id,
          });
        }
      });
      return get(id, actor);
    },

    /** Comments, likes, reports and attendances go with it (FK on delete cascade). */
    async remove(id: string, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
        const [current] = await tx
          .select({ authorId: posts.authorId, groupId: posts.groupId })
          .from(posts)
          .where(eq(posts.id, id))
          .for('update');
        if (!current) throw notFound('Post not found');
        assertMayChange(
          actor,
          { ownerId: current.authorId, actorGroupRole: await groupRole(tx, current, actor) },
          'Only the author, the group OWNER/ADMIN or an ADMIN can delete this post',
        );
        await tx.delete(posts).where(eq(posts.id, id));
        await publish(tx, 'post', { key: id, deleted: true });
      });
    },
  };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
