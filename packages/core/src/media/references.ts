import { sql, type SQL } from 'drizzle-orm';
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
