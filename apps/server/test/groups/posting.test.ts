import { posts } from '@campus/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp, type TestUser } from '../support/app';
import { eventBody, generalBody } from '../support/feed';
import { addMember, createGroup, type CreatedGroup } from '../support/groups';

/**
 * docs/contract/groups.md, Posts in a group: only its OWNER/ADMIN (or a site ADMIN) make a post
 * appear under a group, by any route; `group` is the group's name; its OWNER/ADMIN edit and delete
 * its posts.
 */

let t: TestApp;
let owner: TestUser, admin: TestUser, member: TestUser, stranger: TestUser, siteAdmin: TestUser;
let group: CreatedGroup;
beforeAll(async () => {
  t = await startTestApp();
  [owner, admin, member, stranger, siteAdmin] = await Promise.all([
    t.createUser(),
    t.createUser(),
    t.createUser(),
    t.createUser(),
    t.createUser({ perfil: 'ADMIN' }),
  ]);
  group = await createGroup(t, owner, { name: `Atlética de Medicina ${Date.now()}` });
  await addMember(t, group.id, owner, admin, 'ADMIN');
  await addMember(t, group.id, owner, member);
});
afterAll(() => t.close());

const postAs = (user: TestUser, overrides: Record<string, unknown> = {}) =>
  t.request.post('/post').set(user.auth).send(generalBody(user, overrides));
const groupPosts = async () =>
  (await t.db.select().from(posts).where(eq(posts.groupId, group.id))).length;

describe('POST /post with groupId', () => {
  it.each([
    ['OWNER', () => owner],
    ['ADMIN', () => admin],
    ['site ADMIN', () => siteAdmin],
  ])('%s: 201, group is the group name whatever was sent, groupVerified', async (_label, who) => {
    const res = await postAs(who(), { groupId: group.id, group: 'Something else' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ group: group.name, groupId: group.id, groupVerified: false });
  });

  it.each([
    ['MEMBER', () => member],
    ['stranger', () => stranger],
  ])('%s: 403 GROUP_FORBIDDEN, nothing written', async (_label, who) => {
    const before = await groupPosts();
    const res = await postAs(who(), { groupId: group.id });
    expect(expectError(res, 403, 'FORBIDDEN').reason).toBe('GROUP_FORBIDDEN');
    expect(await groupPosts()).toBe(before);
  });

  it('404 GROUP_NOT_FOUND for an unknown groupId; 400 for one that is not a UUID', async () => {
    const res = await postAs(owner, { groupId: '00000000-0000-4000-8000-000000000000' });
    expect(expectError(res, 404, 'NOT_FOUND').reason).toBe('GROUP_NOT_FOUND');
    expectError(await postAs(owner, { groupId: 'atletica-med' }), 400, 'BAD_REQUEST');
  });

  it('free text group without groupId is not stored: no post appears under a group name', async () => {
    const res = await postAs(stranger, { group: group.name });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ group: null, groupId: null, groupVerified: false });
  });

  it('groupVerified follows the group, in reads and lists', async () => {
    const other = await createGroup(t, owner);
    const created = await t.request
      .post('/post')
      .set(owner.auth)
      .send(eventBody(owner, { groupId: other.id }));
    expect(created.body.groupVerified).toBe(false);
    await t.request
      .patch(`/group/${other.id}`)
      .set(siteAdmin.auth)
      .send({ verified: true })
      .expect(200);
    const read = await t.request.get(`/post/${created.body.id}`).set(stranger.auth);
    expect(read.body).toMatchObject({ groupId: other.id, groupVerified: true });
    const list = await t.request.get('/post?limit=50').set(stranger.auth);
    const item = list.body.data.find((p: { id: string }) => p.id === created.body.id);
    expect(item).toMatchObject({ groupVerified: true });
    expect(
      list.body.data.find((p: { groupId: string | null }) => p.groupId === null),
    ).toMatchObject({ groupVerified: false });
  });

  it('over /trpc the same rule holds', async () => {
    const res = await t.request
      .post('/trpc/feed.create')
      .set(member.auth)
      .send(generalBody(member, { groupId: group.id }));
    expect(res.status).toBe(403);
    expect(res.body.error.data).toMatchObject({ reason: 'GROUP_FORBIDDEN' });
  });
});

describe('PATCH /post/{id} with groupId', () => {
  it('a MEMBER cannot move their own post into the group; an ADMIN can; null takes it out', async () => {
    const own = await postAs(member);
    const refused = await t.request
      .patch(`/post/${own.body.id}`)
      .set(member.auth)
      .send({ groupId: group.id });
    expect(expectError(refused, 403, 'FORBIDDEN').reason).toBe('GROUP_FORBIDDEN');
    const adminPost = await postAs(admin);
    const moved = await t.request
      .patch(`/post/${adminPost.body.id}`)
      .set(admin.auth)
      .send({ groupId: group.id, group: 'x' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ group: group.name, groupId: group.id });
    const out = await t.request
      .patch(`/post/${adminPost.body.id}`)
      .set(admin.auth)
      .send({ groupId: null });
    expect(out.body).toMatchObject({ group: null, groupId: null });
    const unknown = await t.request
      .patch(`/post/${adminPost.body.id}`)
      .set(admin.auth)
      .send({ groupId: '00000000-0000-4000-8000-000000000000' });
    expect(expectError(unknown, 404, 'NOT_FOUND').reason).toBe('GROUP_NOT_FOUND');
  });

  it('group text alone does not change group', async () => {
    const post = await postAs(owner, { groupId: group.id });
    const res = await t.request
      .patch(`/post/${post.body.id}`)
      .set(owner.auth)
      .send({ group: 'Fake name' });
    expect(res.status).toBe(200);
    expect(res.body.group).toBe(group.name);
  });
});

describe("the group's OWNER/ADMIN edit and delete its posts", () => {
  it('a group post by the OWNER: the ADMIN edits it, a MEMBER and a stranger cannot, the ADMIN deletes it', async () => {
    const post = await postAs(owner, { groupId: group.id });
    expect(
      (
        await t.request
          .patch(`/post/${post.body.id}`)
          .set(admin.auth)
          .send({ title: 'By the admin' })
      ).status,
    ).toBe(200);
    for (const who of [member, stranger]) {
      expect(
        expectError(
          await t.request.patch(`/post/${post.body.id}`).set(who.auth).send({ title: 'x' }),
          403,
          'FORBIDDEN',
        ).reason,
      ).toBe('NOT_OWNER');
      expectError(await t.request.delete(`/post/${post.body.id}`).set(who.auth), 403, 'FORBIDDEN');
    }
    expect((await t.request.delete(`/post/${post.body.id}`).set(admin.auth)).status).toBe(204);
  });

  it("the group's ADMIN cannot edit its members' posts outside the group", async () => {
    const post = await postAs(member);
    expectError(
      await t.request.patch(`/post/${post.body.id}`).set(admin.auth).send({ title: 'x' }),
      403,
      'FORBIDDEN',
    );
  });

  it('the author keeps editing a group post after losing the role, but cannot post again in its name', async () => {
    const other = await createGroup(t, owner);
    const helper = await t.createUser();
    await addMember(t, other.id, owner, helper, 'ADMIN');
    const post = await postAs(helper, { groupId: other.id });
    expect(post.status).toBe(201);
    await t.request
      .patch(`/group/${other.id}/members/${helper.id}`)
      .set(owner.auth)
      .send({ role: 'MEMBER' })
      .expect(200);
    expect(
      (
        await t.request
          .patch(`/post/${post.body.id}`)
          .set(helper.auth)
          .send({ title: 'Still mine' })
      ).status,
    ).toBe(200);
    expect(expectError(await postAs(helper, { groupId: other.id }), 403, 'FORBIDDEN').reason).toBe(
      'GROUP_FORBIDDEN',
    );
  });
});
