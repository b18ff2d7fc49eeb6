import { users } from '@campus/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { onTestAppWithUsers } from '../support/app';
import { countersAndRows, createGroup, join, reasonOf } from '../support/groups';

/** docs/contract/groups.md, Following: following a group, and the counters against the rows. */

const {
  t,
  users: [owner],
} = onTestAppWithUsers({});

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
