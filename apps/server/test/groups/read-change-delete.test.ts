import { groups, posts } from '@campus/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, onTestAppWithUsers } from '../support/app';
import { createGroup, join } from '../support/groups';
import { createPost, generalBody } from '../support/feed';

/** docs/contract/groups.md: one group read, changed and deleted over REST. */

const {
  t,
  users: [owner, other, siteAdmin],
} = onTestAppWithUsers({}, {}, { perfil: 'ADMIN' });

describe('GET /group/{id}', () => {
  it("carries the caller's role, pending request and following", async () => {
    const group = await createGroup(t, owner);
    const stranger = await t.createUser();
    await t.request.post(`/group/${group.id}/requests`).set(stranger.auth).expect(201);
    await t.request.post(`/group/${group.id}/follow`).set(stranger.auth).expect(201);
    const seen = await t.request.get(`/group/${group.id}`).set(stranger.auth);
    expect(seen.body).toMatchObject({
      myRole: null,
      myRequest: 'PENDING',
      following: true,
      followersCount: 1,
    });
    const byOwner = await t.request.get(`/group/${group.id}`).set(owner.auth);
    expect(byOwner.body).toMatchObject({ myRole: 'OWNER', myRequest: null, following: false });
  });

  it('404 GROUP_NOT_FOUND; 400 for an id that is not a UUID', async () => {
    const res = await t.request.get('/group/00000000-0000-4000-8000-000000000000').set(owner.auth);
    expect(expectError(res, 404, 'NOT_FOUND').reason).toBe('GROUP_NOT_FOUND');
    expectError(await t.request.get('/group/abc').set(owner.auth), 400, 'BAD_REQUEST');
  });
});

describe('PATCH /group/{id}', () => {
  it('the OWNER changes the fields sent; updatedAt moves', async () => {
    const group = await createGroup(t, owner);
    const res = await t.request
      .patch(`/group/${group.id}`)
      .set(owner.auth)
      .send({ description: null, sports: [], acceptingNewMembers: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: group.name,
      description: null,
      sports: [],
      acceptingNewMembers: false,
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(group.updatedAt as string));
  });

  it('verified: 403 ADMIN_REQUIRED for the OWNER, 200 for a site ADMIN', async () => {
    const group = await createGroup(t, owner);
    const refused = await t.request
      .patch(`/group/${group.id}`)
      .set(owner.auth)
      .send({ verified: true });
    expect(expectError(refused, 403, 'FORBIDDEN').reason).toBe('ADMIN_REQUIRED');
    const done = await t.request
      .patch(`/group/${group.id}`)
      .set(siteAdmin.auth)
      .send({ verified: true });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ verified: true, myRole: null });
  });

  it('409 GROUP_NAME_IN_USE when renaming onto another name; a rename reaches its posts', async () => {
    const first = await createGroup(t, owner);
    const second = await createGroup(t, owner);
    const clash = await t.request
      .patch(`/group/${second.id}`)
      .set(owner.auth)
      .send({ name: first.name.toUpperCase() });
    expect(expectError(clash, 409, 'CONFLICT').reason).toBe('GROUP_NAME_IN_USE');
    const post = await createPost(t, owner, generalBody(owner, { groupId: second.id }));
    const name = `${second.name} FC`;
    await t.request.patch(`/group/${second.id}`).set(owner.auth).send({ name }).expect(200);
    const read = await t.request.get(`/post/${post.id}`).set(other.auth);
    expect(read.body).toMatchObject({ group: name, groupId: second.id });
  });

  it('400 with no field to change', async () => {
    const group = await createGroup(t, owner);
    expectError(
      await t.request.patch(`/group/${group.id}`).set(owner.auth).send({}),
      400,
      'BAD_REQUEST',
    );
  });
});

describe('DELETE /group/{id}', () => {
  it('204; members, requests and follows go; its posts stay without the group', async () => {
    const group = await createGroup(t, owner);
    const member = await t.createUser();
    await join(t, group.id, owner, member);
    await t.request.post(`/group/${group.id}/follow`).set(other.auth).expect(201);
    const post = await createPost(t, owner, generalBody(owner, { groupId: group.id }));
    expect(post).toMatchObject({ group: group.name, groupId: group.id });
    const res = await t.request.delete(`/group/${group.id}`).set(owner.auth);
    expect(res.status).toBe(204);
    expect(await t.db.select().from(groups).where(eq(groups.id, group.id))).toEqual([]);
    const [row] = await t.db.select().from(posts).where(eq(posts.id, post.id));
    expect(row).toMatchObject({
      title: post.title,
      content: post.content,
      group: null,
      groupId: null,
    });
    const again = await t.request.delete(`/group/${group.id}`).set(owner.auth);
    expect(expectError(again, 404, 'NOT_FOUND').reason).toBe('GROUP_NOT_FOUND');
  });
});
