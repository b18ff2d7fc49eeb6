import { groups, posts } from '@campus/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp, type TestUser } from '../support/app';
import { createGroup, groupBody, join } from '../support/groups';
import { createPost, generalBody } from '../support/feed';

/** extensions.md §A: groups created, listed, read, changed and deleted over REST. */

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let siteAdmin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  [owner, other, siteAdmin] = await Promise.all([
    t.createUser(),
    t.createUser(),
    t.createUser({ perfil: 'ADMIN' }),
  ]);
});
afterAll(() => t.close());

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
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      myRole: 'OWNER',
      myRequest: null,
      following: false,
    });
    const members = await t.request.get(`/group/${res.body.id}/members`).set(other.auth);
    expect(members.body.data).toEqual([
      {
        user: { id: owner.id, name: owner.nome, userName: owner.nickname },
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

describe('GET /group', () => {
  let a: TestApp;
  let user: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    // Its own app: the totals and the order are exact.
    a = await startTestApp();
    [user, admin] = await Promise.all([a.createUser(), a.createUser({ perfil: 'ADMIN' })]);
    for (const [name, groupType] of [
      ['Ômega Futsal', 'AMATEUR'],
      ['atlética Direito', 'ATHLETIC'],
      ['Atlética Engenharia', 'ATHLETIC'],
      ['Zebra Vôlei', 'AMATEUR'],
      ['Diretório Central', 'ACADEMIC'],
      ['Ébano Xadrez', 'OTHER'],
    ] as const)
      await createGroup(a, name === 'Zebra Vôlei' ? user : admin, { name, groupType });
    const [eng] = await a.db.select().from(groups).where(eq(groups.name, 'Atlética Engenharia'));
    await a.request.patch(`/group/${eng!.id}`).set(admin.auth).send({ verified: true }).expect(200);
  });
  afterAll(() => a.close());
  const names = (res: { body: { data: { name: string }[] } }) => res.body.data.map((g) => g.name);

  it('by name ignoring case and accents, with exact meta', async () => {
    const res = await a.request.get('/group?limit=4').set(user.auth);
    expect(res.status).toBe(200);
    expect(names(res)).toEqual([
      'atlética Direito',
      'Atlética Engenharia',
      'Diretório Central',
      'Ébano Xadrez',
    ]);
    expect(res.body.meta).toEqual({
      page: 1,
      limit: 4,
      totalCount: 6,
      totalPages: 2,
      hasNextPage: true,
      hasPrevPage: false,
    });
    const second = await a.request.get('/group?limit=4&page=2').set(user.auth);
    expect(names(second)).toEqual(['Ômega Futsal', 'Zebra Vôlei']);
    expect(second.body.data[0]).not.toHaveProperty('myRole');
  });

  it('q: the name contains it, ignoring case and accents; % and _ are literal', async () => {
    expect(names(await a.request.get('/group?q=ATLETICA').set(user.auth))).toEqual([
      'atlética Direito',
      'Atlética Engenharia',
    ]);
    expect(names(await a.request.get('/group?q=volei').set(user.auth))).toEqual(['Zebra Vôlei']);
    const none = await a.request.get('/group?q=%25').set(user.auth);
    expect(none.body.meta.totalCount).toBe(0);
  });

  it('groupType, verified and mine, combinable; totalCount counts the filtered rows', async () => {
    const athletic = await a.request.get('/group?groupType=ATHLETIC').set(user.auth);
    expect(names(athletic)).toEqual(['atlética Direito', 'Atlética Engenharia']);
    expect(athletic.body.meta.totalCount).toBe(2);
    expect(names(await a.request.get('/group?verified=true').set(user.auth))).toEqual([
      'Atlética Engenharia',
    ]);
    expect(
      names(await a.request.get('/group?verified=false&groupType=ATHLETIC').set(user.auth)),
    ).toEqual(['atlética Direito']);
    expect(names(await a.request.get('/group?mine=true').set(user.auth))).toEqual(['Zebra Vôlei']);
    expect(names(await a.request.get('/group?mine=false&limit=50').set(user.auth))).toHaveLength(6);
  });

  it('over /trpc too, with JSON booleans', async () => {
    const input = encodeURIComponent(JSON.stringify({ mine: true, verified: false }));
    const res = await a.request.get(`/trpc/groups.list?input=${input}`).set(user.auth);
    expect(res.status).toBe(200);
    expect(res.body.result.data.data.map((g: { name: string }) => g.name)).toEqual(['Zebra Vôlei']);
  });

  it.each([
    ['groupType unknown', '?groupType=CLUB'],
    ['verified not a boolean', '?verified=yes'],
    ['mine not a boolean', '?mine=1'],
    ['limit over 50', '?limit=51'],
    ['q over 60', `?q=${'q'.repeat(61)}`],
  ])('400 when %s', async (_label, query) => {
    expectError(await a.request.get(`/group${query}`).set(user.auth), 400, 'BAD_REQUEST');
  });
});

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
