import { groupJoinRequests, groups } from '@campus/core';
import { eq, sql } from 'drizzle-orm';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../support/app';
import { addMember, countersAndRows, createGroup, groupBody, memberRoles } from '../support/groups';

/**
 * The rules of docs/contract/groups.md under simultaneous requests: every request of a burst is
 * sent before any answer is awaited; the outcome is checked in the answers and in the tables.
 */

let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.createUser();
});
afterAll(() => t.close());

const statuses = (responses: Response[]) =>
  responses.reduce<Record<number, number>>(
    (acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }),
    {},
  );
const users = (n: number) => Promise.all(Array.from({ length: n }, () => t.createUser()));
const owners = async (groupId: string) =>
  Object.values(await memberRoles(t, groupId)).filter((role) => role === 'OWNER').length;

describe('names that differ only in case or accents', () => {
  it('twelve creations at once: one group, eleven 409 GROUP_NAME_IN_USE', async () => {
    const stem = `Atlética São Paulo ${Date.now()}`;
    const variants = [
      stem,
      stem.toUpperCase(),
      stem.toLowerCase(),
      stem.normalize('NFD').replace(/\p{Diacritic}/gu, ''),
      stem.replace('ã', 'Ã'),
      stem.replace('é', 'e'),
    ];
    const creators = await users(12);
    const responses = await Promise.all(
      creators.map((u, i) =>
        t.request
          .post('/group')
          .set(u.auth)
          .send(groupBody({ name: variants[i % variants.length] })),
      ),
    );
    expect(statuses(responses)).toEqual({ 201: 1, 409: 11 });
    for (const r of responses.filter((r) => r.status === 409))
      expect(r.body.reason).toBe('GROUP_NAME_IN_USE');
    const [row] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(groups)
      .where(sql`group_name_key(${groups.name}) = group_name_key(${stem})`);
    expect(row!.n).toBe(1);
  });

  it('renames onto one name at once: one succeeds', async () => {
    const name = `Diretório Acadêmico ${Date.now()}`;
    const many = await Promise.all(Array.from({ length: 6 }, () => createGroup(t, owner)));
    const responses = await Promise.all(
      many.map((g, i) =>
        t.request
          .patch(`/group/${g.id}`)
          .set(owner.auth)
          .send({ name: i % 2 ? name.toUpperCase() : name }),
      ),
    );
    expect(statuses(responses)).toEqual({ 200: 1, 409: 5 });
  });
});

describe('a group never without an OWNER', () => {
  it('two owners demoting each other at once, in ten groups: every group keeps an OWNER', async () => {
    const pairs = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const [a, b] = await users(2);
        const group = await createGroup(t, a!);
        await addMember(t, group.id, a!, b!, 'OWNER');
        return { group, a: a!, b: b! };
      }),
    );
    const responses = await Promise.all(
      pairs.flatMap(({ group, a, b }) => [
        t.request.patch(`/group/${group.id}/members/${b.id}`).set(a.auth).send({ role: 'MEMBER' }),
        t.request.patch(`/group/${group.id}/members/${a.id}`).set(b.auth).send({ role: 'MEMBER' }),
      ]),
    );
    // The second of each pair finds its caller no longer OWNER (403), never a group left with none.
    expect(statuses(responses)).toEqual({ 200: 10, 403: 10 });
    for (const { group } of pairs) expect(await owners(group.id)).toBe(1);
  });

  it('two owners leaving at once: one leaves, the other is the last (409 LAST_OWNER)', async () => {
    const groupsAndOwners = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const [a, b] = await users(2);
        const group = await createGroup(t, a!);
        await addMember(t, group.id, a!, b!, 'OWNER');
        return { group, a: a!, b: b! };
      }),
    );
    const responses = await Promise.all(
      groupsAndOwners.flatMap(({ group, a, b }) => [
        t.request.delete(`/group/${group.id}/members/${a.id}`).set(a.auth),
        t.request.delete(`/group/${group.id}/members/${b.id}`).set(b.auth),
      ]),
    );
    expect(statuses(responses)).toEqual({ 204: 8, 409: 8 });
    for (const r of responses.filter((r) => r.status === 409))
      expect(r.body.reason).toBe('LAST_OWNER');
    for (const { group } of groupsAndOwners) expect(await owners(group.id)).toBe(1);
  });

  it('the last OWNER leaving while promoting another: whatever the order, an OWNER remains', async () => {
    const cases = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const [a, b] = await users(2);
        const group = await createGroup(t, a!);
        await addMember(t, group.id, a!, b!);
        return { group, a: a!, b: b! };
      }),
    );
    const responses = await Promise.all(
      cases.map(({ group, a, b }) =>
        Promise.all([
          t.request.patch(`/group/${group.id}/members/${b.id}`).set(a.auth).send({ role: 'OWNER' }),
          t.request.delete(`/group/${group.id}/members/${a.id}`).set(a.auth),
        ]),
      ),
    );
    for (const [i, [promote, leave]] of responses.entries()) {
      const { group, a, b } = cases[i]!;
      const roles = await memberRoles(t, group.id);
      expect(promote.status).toBe(200);
      if (leave.status === 204) expect(roles).toEqual({ [b.id]: 'OWNER' });
      else {
        expect(leave.status).toBe(409);
        expect(roles).toEqual({ [a.id]: 'OWNER', [b.id]: 'OWNER' });
      }
      expect(await owners(group.id)).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('join requests', () => {
  it('one request approved by two admins at once: one 200, one 409; one member', async () => {
    const [admin, ...joiners] = await users(9);
    const group = await createGroup(t, owner);
    await addMember(t, group.id, owner, admin!, 'ADMIN');
    const asked = await Promise.all(
      joiners.map((u) => t.request.post(`/group/${group.id}/requests`).set(u.auth)),
    );
    expect(statuses(asked)).toEqual({ 201: 8 });
    const responses = await Promise.all(
      asked.flatMap((r, i) => [
        t.request.post(`/group/${group.id}/requests/${r.body.id}/approve`).set(owner.auth),
        // Half are approved twice, half approved and rejected at once.
        t.request
          .post(`/group/${group.id}/requests/${r.body.id}/${i % 2 ? 'approve' : 'reject'}`)
          .set(admin!.auth),
      ]),
    );
    expect(statuses(responses)).toEqual({ 200: 8, 409: 8 });
    for (const r of responses.filter((r) => r.status === 409))
      expect(r.body.reason).toBe('REQUEST_ALREADY_DECIDED');
    const decided = await t.db
      .select({ userId: groupJoinRequests.userId, status: groupJoinRequests.status })
      .from(groupJoinRequests)
      .where(eq(groupJoinRequests.groupId, group.id));
    const approved = decided
      .filter((d) => d.status === 'APPROVED' && d.userId !== admin!.id)
      .map((d) => d.userId);
    const roles = await memberRoles(t, group.id);
    expect(Object.keys(roles).sort()).toEqual([owner.id, admin!.id, ...approved].sort());
    expect(decided.length).toBeGreaterThan(0);
    expect(decided.every((d) => d.status !== 'PENDING')).toBe(true);
    expect(await countersAndRows(t, group.id)).toMatchObject({
      membersCount: 2 + approved.length,
      members: 2 + approved.length,
    });
  });

  it('the same user asking five times at once: one 201, four 409 ALREADY_REQUESTED', async () => {
    const group = await createGroup(t, owner);
    const [user] = await users(1);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.request.post(`/group/${group.id}/requests`).set(user!.auth),
      ),
    );
    expect(statuses(responses)).toEqual({ 201: 1, 409: 4 });
    for (const r of responses.filter((r) => r.status === 409))
      expect(r.body.reason).toBe('ALREADY_REQUESTED');
  });
});

describe('counters equal their rows', () => {
  it('30 follow and 15 unfollow, 12 join and 6 leave, all at once', async () => {
    const group = await createGroup(t, owner);
    const fans = await users(30);
    const joiners = await users(12);
    await Promise.all(
      fans.slice(0, 15).map((u) => t.request.post(`/group/${group.id}/follow`).set(u.auth)),
    );
    for (const u of joiners.slice(0, 6)) await addMember(t, group.id, owner, u);
    const asked = await Promise.all(
      joiners.slice(6).map((u) => t.request.post(`/group/${group.id}/requests`).set(u.auth)),
    );
    const responses = await Promise.all([
      ...fans.slice(15).map((u) => t.request.post(`/group/${group.id}/follow`).set(u.auth)),
      ...fans.slice(0, 15).map((u) => t.request.delete(`/group/${group.id}/follow`).set(u.auth)),
      // The same follow twice at once: one 201, one 409.
      t.request.post(`/group/${group.id}/follow`).set(fans[29]!.auth),
      ...asked.map((r) =>
        t.request.post(`/group/${group.id}/requests/${r.body.id}/approve`).set(owner.auth),
      ),
      ...joiners
        .slice(0, 6)
        .map((u) => t.request.delete(`/group/${group.id}/members/${u.id}`).set(u.auth)),
    ]);
    expect(statuses(responses)).toEqual({ 201: 15, 204: 21, 409: 1, 200: 6 });
    expect(await countersAndRows(t, group.id)).toEqual({
      membersCount: 7,
      members: 7,
      followersCount: 15,
      followers: 15,
    });
    const read = await t.request.get(`/group/${group.id}`).set(owner.auth);
    expect(read.body).toMatchObject({ membersCount: 7, followersCount: 15 });
  });
});
