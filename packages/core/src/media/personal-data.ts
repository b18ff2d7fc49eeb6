import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { media } from './table';
import { mainUrl, thumbUrl } from './urls';

/** The export's `fotos` (docs/contract/media.md, LGPD): the person's uploads with their URLs. */
export async function mediaOf(db: Executor, userId: string) {
  const rows = await db.select().from(media).where(eq(media.ownerId, userId));
  return rows.map((row) => ({ ...row, url: mainUrl(row.key), thumbnailUrl: thumbUrl(row.key) }));
}

/**
 * Erasure: the avatar and every upload no post uses are discarded (their files go within a
 * minute); photos of posts that stay (under "Usuário removido") stay with them.
 */
export async function discardUnusedMedia(db: Executor, userId: string): Promise<void> {
  await db
    .update(media)
    .set({ discardedAt: sql`now()` })
    .where(
      and(
        eq(media.ownerId, userId),
        isNull(media.discardedAt),
        // A group's logo belongs to the group: it stays.
        or(eq(media.kind, 'avatar'), and(eq(media.kind, 'post'), isNull(media.attachedAt))),
      ),
    );
}
