import { and, asc, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { Actor } from '../common/actor';
import type { Executor } from '../db/client';
import { qualified } from '../db/qualified';
import { AppError } from '../errors';
import type { MediaItemRow } from '../media/schemas';
import { media } from '../media/table';
import { postMedia, posts } from './table';

/*
 * A post's photos (docs/contract/media.md): `mediaIds` on POST and PATCH /post, `media` on every
 * post. The photos are read with the post, in its statement (one subquery, no query per post).
 */

/** The post's photos in order, as JSON built by the database (`[]` when none). */
export const postMediaJson = () =>
  sql<
    MediaItemRow[] | string
  >`coalesce((select json_agg(json_build_object('id', ${qualified(media.id)}, 'key', ${qualified(media.key)}, 'width', ${qualified(media.width)}, 'height', ${qualified(media.height)}, 'thumbWidth', ${qualified(media.thumbWidth)}, 'alt', ${qualified(media.alt)}) order by ${qualified(postMedia.position)}) from ${postMedia} join ${media} on ${qualified(media.id)} = ${qualified(postMedia.mediaId)} where ${qualified(postMedia.postId)} = ${qualified(posts.id)}), '[]'::json)`;

const notAvailable = () =>
  new AppError('BAD_REQUEST', 'A photo is not available: it must be your own unused upload', {
    reason: 'MEDIA_NOT_AVAILABLE',
    issues: [{ path: 'mediaIds', message: 'mediaIds must be your own uploads that no post uses' }],
  });

/**
 * Makes `ids` the post's photos, in that order, in the post's transaction. Photos it had and no
 * longer has are discarded (the `post_media_discard` trigger); new ones must be the caller's
 * uploads that no post took: claimed with a row lock, so two posts never take one photo.
 */
export async function setPostMedia(
  tx: Executor,
  postId: string,
  ids: readonly string[],
  actor: Actor,
): Promise<void> {
  const had = await tx
    .select({ id: postMedia.mediaId })
    .from(postMedia)
    .where(eq(postMedia.postId, postId));
  const kept = new Set(had.map((row) => row.id));
  if (had.length)
    await tx
      .delete(postMedia)
      .where(
        and(
          eq(postMedia.postId, postId),
          ids.length ? notInArray(postMedia.mediaId, [...ids]) : undefined,
        ),
      );
  const fresh = ids.filter((id) => !kept.has(id));
  if (fresh.length) {
    const claimed = await tx
      .update(media)
      .set({ attachedAt: sql`now()` })
      .where(
        and(
          inArray(media.id, fresh),
          eq(media.ownerId, actor.id),
          eq(media.kind, 'post'),
          isNull(media.attachedAt),
          isNull(media.discardedAt),
        ),
      )
      .returning({ id: media.id });
    if (claimed.length !== fresh.length) throw notAvailable();
  }
  if (ids.length)
    await tx
      .insert(postMedia)
      .values(ids.map((mediaId, position) => ({ postId, mediaId, position })))
      .onConflictDoUpdate({
        target: [postMedia.postId, postMedia.mediaId],
        set: { position: sql`excluded.position` },
      });
}

/** The post's photos (a creation's answer). */
export const postMediaRows = (tx: Executor, postId: string): Promise<MediaItemRow[]> =>
  tx
    .select({
      id: media.id,
      key: media.key,
      width: media.width,
      height: media.height,
      thumbWidth: media.thumbWidth,
      alt: media.alt,
    })
    .from(postMedia)
    .innerJoin(media, eq(media.id, postMedia.mediaId))
    .where(eq(postMedia.postId, postId))
    .orderBy(asc(postMedia.position));
