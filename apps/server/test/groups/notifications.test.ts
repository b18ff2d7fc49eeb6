import { describe, expect, it } from 'vitest';
import { onTestAppWithUsers, type TestUser } from '../support/app';
import { generalBody } from '../support/feed';
import { addMember, createGroup, reasonOf } from '../support/groups';

/**
 * docs/contract/notifications.md: the GROUP_* notifications, read back from each person's inbox.
 */

const {
  t,
  users: [owner],
} = onTestAppWithUsers({});

const inbox = async (user: TestUser) => {
  const res = await t.request.get('/notifications').set(user.auth);
  expect(res.status).toBe(200);
  return res.body.data as { type: string; message: string; data: unknown; read: boolean }[];
};
const types = async (user: TestUser) => (await inbox(user)).map((n) => n.type);

describe('group notifications', () => {
  it("a join request tells the group's OWNERs and ADMINs, not its MEMBERs", async () => {
    const group = await createGroup(t, owner);
    const [admin, member, asker] = [
      await t.createUser(),
      await t.createUser(),
      await t.createUser(),
    ];
    await addMember(t, group.id, owner, admin, 'ADMIN');
    await addMember(t, group.id, owner, member);
    const before = { owner: (await inbox(owner)).length, admin: (await inbox(admin)).length };

    const asked = await t.request.post(`/group/${group.id}/requests`).set(asker.auth);
    expect(asked.status).toBe(201);
    for (const [manager, count] of [
      [owner, before.owner],
      [admin, before.admin],
    ] as const) {
      const list = await inbox(manager);
      expect(list).toHaveLength(count + 1);
      expect(list[0]).toMatchObject({
        type: 'GROUP_JOIN_REQUEST',
        message: `${asker.nickname} pediu para entrar no grupo “${group.name}”`,
        data: { groupId: group.id },
        read: false,
      });
    }
    expect(await types(member)).not.toContain('GROUP_JOIN_REQUEST');
    expect(await inbox(asker)).toEqual([]);
  });

  it('approving tells the requester GROUP_JOIN_APPROVED, once', async () => {
    const group = await createGroup(t, owner);
    const asker = await t.createUser();
    const asked = await t.request.post(`/group/${group.id}/requests`).set(asker.auth);
    const approve = () =>
      t.request.post(`/group/${group.id}/requests/${asked.body.id}/approve`).set(owner.auth);
    expect((await approve()).status).toBe(200);
    expect(reasonOf(await approve(), 409, 'CONFLICT')).toBe('REQUEST_ALREADY_DECIDED');
    expect(await inbox(asker)).toEqual([
      expect.objectContaining({
        type: 'GROUP_JOIN_APPROVED',
        message: `Seu pedido para entrar no grupo “${group.name}” foi aprovado: agora você é membro`,
        data: { groupId: group.id },
      }),
    ]);
  });

  it('rejecting tells the requester GROUP_JOIN_REJECTED; a refused decision tells nobody', async () => {
    const group = await createGroup(t, owner);
    const [asker, outsider] = [await t.createUser(), await t.createUser()];
    const asked = await t.request.post(`/group/${group.id}/requests`).set(asker.auth);
    const path = `/group/${group.id}/requests/${asked.body.id}`;
    // Not a manager of the group: 403, and no notification.
    expect((await t.request.post(`${path}/reject`).set(outsider.auth)).status).toBe(403);
    expect(await inbox(asker)).toEqual([]);

    expect((await t.request.post(`${path}/reject`).set(owner.auth)).status).toBe(200);
    expect(await inbox(asker)).toEqual([
      expect.objectContaining({
        type: 'GROUP_JOIN_REJECTED',
        message: `Seu pedido para entrar no grupo “${group.name}” foi recusado`,
        data: { groupId: group.id },
      }),
    ]);
  });

  it("the managers' join-request notifications are read once no request is pending (decided or withdrawn)", async () => {
    const group = await createGroup(t, owner);
    const [admin, first, second] = [
      await t.createUser(),
      await t.createUser(),
      await t.createUser(),
    ];
    await addMember(t, group.id, owner, admin, 'ADMIN');
    const unreadRequests = async (manager: TestUser) =>
      (await inbox(manager)).filter(
        (n) =>
          n.type === 'GROUP_JOIN_REQUEST' &&
          (n.data as { groupId?: string }).groupId === group.id &&
          !n.read,
      ).length;
    const one = await t.request.post(`/group/${group.id}/requests`).set(first.auth);
    expect((await t.request.post(`/group/${group.id}/requests`).set(second.auth)).status).toBe(201);
    expect([await unreadRequests(owner), await unreadRequests(admin)]).toEqual([2, 2]);

    // One decided, one still pending: both stay unread (there is still something to do).
    const path = `/group/${group.id}/requests/${one.body.id}/approve`;
    expect((await t.request.post(path).set(admin.auth)).status).toBe(200);
    expect([await unreadRequests(owner), await unreadRequests(admin)]).toEqual([2, 2]);

    // The last one withdrawn: nothing is pending, every manager's request notifications are read.
    const withdrawn = await t.request.delete(`/group/${group.id}/requests/mine`).set(second.auth);
    expect(withdrawn.status).toBe(204);
    expect([await unreadRequests(owner), await unreadRequests(admin)]).toEqual([0, 0]);
    const count = await t.request.get('/notifications/unread-count').set(owner.auth);
    expect(count.body.count).toBe((await inbox(owner)).filter((n) => !n.read).length);

    // A new request is news again.
    expect((await t.request.post(`/group/${group.id}/requests`).set(first.auth)).status).toBe(409);
    const third = await t.createUser();
    expect((await t.request.post(`/group/${group.id}/requests`).set(third.auth)).status).toBe(201);
    expect(await unreadRequests(owner)).toBe(1);
  });

  it("a post in the group's name tells its followers (not the one who posted); a refused post tells nobody", async () => {
    const group = await createGroup(t, owner);
    const [fan, otherFan, stranger] = [
      await t.createUser(),
      await t.createUser(),
      await t.createUser(),
    ];
    for (const user of [fan, otherFan, owner])
      expect((await t.request.post(`/group/${group.id}/follow`).set(user.auth)).status).toBe(201);

    // Someone who may not post for the group: 403, and nobody hears of it.
    const refused = await t.request
      .post('/post')
      .set(stranger.auth)
      .send(generalBody(stranger, { groupId: group.id }));
    expect(refused.status).toBe(403);
    expect(await inbox(fan)).toEqual([]);

    const posted = await t.request
      .post('/post')
      .set(owner.auth)
      .send(generalBody(owner, { groupId: group.id, title: 'Treino aberto no sábado' }));
    expect(posted.status).toBe(201);
    for (const follower of [fan, otherFan]) {
      expect(await inbox(follower)).toEqual([
        expect.objectContaining({
          type: 'GROUP_POST',
          message: `“${group.name}” publicou “Treino aberto no sábado”`,
          data: { groupId: group.id, postId: posted.body.id },
          read: false,
        }),
      ]);
    }
    expect(await types(owner)).not.toContain('GROUP_POST');
    expect(await inbox(stranger)).toEqual([]);

    // A post outside the group tells no follower.
    await t.request.post('/post').set(owner.auth).send(generalBody(owner));
    expect(await inbox(fan)).toHaveLength(1);
  });
});
