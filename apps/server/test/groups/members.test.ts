import { describe, expect, it } from 'vitest';
import { expectError, onTestAppWithUsers } from '../support/app';
import { addMember, countersAndRows, createGroup, memberRoles, reasonOf } from '../support/groups';

/** docs/contract/groups.md, Members: members listed, roles changed, members removed and leaving. */

const {
  t,
  users: [owner],
} = onTestAppWithUsers({});

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
