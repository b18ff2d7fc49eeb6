import { describe, expect, it } from 'vitest';
import { expectError, onTestAppWithUsers } from '../support/app';
import { createGroup, memberRoles, reasonOf } from '../support/groups';

/**
 * docs/contract/groups.md, Join requests: join requests asked, listed, approved, rejected and
 * withdrawn.
 */

const {
  t,
  users: [owner],
} = onTestAppWithUsers({});

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
      user: { id: first.id, name: first.nome, userName: first.nickname, avatarUrl: null },
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
