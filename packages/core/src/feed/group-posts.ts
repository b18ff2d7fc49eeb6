import { eq } from 'drizzle-orm';
import type { GroupPosts } from '../groups/service';
import { posts } from './table';

/**
 * The posts' side of a group's rename or deletion (docs/contract/groups.md, Posts in a group),
 * run in the group service's transaction: a post stores its group's name, and a deleted group's
 * posts stay without it.
 */
export const groupPosts: GroupPosts = {
  async renamed(tx, groupId, name) {
    await tx.update(posts).set({ group: name }).where(eq(posts.groupId, groupId));
  },
  async removed(tx, groupId) {
    await tx.update(posts).set({ group: null, groupId: null }).where(eq(posts.groupId, groupId));
  },
};
