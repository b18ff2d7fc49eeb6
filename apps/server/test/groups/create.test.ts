import { groups } from '@campus/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, onTestAppWithUsers } from '../support/app';
import { createGroup, groupBody } from '../support/groups';

/** docs/contract/groups.md: POST /group, its validation, idempotency and unique names. */

const {
  t,
  users: [owner, other],
} = onTestAppWithUsers({}, {});

describe('POST /group', () => {
  it('201 with Location; the creator is its OWNER; verified and counters in the body are ignored', async () => {
    const body = groupBody({ verified: true, membersCount: 99, followersCount: 7 });
    const res = await t.request.post('/group').set(owner.auth).send(body);
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/group/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: body.name,
      description: body.description,
      groupType: 'ATHLETIC',
      sports: ['FUTSAL', 'VOLEI'],
      acceptingNewMembers: true,
      verified: false,
      membersCount: 1,
      followersCount: 0,
      logoUrl: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      myRole: 'OWNER',
      myRequest: null,
      following: false,
    });
    const members = await t.request.get(`/group/${res.body.id}/members`).set(other.auth);
    expect(members.body.data).toEqual([
      {
        user: { id: owner.id, name: owner.nome, userName: owner.nickname, avatarUrl: null },
        role: 'OWNER',
        joinedAt: expect.any(String),
      },
    ]);
  });

  it('description and sports are optional; acceptingNewMembers may be false', async () => {
    const res = await t.request
      .post('/group')
      .set(owner.auth)
      .send({
        name: `Centro acadêmico ${Date.now()}`,
        groupType: 'ACADEMIC',
        acceptingNewMembers: false,
      });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ description: null, sports: [], acceptingNewMembers: false });
  });

  it.each([
    ['name missing', { name: undefined }, 'name'],
    ['name under 3', { name: 'ab' }, 'name'],
    ['name over 60', { name: 'n'.repeat(61) }, 'name'],
    ['name blank', { name: '    ' }, 'name'],
    ['description over 1000', { description: 'd'.repeat(1001) }, 'description'],
    ['groupType unknown', { groupType: 'CLUB' }, 'groupType'],
    ['groupType missing', { groupType: undefined }, 'groupType'],
    ['sports over 10', { sports: Array.from({ length: 11 }, (_, i) => `S${i}`) }, 'sports'],
    ['a sport empty', { sports: [''] }, 'sports.0'],
    ['a sport over 40', { sports: ['s'.repeat(41)] }, 'sports.0'],
    ['sports not an array', { sports: 'FUTSAL' }, 'sports'],
    ['acceptingNewMembers not a boolean', { acceptingNewMembers: 'yes' }, 'acceptingNewMembers'],
  ])('400 when %s', async (_label, overrides, path) => {
    const res = await t.request.post('/group').set(owner.auth).send(groupBody(overrides));
    const body = expectError(res, 400, 'BAD_REQUEST');
    expect(body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  it('Idempotency-Key: the same create twice answers the first answer again, one group', async () => {
    const body = groupBody();
    const send = () =>
      t.request
        .post('/group')
        .set(owner.auth)
        .set('Idempotency-Key', `g-${body.name.replace(' ', '-')}`)
        .send(body);
    const first = await send();
    const again = await send();
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await t.db.select().from(groups).where(eq(groups.name, body.name))).toHaveLength(1);
  });

  it('409 GROUP_NAME_IN_USE for a name that differs only in case or accents', async () => {
    const stem = `Atlética de Medicina ${Date.now()}`;
    await createGroup(t, owner, { name: stem });
    for (const name of [
      stem.toUpperCase(),
      stem.replace('é', 'e'),
      stem.toLowerCase().replace('é', 'É'),
    ]) {
      const res = await t.request.post('/group').set(other.auth).send(groupBody({ name }));
      expect(expectError(res, 409, 'CONFLICT').reason).toBe('GROUP_NAME_IN_USE');
    }
    const rows = await t.db.select().from(groups);
    expect(rows.filter((g) => g.name.toLowerCase().includes('medicina'))).toHaveLength(1);
  });
});
