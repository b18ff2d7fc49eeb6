import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { urlOrNull } from './urls';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { qualified } from '../db/qualified';
import { media } from './table';

/**
 * A user's current avatar key, read in the statement that reads the user reference (a probe of
 * `media_one_avatar_idx` per row, no query of its own); null when none. `urlOrNull` makes it a URL.
 */
export const avatarKeyOf = (userId: AnyPgColumn | SQL) =>
  sql<
    string | null
  >`(select ${qualified(media.key)} from ${media} where ${qualified(media.ownerId)} = ${userId} and ${qualified(media.kind)} = 'avatar' and ${qualified(media.discardedAt)} is null)`;

/** One user's avatar URL (an answer about the caller's own new comment, like or attendance). */
export const avatarUrlOf = async (db: Executor, userId: string) =>
  urlOrNull(await avatarKeyFor(db, userId));

/** One user's avatar key, or null. */
export async function avatarKeyFor(db: Executor, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ key: media.key })
    .from(media)
    .where(and(eq(media.ownerId, userId), eq(media.kind, 'avatar'), isNull(media.discardedAt)));
  return row?.key ?? null;
}

/** The column `avatarUrl` of a user reference in a select (the key read, the URL answered). */
export const avatarUrlColumn = (userId: AnyPgColumn) =>
  avatarKeyOf(qualified(userId)).mapWith((key: string | null) => urlOrNull(key));
