import { eq, sql } from 'drizzle-orm';
import type { Actor } from '../common/actor';
import type { Database, Executor } from '../db/client';
import { qualified } from '../db/qualified';
import type { MediaService, ReceivedUpload } from '../media/service';
import { media } from '../media/table';
import { assertMayManage, groupNotFound, lockGroup, roleIn } from './access';
import { groups } from './table';

/**
 * Group logos (docs/contract/media.md, Group logos): stored like an avatar (a square crop), linked
 * by `groups.logo_media_id`; a replaced or removed logo is discarded and the `media-cleanup` job
 * deletes its files.
 */

/** The group's current logo key, read in the statement that reads the group; null when none. */
export const logoKeyOf = () =>
  sql<
    string | null
  >`(select ${qualified(media.key)} from ${media} where ${qualified(media.id)} = ${qualified(groups.logoMediaId)} and ${qualified(media.discardedAt)} is null)`;

const refusal = 'Only an OWNER or ADMIN of the group can change its logo';

/** Discards the group's current logo (if any); its files go with the clean-up job. */
export async function discardLogo(tx: Executor, groupId: string): Promise<void> {
  await tx
    .update(media)
    .set({ discardedAt: sql`now()` })
    .where(
      sql`${media.id} = (select ${qualified(groups.logoMediaId)} from ${groups} where ${qualified(groups.id)} = ${groupId}) and ${media.discardedAt} is null`,
    );
}

/** The checks of a change of logo, with the group locked: exists (404), caller manages it (403). */
async function lockManaged(tx: Executor, groupId: string, actor: Actor) {
  await lockGroup(tx, groupId);
  assertMayManage(actor, await roleIn(tx, groupId, actor.id), refusal);
}

export function createGroupLogoService(db: Database, mediaService: MediaService) {
  return {
    /**
     * PUT /group/{id}/logo. The checks run before the image work (no work for a refusal) and again
     * in the transaction that swaps the logo, with the group locked, so no change races past them.
     */
    async setLogo(groupId: string, upload: ReceivedUpload | undefined, actor: Actor) {
      const [group] = await db.select({ id: groups.id }).from(groups).where(eq(groups.id, groupId));
      if (!group) throw groupNotFound();
      assertMayManage(actor, await roleIn(db, groupId, actor.id), refusal);
      await mediaService.store(upload, 'logo', actor, (values) =>
        db.transaction(async (tx) => {
          await lockManaged(tx, groupId, actor);
          await discardLogo(tx, groupId);
          const [row] = await tx.insert(media).values(values).returning();
          await tx
            .update(groups)
            .set({ logoMediaId: row!.id, updatedAt: sql`now()` })
            .where(eq(groups.id, groupId));
          return row!;
        }),
      );
    },

    /** DELETE /group/{id}/logo: no logo, nothing changes. */
    async removeLogo(groupId: string, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
        await lockManaged(tx, groupId, actor);
        await discardLogo(tx, groupId);
        await tx
          .update(groups)
          .set({ logoMediaId: null, updatedAt: sql`now()` })
          .where(eq(groups.id, groupId));
      });
    },
  };
}
