import { users } from '@campus/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp, type TestUser } from '../support/app';
import { addMember, countersAndRows, createGroup, join, memberRoles } from '../support/groups';

/** extensions.md §A: join requests, members and roles, leaving and removing, following. */

let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.createUser();
});
afterAll(() => t.close());

const reasonOf = (
  res: { status: number; body: unknown; headers: Record<string, string> },
  status: number,
  code: string,
) => expectError(res, status, code).reason;

describe('join requests', () => {
  it('201 PENDING with the user; listed oldest first to the OWNER; approve makes a MEMBER', async () => {
    const group = await createGroup(t, owner);
    const [first, second] = [await t.createUser(), await t.createUser()];
    const asked = await t.request.post(`/group/${group.id}/requests`).set(first.auth);
    expect(asked.status).toBe(201);
    expect(asked.headers.location).toBe(`/group/${group.id}/requests`);
    expect(asked.body).toEqual({
      id: expect.any(String),
      groupId: group.id,
      user: { id: first.id, name: first.nome, userName: first.nickname },
      status: 'PENDING',
      createdAt: expect.any(String),
    });
    await t.request.post(`/group/${group.id}/requests`).set(second.auth).expect(201);
    const list = await t.request.get(`/group/${group.id}/requests`).set(owner.auth);
    expect(list.body.data.map((r: { user: { id: string } }) => r.user.id)).toEqual([
      first.id,
      second.id,
    ]);
    expect(list.body.meta).toMatchObject({ totalCount: 2 });

    const approved = await t.request
      .post(`/group/${group.id}/requests/${asked.body.id}/approve`)
      .set(owner.auth);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: asked.body.id, status: 'APPROVED' });
    expect(await memberRoles(t, group.id)).toEqual({ [owner.id]: 'OWNER', [first.id]: 'MEMBER' });
    const read = await t.request.get(`/group/${group.id}`).set(first.auth);
    expect(read.body).toMatchObject({ myRole: 'MEMBER', myRequest: null, membersCount: 2 });
    const again = await t.request
      .post(`/group/${group.id}/requests/${asked.body.id}/approve`)
      .set(owner.auth);
    expect(reasonOf(again, 409, 'CONFLICT')).toBe('REQUEST_ALREADY_DECIDED');
    const pending = await t.request.get(`/group/${group.id}/requests`).set(owner.auth);
    expect(pending.body.data).toHaveLength(1);
  });

  it('reject: 200 REJECTED, no member; a decided request cannot be rejected or approved again', async () => {
    const group = await createGroup(t, owner);
    const user = await t.createUser();
    const asked = await t.request.post(`/group/${group.id}/requests`).set(user.auth);
    const rejected = await t.request
      .post(`/group/${group.id}/requests/${asked.body.id}/reject`)
      .set(owner.auth);
    expect(rejected.status).toBe(200);
    expect(rejected.body.status).toBe('REJECTED');
    expect(await memberRoles(t, group.id)).toEqual({ [owner.id]: 'OWNER' });
    for (const action of ['approve', 'reject'])
      expect(
        reasonOf(
          await t.request
            .post(`/group/${group.id}/requests/${asked.body.id}/${action}`)
            .set(owner.auth),
          409,
          'CONFLICT',
        ),
      ).toBe('REQUEST_ALREADY_DECIDED');
    // After a rejection, the user may ask again.
    await t.request.post(`/group/${group.id}/requests`).set(user.auth).expect(201);
  });

  it('409 ALREADY_MEMBER and ALREADY_REQUESTED; 403 GROUP_CLOSED; 404 for an unknown group or request', async () => {
    const group = await createGroup(t, owner);
    const user = await t.createUser();
    expect(
      reasonOf(
        await t.request.post(`/group/${group.id}/requests`).set(owner.auth),
        409,
        'CONFLICT',
      ),
    ).toBe('ALREADY_MEMBER');
    await t.request.post(`/group/${group.id}/requests`).set(user.auth).expect(201);
    expect(
      reasonOf(await t.request.post(`/group/${group.id}/requests`).set(user.auth), 409, 'CONFLICT'),
    ).toBe('ALREADY_REQUESTED');
    const closed = await createGroup(t, owner, { acceptingNewMembers: false });
    expect(
      reasonOf(
        await t.request.post(`/group/${closed.id}/requests`).set(user.auth),
        403,
        'FORBIDDEN',
      ),
    ).toBe('GROUP_CLOSED');
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(
      reasonOf(await t.request.post(`/group/${unknown}/requests`).set(user.auth), 404, 'NOT_FOUND'),
    ).toBe('GROUP_NOT_FOUND');
    expectError(
      await t.request.post(`/group/${group.id}/requests/${unknown}/approve`).set(owner.auth),
      404,
      'NOT_FOUND',
    );
    // A request of another group is not found through this one.
    const other = await createGroup(t, owner);
    const elsewhere = await t.request.post(`/group/${other.id}/requests`).set(user.auth);
    expectError(
      await t.request
        .post(`/group/${group.id}/requests/${elsewhere.body.id}/approve`)
        .set(owner.auth),
      404,
      'NOT_FOUND',
    );
  });

  it('DELETE /requests/mine withdraws (204), then 404; the request leaves the list', async () => {
    const group = await createGroup(t, owner);
    const user = await t.createUser();
    await t.request.post(`/group/${group.id}/requests`).set(user.auth).expect(201);
    expect((await t.request.delete(`/group/${group.id}/requests/mine`).set(user.auth)).status).toBe(
      204,
    );
    expectError(
      await t.request.delete(`/group/${group.id}/requests/mine`).set(user.auth),
      404,
      'NOT_FOUND',
    );
    expect((await t.request.get(`/group/${group.id}/requests`).set(owner.auth)).body.data).toEqual(
      [],
    );
    expect((await t.request.get(`/group/${group.id}`).set(user.auth)).body.myRequest).toBeNull();
  });
});

describe('members and roles', () => {
  it('listed owners first, then admins, then by joinedAt; totalCount = membersCount', async () => {
    const group = await createGroup(t, owner);
    const [m1, a1, m2, o2] = [
      await t.createUser(),
      await t.createUser(),
      await t.createUser(),
      await t.createUser(),
    ];
    await addMember(t, group.id, owner, m1);
    await addMember(t, group.id, owner, a1, 'ADMIN');
    await addMember(t, group.id, owner, m2);
    await addMember(t, group.id, owner, o2, 'OWNER');
    const res = await t.request.get(`/group/${group.id}/members?limit=3`).set(m1.auth);
    expect(
      res.body.data.map((m: { user: { id: string }; role: string }) => [m.user.id, m.role]),
    ).toEqual([
      [owner.id, 'OWNER'],
      [o2.id, 'OWNER'],
      [a1.id, 'ADMIN'],
    ]);
    expect(res.body.meta).toMatchObject({ totalCount: 5, totalPages: 2 });
    const rest = await t.request.get(`/group/${group.id}/members?limit=3&page=2`).set(m1.auth);
    expect(rest.body.data.map((m: { user: { id: string } }) => m.user.id)).toEqual([m1.id, m2.id]);
  });

  it('only an OWNER changes roles; an ADMIN gets 403 GROUP_FORBIDDEN; 404 for a non-member; 400 for an unknown role', async () => {
    const group = await createGroup(t, owner);
    const [admin, member, stranger] = [
      await t.createUser(),
      await t.createUser(),
      await t.createUser(),
    ];
    await addMember(t, group.id, owner, admin, 'ADMIN');
    await addMember(t, group.id, owner, member);
    const byAdmin = await t.request
      .patch(`/group/${group.id}/members/${member.id}`)
      .set(admin.auth)
      .send({ role: 'ADMIN' });
    expect(reasonOf(byAdmin, 403, 'FORBIDDEN')).toBe('GROUP_FORBIDDEN');
    const res = await t.request
      .patch(`/group/${group.id}/members/${member.id}`)
      .set(owner.auth)
      .send({ role: 'ADMIN' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user: { id: member.id }, role: 'ADMIN' });
    expectError(
      await t.request
        .patch(`/group/${group.id}/members/${stranger.id}`)
        .set(owner.auth)
        .send({ role: 'ADMIN' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.request
        .patch(`/group/${group.id}/members/${member.id}`)
        .set(owner.auth)
        .send({ role: 'BOSS' }),
      400,
      'BAD_REQUEST',
    );
  });

  it('the last OWNER can neither be demoted nor leave (409 LAST_OWNER); with two owners, one may', async () => {
    const group = await createGroup(t, owner);
    const second = await t.createUser();
    const demote = await t.request
      .patch(`/group/${group.id}/members/${owner.id}`)
      .set(owner.auth)
      .send({ role: 'MEMBER' });
    expect(reasonOf(demote, 409, 'CONFLICT')).toBe('LAST_OWNER');
    expect(
      reasonOf(
        await t.request.delete(`/group/${group.id}/members/${owner.id}`).set(owner.auth),
        409,
        'CONFLICT',
      ),
    ).toBe('LAST_OWNER');
    await addMember(t, group.id, owner, second, 'OWNER');
    expect(
      (await t.request.delete(`/group/${group.id}/members/${owner.id}`).set(owner.auth)).status,
    ).toBe(204);
    expect(await memberRoles(t, group.id)).toEqual({ [second.id]: 'OWNER' });
    expect(
      reasonOf(
        await t.request
          .patch(`/group/${group.id}/members/${second.id}`)
          .set(second.auth)
          .send({ role: 'ADMIN' }),
        409,
        'CONFLICT',
      ),
    ).toBe('LAST_OWNER');
  });

  it('removing: an ADMIN removes MEMBERs only; an OWNER removes an ADMIN; anyone leaves', async () => {
    const group = await createGroup(t, owner);
    const [admin, admin2, member, leaver] = [
      await t.createUser(),
      await t.createUser(),
      await t.createUser(),
      await t.createUser(),
    ];
    await addMember(t, group.id, owner, admin, 'ADMIN');
    await addMember(t, group.id, owner, admin2, 'ADMIN');
    await addMember(t, group.id, owner, member);
    await addMember(t, group.id, owner, leaver);
    for (const target of [owner, admin2])
      expect(
        reasonOf(
          await t.request.delete(`/group/${group.id}/members/${target.id}`).set(admin.auth),
          403,
          'FORBIDDEN',
        ),
      ).toBe('GROUP_FORBIDDEN');
    expect(
      reasonOf(
        await t.request.delete(`/group/${group.id}/members/${admin.id}`).set(member.auth),
        403,
        'FORBIDDEN',
      ),
    ).toBe('GROUP_FORBIDDEN');
    expect(
      (await t.request.delete(`/group/${group.id}/members/${member.id}`).set(admin.auth)).status,
    ).toBe(204);
    expect(
      (await t.request.delete(`/group/${group.id}/members/${admin2.id}`).set(owner.auth)).status,
    ).toBe(204);
    expect(
      (await t.request.delete(`/group/${group.id}/members/${leaver.id}`).set(leaver.auth)).status,
    ).toBe(204);
    expectError(
      await t.request.delete(`/group/${group.id}/members/${leaver.id}`).set(leaver.auth),
      404,
      'NOT_FOUND',
    );
    expect(await memberRoles(t, group.id)).toEqual({ [owner.id]: 'OWNER', [admin.id]: 'ADMIN' });
    expect(await countersAndRows(t, group.id)).toMatchObject({ membersCount: 2, members: 2 });
  });

  it('a site ADMIN manages any group but cannot remove its last OWNER', async () => {
    const group = await createGroup(t, owner);
    const [siteAdmin, member] = [await t.createUser({ perfil: 'ADMIN' }), await t.createUser()];
    await addMember(t, group.id, owner, member);
    expect(
      (
        await t.request
          .patch(`/group/${group.id}/members/${member.id}`)
          .set(siteAdmin.auth)
          .send({ role: 'OWNER' })
      ).status,
    ).toBe(200);
    expect(
      (await t.request.delete(`/group/${group.id}/members/${owner.id}`).set(siteAdmin.auth)).status,
    ).toBe(204);
    expect(
      reasonOf(
        await t.request.delete(`/group/${group.id}/members/${member.id}`).set(siteAdmin.auth),
        409,
        'CONFLICT',
      ),
    ).toBe('LAST_OWNER');
  });
});

describe('following', () => {
  it('201, then 409 ALREADY_FOLLOWING; 204 to stop, then 404 NOT_FOLLOWING; counters follow rows', async () => {
    const group = await createGroup(t, owner);
    const fan = await t.createUser();
    const res = await t.request.post(`/group/${group.id}/follow`).set(fan.auth);
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/group/${group.id}`);
    expect(res.body).toEqual({ groupId: group.id, userId: fan.id, createdAt: expect.any(String) });
    expect(
      reasonOf(await t.request.post(`/group/${group.id}/follow`).set(fan.auth), 409, 'CONFLICT'),
    ).toBe('ALREADY_FOLLOWING');
    // Members need not follow; followers need not be members.
    expect(await countersAndRows(t, group.id)).toEqual({
      membersCount: 1,
      members: 1,
      followersCount: 1,
      followers: 1,
    });
    expect((await t.request.delete(`/group/${group.id}/follow`).set(fan.auth)).status).toBe(204);
    expect(
      reasonOf(await t.request.delete(`/group/${group.id}/follow`).set(fan.auth), 404, 'NOT_FOUND'),
    ).toBe('NOT_FOLLOWING');
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(
      reasonOf(await t.request.post(`/group/${unknown}/follow`).set(fan.auth), 404, 'NOT_FOUND'),
    ).toBe('GROUP_NOT_FOUND');
    expect(
      reasonOf(await t.request.delete(`/group/${unknown}/follow`).set(fan.auth), 404, 'NOT_FOUND'),
    ).toBe('GROUP_NOT_FOUND');
    expect(await countersAndRows(t, group.id)).toMatchObject({ followersCount: 0, followers: 0 });
  });

  it('a deleted account leaves the counters equal to the rows', async () => {
    const group = await createGroup(t, owner);
    const user = await t.createUser();
    await join(t, group.id, owner, user);
    await t.request.post(`/group/${group.id}/follow`).set(user.auth).expect(201);
    await t.db.delete(users).where(eq(users.id, user.id));
    expect(await countersAndRows(t, group.id)).toEqual({
      membersCount: 1,
      members: 1,
      followersCount: 0,
      followers: 0,
    });
  });
});
