import { and, eq, sql } from 'drizzle-orm';
import { isSiteAdmin, mayChange, type Actor, type GroupRole } from '../common/actor';
import type { Executor } from '../db/client';
import { qualified } from '../db/qualified';
import { AppError, forbidden } from '../errors';
import { groupMembers, groups } from './table';

/*
 * Who may do what in a group, read from group_members. Every decision goes through `mayChange`
 * (common/actor.ts): a group's OWNER/ADMIN manage it, and a site ADMIN may too.
 */

export const groupNotFound = () =>
  new AppError('NOT_FOUND', 'Group not found', { reason: 'GROUP_NOT_FOUND' });

/** The actor's role in the group, or null when not a member. */
export async function roleIn(db: Executor, groupId: string, userId: string) {
  const [row] = await db
    .select({ role: groupMembers.role })
    .from(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)));
  return row?.role ?? null;
}

/**
 * `mayChange` for a thing that belongs to the group itself (its profile, its members, its
 * requests): no user owns it, so only the group role and the site role count.
 */
export const mayManage = (actor: Actor, role: GroupRole | null) =>
  mayChange(actor, { ownerId: '', actorGroupRole: role });

export function assertMayManage(actor: Actor, role: GroupRole | null, message: string) {
  if (!mayManage(actor, role)) throw forbidden(message, 'GROUP_FORBIDDEN');
}

/** OWNER or site ADMIN: deleting a group, changing roles. */
export function assertOwner(actor: Actor, role: GroupRole | null, message: string) {
  if (role !== 'OWNER' && !isSiteAdmin(actor)) throw forbidden(message, 'GROUP_FORBIDDEN');
}

/**
 * Locks the group row for the rest of the transaction (404 when there is none). Every change of
 * membership or role takes this lock first, so the rules that count rows (never without an
 * OWNER, one member per approved request) are checked and written one transaction at a time.
 * `no key update` leaves inserts of rows that reference the group (follows, posts) unblocked.
 */
export async function lockGroup(tx: Executor, id: string) {
  const [row] = await tx.select().from(groups).where(eq(groups.id, id)).for('no key update');
  if (!row) throw groupNotFound();
  return row;
}

/**
 * The group a post is published in the name of (docs/contract/groups.md, Posts in a group): the
 * actor must be its OWNER or ADMIN, or a site ADMIN; unknown → 404 GROUP_NOT_FOUND. Returns the
 * name stored as `group`. A key-share lock keeps the group from being deleted before the post
 * referencing it is written.
 */
export async function groupToPostIn(
  tx: Executor,
  actor: Actor,
  groupId: string,
  refusal = 'Only an OWNER or ADMIN of the group can post in its name',
) {
  const [group] = await tx
    .select({ name: groups.name, role: sql<GroupRole | null>`(${roleSubquery(actor.id)})` })
    .from(groups)
    .where(eq(groups.id, groupId))
    .for('key share');
  if (!group) throw groupNotFound();
  if (!mayManage(actor, group.role)) throw forbidden(refusal, 'GROUP_FORBIDDEN');
  return group.name;
}

/** `(select role from group_members where …)` for the current `groups` row. */
export const roleSubquery = (userId: string) =>
  sql`select ${qualified(groupMembers.role)} from ${groupMembers} where ${qualified(groupMembers.groupId)} = ${qualified(groups.id)} and ${qualified(groupMembers.userId)} = ${userId}`;
