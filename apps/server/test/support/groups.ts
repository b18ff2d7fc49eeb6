import { randomBytes } from 'node:crypto';
import { groupFollows, groupMembers, groups } from '@campus/core';
import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { expectError, type TestApp, type TestUser } from './app';

/** Test helpers of the groups suites: unique group bodies, groups made over HTTP, rows read back. */

export const groupBody = (overrides: Record<string, unknown> = {}) => ({
  name: `Grupo ${randomBytes(4).toString('hex')}`,
  description: 'Treinos às terças',
  groupType: 'ATHLETIC',
  sports: ['FUTSAL', 'VOLEI'],
  ...overrides,
});

export interface CreatedGroup {
  id: string;
  name: string;
  [field: string]: unknown;
}

/** POST /group as `owner` (201 asserted). */
export async function createGroup(
  t: TestApp,
  owner: TestUser,
  overrides: Record<string, unknown> = {},
): Promise<CreatedGroup> {
  const res = await t.request.post('/group').set(owner.auth).send(groupBody(overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as CreatedGroup;
}

/** `user` asks to join and `manager` approves: `user` is a MEMBER. Returns the request id. */
export async function join(t: TestApp, groupId: string, manager: TestUser, user: TestUser) {
  const asked = await t.request.post(`/group/${groupId}/requests`).set(user.auth);
  expect(asked.status, JSON.stringify(asked.body)).toBe(201);
  const approved = await t.request
    .post(`/group/${groupId}/requests/${asked.body.id}/approve`)
    .set(manager.auth);
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  return asked.body.id as string;
}

/** `user` joins and the OWNER `owner` makes them `role`. */
export async function addMember(
  t: TestApp,
  groupId: string,
  owner: TestUser,
  user: TestUser,
  role: 'OWNER' | 'ADMIN' | 'MEMBER' = 'MEMBER',
) {
  await join(t, groupId, owner, user);
  if (role === 'MEMBER') return;
  const res = await t.request
    .patch(`/group/${groupId}/members/${user.id}`)
    .set(owner.auth)
    .send({ role });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** The member rows of a group: userId → role. */
export async function memberRoles(t: TestApp, groupId: string) {
  const rows = await t.db
    .select({ userId: groupMembers.userId, role: groupMembers.role })
    .from(groupMembers)
    .where(eq(groupMembers.groupId, groupId));
  return Object.fromEntries(rows.map((r) => [r.userId, r.role]));
}

/** The stored counters next to the rows they count. */
export async function countersAndRows(t: TestApp, groupId: string) {
  const [row] = await t.db
    .select({
      membersCount: groups.membersCount,
      followersCount: groups.followersCount,
      members: sql<number>`(select count(*)::int from ${groupMembers} where ${groupMembers.groupId} = ${groupId})`,
      followers: sql<number>`(select count(*)::int from ${groupFollows} where ${groupFollows.groupId} = ${groupId})`,
    })
    .from(groups)
    .where(eq(groups.id, groupId));
  return row!;
}

/** Asserts the error format with `status` and `code` and returns its `reason`. */
export const reasonOf = (
  res: { status: number; body: unknown; headers: Record<string, string> },
  status: number,
  code: string,
) => expectError(res, status, code).reason;
