import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Actor } from '../common/actor';
import { cursorScope, type Cursors } from '../db/cursor';
import type { Database, Transaction } from '../db/client';
import { qualified } from '../db/qualified';
import { rowCounts } from '../db/row-counts';
import { AppError, conflict, forbidden, isUniqueViolation } from '../errors';
import type { MediaService } from '../media/service';
import {
  assertMayManage,
  assertOwner,
  groupNotFound,
  lockGroup,
  roleIn,
  roleSubquery,
} from './access';
import { createGroupLogoService, discardLogo, logoKeyOf } from './logo';
import { createMembershipService } from './membership';
import { toGroupSummary } from './records';
import type {
  CreateGroupInput,
  Follow,
  Group,
  GroupList,
  ListGroupsQuery,
  UpdateGroupInput,
} from './schemas';
import { groupFollows, groupJoinRequests, groupMembers, groupNameKey, groups } from './table';

const nameInUse = (error: unknown) => {
  if (isUniqueViolation(error, 'groups_name_key_unique'))
    return conflict('A group with this name already exists', 'GROUP_NAME_IN_USE');
  return error;
};

/** `%`, `_` and `\` in `q` are literal characters, not LIKE patterns. */
const likeEscaped = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * What a change of a group does to the posts in it, inside the change's transaction. The feed
 * implements it (feed/group-posts.ts): groups sit below the feed and never import it.
 */
export interface GroupPosts {
  /** Posts store their group's name: a rename reaches them at once. */
  renamed(tx: Transaction, groupId: string, name: string): Promise<void>;
  /** A deleted group's posts stay, without the group (neither `groupId` nor `group`). */
  removed(tx: Transaction, groupId: string): Promise<void>;
}

/** Groups, their members and join requests (spread in), and their followers. */
export function createGroupService(
  db: Database,
  groupPosts: GroupPosts,
  cursors: Cursors,
  media: MediaService,
) {
  const total = db
    .select({ n: rowCounts.rowCount })
    .from(rowCounts)
    .where(eq(rowCounts.tableName, 'groups'))
    .prepare('groups_total');

  async function get(id: string, actor: Actor): Promise<Group> {
    const [row] = await db
      .select({
        group: groups,
        logoKey: logoKeyOf(),
        myRole: sql<Group['myRole']>`(${roleSubquery(actor.id)})`,
        pending: sql<boolean>`exists (select 1 from ${groupJoinRequests} where ${qualified(groupJoinRequests.groupId)} = ${qualified(groups.id)} and ${qualified(groupJoinRequests.userId)} = ${actor.id} and ${qualified(groupJoinRequests.status)} = 'PENDING')`,
        following: sql<boolean>`exists (select 1 from ${groupFollows} where ${qualified(groupFollows.groupId)} = ${qualified(groups.id)} and ${qualified(groupFollows.userId)} = ${actor.id})`,
      })
      .from(groups)
      .where(eq(groups.id, id));
    if (!row) throw groupNotFound();
    return {
      ...toGroupSummary({ ...row.group, logoKey: row.logoKey }),
      myRole: row.myRole,
      myRequest: row.pending ? 'PENDING' : null,
      following: row.following,
    };
  }

  return {
    ...createMembershipService(db),
    ...createGroupLogoService(db, media),
    get,

    /**
     * Ordered by name ignoring case and accents (docs/contract/groups.md, Listing), the unique
     * `group_name_key(name)`: a cursor continues after the last group's key, a range of the
     * groups_name_key_unique index.
     */
    async list(query: ListGroupsQuery, actor: Actor): Promise<GroupList> {
      const filters: SQL[] = [];
      if (query.q !== undefined)
        filters.push(
          sql`${groupNameKey(groups.name)} like '%' || ${groupNameKey(likeEscaped(query.q))} || '%'`,
        );
      if (query.groupType !== undefined) filters.push(eq(groups.groupType, query.groupType));
      if (query.verified !== undefined) filters.push(eq(groups.verified, query.verified));
      if (query.mine)
        filters.push(
          sql`exists (select 1 from ${groupMembers} where ${qualified(groupMembers.groupId)} = ${qualified(groups.id)} and ${qualified(groupMembers.userId)} = ${actor.id})`,
        );
      const where = filters.length ? and(...filters) : undefined;
      const scope = cursorScope(
        'groups',
        actor.id,
        query.q ?? null,
        query.groupType ?? null,
        query.verified ?? null,
        query.mine ?? null,
      );
      const position = cursors.positionOf(scope, query);
      const after = position.after && sql`${groupNameKey(groups.name)} > ${position.after[0]}`;
      const [rows, count] = await Promise.all([
        db
          .select({
            ...getTableColumns(groups),
            logoKey: logoKeyOf(),
            sortKey: sql<string>`${groupNameKey(groups.name)}`,
          })
          .from(groups)
          .where(and(where, after))
          .orderBy(groupNameKey(groups.name))
          .limit(query.limit + 1)
          .offset(position.offset),
        // Without filters the total is the exact trigger-kept count (migration 0006), no scan.
        where
          ? db
              .select({ n: sql<number>`count(*)::int` })
              .from(groups)
              .where(where)
              .then(([r]) => r?.n ?? 0)
          : total.execute().then(([r]) => r?.n ?? 0),
      ]);
      return cursors.page(
        scope,
        position,
        query.limit,
        rows,
        count,
        (row) => [row.sortKey],
        toGroupSummary,
      );
    },

    /** The creator becomes its OWNER in the same transaction. */
    async create(input: CreateGroupInput, actor: Actor): Promise<Group> {
      const id = await db
        .transaction(async (tx) => {
          const [row] = await tx
            .insert(groups)
            .values({
              name: input.name,
              description: input.description ?? null,
              groupType: input.groupType,
              sports: input.sports,
              acceptingNewMembers: input.acceptingNewMembers,
            })
            .returning({ id: groups.id });
          await tx
            .insert(groupMembers)
            .values({ groupId: row!.id, userId: actor.id, role: 'OWNER' });
          return row!.id;
        })
        .catch((error: unknown) => {
          throw nameInUse(error);
        });
      return get(id, actor);
    },

    /** A group OWNER or ADMIN (or a site ADMIN); `verified` by a site ADMIN only. */
    async update({ id, verified, ...changes }: UpdateGroupInput, actor: Actor): Promise<Group> {
      await db
        .transaction(async (tx) => {
          await lockGroup(tx, id);
          assertMayManage(
            actor,
            await roleIn(tx, id, actor.id),
            'Only an OWNER or ADMIN of the group can change it',
          );
          if (verified !== undefined && actor.role !== 'ADMIN')
            throw forbidden('Only a site ADMIN can set verified', 'ADMIN_REQUIRED');
          await tx
            .update(groups)
            .set({
              ...changes,
              ...(verified === undefined ? {} : { verified }),
              updatedAt: sql`now()`,
            })
            .where(eq(groups.id, id));
          if (changes.name !== undefined) await groupPosts.renamed(tx, id, changes.name);
        })
        .catch((error: unknown) => {
          throw nameInUse(error);
        });
      return get(id, actor);
    },

    /** OWNER or site ADMIN. Its posts stay, without the group (neither `groupId` nor `group`); its logo is discarded. */
    async remove(id: string, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
        await lockGroup(tx, id);
        assertOwner(
          actor,
          await roleIn(tx, id, actor.id),
          'Only an OWNER of the group can delete it',
        );
        await groupPosts.removed(tx, id);
        await discardLogo(tx, id);
        await tx.delete(groups).where(eq(groups.id, id));
      });
    },

    async follow(id: string, actor: Actor): Promise<Follow> {
      // key share: the group cannot be deleted between this check and the insert.
      return db.transaction(async (tx) => {
        const [group] = await tx
          .select({ id: groups.id })
          .from(groups)
          .where(eq(groups.id, id))
          .for('key share');
        if (!group) throw groupNotFound();
        const [row] = await tx
          .insert(groupFollows)
          .values({ groupId: id, userId: actor.id })
          .onConflictDoNothing()
          .returning();
        if (!row) throw conflict('You already follow this group', 'ALREADY_FOLLOWING');
        return { groupId: row.groupId, userId: row.userId, createdAt: row.createdAt.toISOString() };
      });
    },

    async unfollow(id: string, actor: Actor): Promise<void> {
      const deleted = await db
        .delete(groupFollows)
        .where(and(eq(groupFollows.groupId, id), eq(groupFollows.userId, actor.id)))
        .returning({ id: groupFollows.groupId });
      if (deleted.length) return;
      const [group] = await db.select({ id: groups.id }).from(groups).where(eq(groups.id, id));
      if (!group) throw groupNotFound();
      throw new AppError('NOT_FOUND', 'You do not follow this group', { reason: 'NOT_FOLLOWING' });
    },
  };
}

export type GroupService = ReturnType<typeof createGroupService>;
