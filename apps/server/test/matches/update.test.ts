import { matches } from '@campus/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, type TestApp, type TestUser, onTestApp, UNKNOWN_ID } from '../support/app';
import { createMatch, createUsers, daysFromNow, teamCounts } from '../support/matches';

let t: TestApp;
let author: TestUser;
onTestApp(async (app) => {
  t = app;
  author = await t.createUser();
});

const patch = (id: string, user: TestUser, body: Record<string, unknown>) =>
  t.request.patch(`/match/${id}`).set(user.auth).send(body);
const rowOf = async (id: string) =>
  (await t.db.select().from(matches).where(eq(matches.id, id)))[0]!;

/** A match with `count` players subscribed in order (A, B, A, …). */
async function matchWithPlayers(maxPlayers: number, count: number) {
  const match = await createMatch(t, author, { maxPlayers });
  const users = await createUsers(t, count);
  for (const u of users)
    await t.request.post(`/match/${match.id}/subscribe`).set(u.auth).expect(201);
  return { match, users };
}

describe('PATCH /match/:id', () => {
  it('200 with the updated Match; updatedAt moves, createdAt stays; the row changed', async () => {
    const created = await createMatch(t, author);
    const MatchDate = daysFromNow(20);
    const changes = {
      description: 'New description',
      maxPlayers: 12,
      MatchDate,
      location: 'Ginásio',
      teamNameA: 'Casa',
      teamNameB: 'Visitante',
    };
    const res = await patch(created.id, author, { title: '  New title ', ...changes });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: created.id,
      title: 'New title',
      ...changes,
      MatchStatus: 'EM_BREVE',
      createdAt: created.createdAt,
      spots: { totalMax: 12, totalFilled: 0 },
      teamA: { name: 'Casa', max: 6 },
      teamB: { name: 'Visitante', max: 6 },
    });
    expect(new Date(res.body.updatedAt).getTime()).toBeGreaterThan(
      new Date(created.updatedAt as string).getTime(),
    );
    expect(await rowOf(created.id)).toMatchObject({
      title: 'New title',
      maxPlayers: 12,
      matchDate: new Date(MatchDate),
      teamNameA: 'Casa',
    });
  });

  it('changes only the fields sent; description null removes it', async () => {
    const created = await createMatch(t, author);
    const res = await patch(created.id, author, { description: null });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('description');
    expect(res.body).toMatchObject({
      title: created.title,
      location: created.location,
      maxPlayers: created.maxPlayers,
    });
    expect((await rowOf(created.id)).description).toBeNull();
  });

  it.each([
    ['no field', {}, ''],
    ['only unknown fields', { foo: 'bar', players: [] }, ''],
    ['title shorter than 3', { title: 'ab' }, 'title'],
    ['description shorter than 2', { description: 'x' }, 'description'],
    ['maxPlayers 1', { maxPlayers: 1 }, 'maxPlayers'],
    ['maxPlayers 101', { maxPlayers: 101 }, 'maxPlayers'],
    ['MatchDate in the past', { MatchDate: daysFromNow(-1) }, 'MatchDate'],
    ['MatchDate not a timestamp', { MatchDate: 'tomorrow' }, 'MatchDate'],
    ['location empty', { location: '' }, 'location'],
    ['teamNameA longer than 50', { teamNameA: 'a'.repeat(51) }, 'teamNameA'],
    ['MatchStatus unknown', { MatchStatus: 'ABERTA' }, 'MatchStatus'],
  ])('400 when %s; the row is unchanged', async (_case, body, path) => {
    const created = await createMatch(t, author);
    const before = await rowOf(created.id);
    const res = expectError(await patch(created.id, author, body), 400, 'BAD_REQUEST');
    expect(res.issues).toEqual([expect.objectContaining({ path })]);
    expect(await rowOf(created.id)).toEqual(before);
  });

  it.each([
    ['the author', 'author', 200],
    ['another user', 'other', 403],
    ['an ADMIN', 'admin', 200],
  ] as const)('permission: %s (%s) → %i', async (_who, who, status) => {
    const created = await createMatch(t, author);
    const caller =
      who === 'author' ? author : await t.createUser(who === 'admin' ? { perfil: 'ADMIN' } : {});
    const res = await patch(created.id, caller, { title: `Changed by ${who}` });
    expect(res.status).toBe(status);
    if (status === 403) expect(expectError(res, 403, 'FORBIDDEN').reason).toBe('NOT_OWNER');
    expect((await rowOf(created.id)).title).toBe(
      status === 200 ? `Changed by ${who}` : created.title,
    );
  });

  it('404 for an unknown id, 400 for an id that is not a UUID, 401 without a token', async () => {
    expectError(await patch(UNKNOWN_ID, author, { title: 'Whatever' }), 404, 'NOT_FOUND');
    expectError(await patch('nope', author, { title: 'Whatever' }), 400, 'BAD_REQUEST');
    expectError(
      await t.request.patch(`/match/${UNKNOWN_ID}`).send({ title: 'Whatever' }),
      401,
      'UNAUTHORIZED',
    );
  });
});

describe('PATCH maxPlayers against the players already in', () => {
  it('409 CAPACITY_BELOW_PLAYERS below the total; nothing changes', async () => {
    const { match } = await matchWithPlayers(10, 5); // A 3, B 2
    const res = await patch(match.id, author, { maxPlayers: 4, title: 'Not applied' });
    expect(expectError(res, 409, 'CONFLICT').reason).toBe('CAPACITY_BELOW_PLAYERS');
    expect(await rowOf(match.id)).toMatchObject({ maxPlayers: 10, title: match.title });
  });

  it('409 when the total fits but a team would not (B of 2 in a match of 3: B holds 1)', async () => {
    const { match, users } = await matchWithPlayers(4, 3); // A 2, B 1
    await t.request.post(`/match/${match.id}/switch`).set(users[0]!.auth).expect(200); // A 1, B 2
    expect(await teamCounts(t, match.id)).toEqual({ A: 1, B: 2 });
    const res = await patch(match.id, author, { maxPlayers: 3 });
    expect(expectError(res, 409, 'CONFLICT').reason).toBe('CAPACITY_BELOW_PLAYERS');
    expect((await rowOf(match.id)).maxPlayers).toBe(4);
  });

  it('200 down to exactly the players in (A 3, B 2 in a match of 5); the match reads full', async () => {
    const { match } = await matchWithPlayers(10, 5);
    const res = await patch(match.id, author, { maxPlayers: 5 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      isSubscriptionOpen: false,
      spots: { totalMax: 5, totalFilled: 5 },
      teamA: { max: 3, filled: 3, isOpen: false },
      teamB: { max: 2, filled: 2, isOpen: false },
    });
    const late = await t.createUser();
    const full = await t.request.post(`/match/${match.id}/subscribe`).set(late.auth);
    expect(expectError(full, 403, 'FORBIDDEN').reason).toBe('MATCH_FULL');
  });

  it('raising maxPlayers reopens a full match', async () => {
    const { match } = await matchWithPlayers(2, 2);
    const res = await patch(match.id, author, { maxPlayers: 4 });
    expect(res.body).toMatchObject({
      isSubscriptionOpen: true,
      teamA: { max: 2, filled: 1, isOpen: true },
    });
    const late = await t.createUser();
    expect((await t.request.post(`/match/${match.id}/subscribe`).set(late.auth)).body.team).toBe(
      'A',
    );
  });
});
