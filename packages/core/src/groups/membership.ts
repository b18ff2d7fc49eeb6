import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { avatarUrlColumn } from '../media/references';
import { isSiteAdmin, type Actor, type GroupRole } from '../common/actor';
import { listMeta, pageOffset } from '../common/pagination';
import type { Database, Executor } from '../db/client';
import { conflict, forbidden, isUniqueViolation, notFound } from '../errors';
import { joinDecisionNotification, joinRequestNotifications } from '../notifications/messages';
import { notify, readGroupNotifications } from '../notifications/service';
import { users } from '../users/table';
import { assertMayManage, assertOwner, groupNotFound, lockGroup, roleIn } from './access';
import { toJoinRequest, toMember } from './records';
import type { GroupPageQuery, JoinRequest, JoinRequestList, MemberList } from './schemas';
import { groupJoinRequests, groupMembers, groups } from './table';

/*
 * Join requests and members. Every change takes the group row lock first (`lockGroup`), so the
 * rules that count rows hold under any concurrency: a group never without an OWNER, a request
 * decided once, one member per user.
 */

const userColumns = {
  userId: users.id,
  userFullName: users.nome,
  userNickname: users.nickname,
  userAvatarUrl: avatarUrlColumn(users.id),
};

const lastOwner = () =>
  conflict(
    'The last OWNER cannot leave nor be demoted: make another member OWNER first',
    'LAST_OWNER',
  );

async function ownerCount(tx: Executor, groupId: string) {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.role, 'OWNER')));
  return row?.n ?? 0;
}

/** The group's OWNERs and ADMINs (they decide join requests). */
async function managers(tx: Executor, groupId: string) {
  const rows = await tx
    .select({ userId: groupMembers.userId })
    .from(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), inArray(groupMembers.role, ['OWNER', 'ADMIN'])));
  return rows.map((row) => row.userId);
}

async function memberRole(tx: Executor, groupId: string, userId: string) {
  const role = await roleIn(tx, groupId, userId);
  if (!role) throw notFound('Member not found');
  return role;
}

/** Join requests with their user, as `toJoinRequest` reads them. */
const selectRequests = (db: Executor) =>
  db
    .select({
      id: groupJoinRequests.id,
      groupId: groupJoinRequests.groupId,
      status: groupJoinRequests.status,
      createdAt: groupJoinRequests.createdAt,
      ...userColumns,
    })
    .from(groupJoinRequests)
    .innerJoin(users, eq(users.id, groupJoinRequests.userId));

async function readRequest(db: Executor, id: string): Promise<JoinRequest> {
  const [row] = await selectRequests(db).where(eq(groupJoinRequests.id, id));
  return toJoinRequest(row!);
}

/**
 * Once no request to join the group is pending, its managers' GROUP_JOIN_REQUEST notifications
 * are read: they asked for a decision, and every one was made (or withdrawn).
 */
async function readRequestsWhenNonePending(tx: Executor, groupId: string) {
  const [pending] = await tx
    .select({ id: groupJoinRequests.id })
    .from(groupJoinRequests)
    .where(and(eq(groupJoinRequests.groupId, groupId), eq(groupJoinRequests.status, 'PENDING')))
    .limit(1);
  if (!pending) await readGroupNotifications(tx, groupId, 'GROUP_JOIN_REQUEST');
}

export function createMembershipService(db: Database) {
  async function decide(
    groupId: string,
    requestId: string,
    actor: Actor,
    status: 'APPROVED' | 'REJECTED',
  ): Promise<JoinRequest> {
    await db.transaction(async (tx) => {
      const group = await lockGroup(tx, groupId);
      assertMayManage(
        actor,
        await roleIn(tx, groupId, actor.id),
        'Only an OWNER or ADMIN of the group can decide requests',
      );
      const [request] = await tx
        .select()
        .from(groupJoinRequests)
        .where(and(eq(groupJoinRequests.id, requestId), eq(groupJoinRequests.groupId, groupId)));
      if (!request) throw notFound('Join request not found');
      if (request.status !== 'PENDING')
        throw conflict(
          `This request was already ${request.status.toLowerCase()}`,
          'REQUEST_ALREADY_DECIDED',
        );
      await tx
        .update(groupJoinRequests)
        .set({ status, decidedAt: sql`now()`, decidedBy: actor.id })
        .where(eq(groupJoinRequests.id, requestId));
      if (status === 'APPROVED')
        await tx
          .insert(groupMembers)
          .values({ groupId, userId: request.userId, role: 'MEMBER' })
          .onConflictDoNothing();
      await notify(tx, [joinDecisionNotification(group, request.userId, status)]);
      await readRequestsWhenNonePending(tx, groupId);
    });
    return readRequest(db, requestId);
  }

  return {
    async requestToJoin(groupId: string, actor: Actor): Promise<JoinRequest> {
      const id = await db
        .transaction(async (tx) => {
          const group = await lockGroup(tx, groupId);
          if (await roleIn(tx, groupId, actor.id))
            throw conflict('You are already a member of this group', 'ALREADY_MEMBER');
          if (!group.acceptingNewMembers)
            throw forbidden('This group is not accepting new members', 'GROUP_CLOSED');
          const [row] = await tx
            .insert(groupJoinRequests)
            .values({ groupId, userId: actor.id })
            .returning({ id: groupJoinRequests.id });
          await notify(
            tx,
            joinRequestNotifications(group, actor.nickname, await managers(tx, groupId)),
          );
          return row!.id;
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error, 'group_join_requests_pending_unique'))
            throw conflict('You already asked to join this group', 'ALREADY_REQUESTED');
          throw error;
        });
      return readRequest(db, id);
    },

    /** Pending requests, oldest first: for the group's OWNERs and ADMINs (and site ADMINs). */
    async listRequests(query: GroupPageQuery, actor: Actor): Promise<JoinRequestList> {
      const [group] = await db
        .select({ id: groups.id })
        .from(groups)
        .where(eq(groups.id, query.id));
      if (!group) throw groupNotFound();
      assertMayManage(
        actor,
        await roleIn(db, query.id, actor.id),
        'Only an OWNER or ADMIN of the group can see its requests',
      );
      const pending = and(
        eq(groupJoinRequests.groupId, query.id),
        eq(groupJoinRequests.status, 'PENDING'),
      );
      const [rows, [count]] = await Promise.all([
        selectRequests(db)
          .where(pending)
          .orderBy(asc(groupJoinRequests.createdAt), asc(groupJoinRequests.id))
          .limit(query.limit)
          .offset(pageOffset(query)),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(groupJoinRequests)
          .where(pending),
      ]);
      return { data: rows.map(toJoinRequest), meta: listMeta(query, count?.n ?? 0) };
    },

    approve: (groupId: string, requestId: string, actor: Actor) =>
      decide(groupId, requestId, actor, 'APPROVED'),
    reject: (groupId: string, requestId: string, actor: Actor) =>
      decide(groupId, requestId, actor, 'REJECTED'),

    async withdraw(groupId: string, actor: Actor): Promise<void> {
      const deleted = await db.transaction(async (tx) => {
        // Locked like a decision, so the last two requests never both see the other pending.
        await lockGroup(tx, groupId);
        const rows = await tx
          .delete(groupJoinRequests)
          .where(
            and(
              eq(groupJoinRequests.groupId, groupId),
              eq(groupJoinRequests.userId, actor.id),
              eq(groupJoinRequests.status, 'PENDING'),
            ),
          )
          .returning({ id: groupJoinRequests.id });
        if (rows.length) await readRequestsWhenNonePending(tx, groupId);
        return rows;
      });
      if (deleted.length) return;
      const [group] = await db.select({ id: groups.id }).from(groups).where(eq(groups.id, groupId));
      if (!group) throw groupNotFound();
      throw notFound('You have no pending request to join this group');
    },

    /** Owners, then admins, then members, each by joinedAt; the total is the exact counter. */
    async listMembers(query: GroupPageQuery): Promise<MemberList> {
      const [group] = await db
        .select({ n: groups.membersCount })
        .from(groups)
        .where(eq(groups.id, query.id));
      if (!group) throw groupNotFound();
      const rows = await db
        .select({ role: groupMembers.role, joinedAt: groupMembers.joinedAt, ...userColumns })
        .from(groupMembers)
        .innerJoin(users, eq(users.id, groupMembers.userId))
        .where(eq(groupMembers.groupId, query.id))
        .orderBy(asc(groupMembers.role), asc(groupMembers.joinedAt), asc(groupMembers.userId))
        .limit(query.limit)
        .offset(pageOffset(query));
      return { data: rows.map(toMember), meta: listMeta(query, group.n) };
    },

    /** Only an OWNER (or a site ADMIN) grants or removes ADMIN and OWNER. */
    async changeRole(groupId: string, userId: string, role: GroupRole, actor: Actor) {
      await db.transaction(async (tx) => {
        await lockGroup(tx, groupId);
        assertOwner(
          actor,
          await roleIn(tx, groupId, actor.id),
          'Only an OWNER of the group can change roles',
        );
        const current = await memberRole(tx, groupId, userId);
        if (current === 'OWNER' && role !== 'OWNER' && (await ownerCount(tx, groupId)) === 1)
          throw lastOwner();
        await tx
          .update(groupMembers)
          .set({ role })
          .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)));
      });
      const [member] = await db
        .select({ role: groupMembers.role, joinedAt: groupMembers.joinedAt, ...userColumns })
        .from(groupMembers)
        .innerJoin(users, eq(users.id, groupMembers.userId))
        .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)));
      if (!member) throw notFound('Member not found');
      return toMember(member);
    },

    /**
     * Leave (anyone, oneself) or remove: an OWNER removes anyone, an ADMIN removes MEMBERs, a site
     * ADMIN anyone. The last OWNER is never removed (409 LAST_OWNER).
     */
    async removeMember(groupId: string, userId: string, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
        await lockGroup(tx, groupId);
        if (userId !== actor.id) {
          const mine = await roleIn(tx, groupId, actor.id);
          assertMayManage(actor, mine, 'Only an OWNER or ADMIN of the group can remove members');
          const target = await memberRole(tx, groupId, userId);
          if (mine === 'ADMIN' && target !== 'MEMBER' && !isSiteAdmin(actor))
            throw forbidden('An ADMIN can only remove MEMBERs', 'GROUP_FORBIDDEN');
        }
        const target = await memberRole(tx, groupId, userId);
        if (target === 'OWNER' && (await ownerCount(tx, groupId)) === 1) throw lastOwner();
        await tx
          .delete(groupMembers)
          .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)));
      });
    },
  };
}
