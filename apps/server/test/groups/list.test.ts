import { groups } from '@campus/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, onTestApp, type TestApp, type TestUser } from '../support/app';
import { createGroup } from '../support/groups';

/**
 * docs/contract/groups.md, Listing: GET /group, ordered by name, searched and filtered, with exact
 * meta.
 */

describe('GET /group', () => {
  let a: TestApp;
  let user: TestUser;
  let admin: TestUser;
  // Its own app: the totals and the order are exact.
  onTestApp(async (app) => {
    a = app;
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
      nextCursor: expect.any(String),
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
