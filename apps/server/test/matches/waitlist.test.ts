import { notifications } from '@campus/core';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, onTestApp, type TestApp, type TestUser } from '../support/app';
import {
  createMatch,
  createUsers,
  expectSeatInvariants,
  insertMatch,
  playerRows,
  waitlistRows,
} from '../support/matches';

/**
 * The waiting list of a full match (docs/contract/matches.md, Waiting list): join, leave,
 * promotion, the reads.
 */

let t: TestApp;
onTestApp((app) => (t = app));

const join = (matchId: string, user: TestUser) =>
  t.request.post(`/match/${matchId}/waitlist`).set(user.auth);
const leave = (matchId: string, user: TestUser) =>
  t.request.delete(`/match/${matchId}/waitlist`).set(user.auth);
const subscribe = (matchId: string, user: TestUser) =>
  t.request.post(`/match/${matchId}/subscribe`).set(user.auth);

/** A match of `maxPlayers` filled by new users; returns it, its author and its players. */
async function fullMatch(maxPlayers = 2) {
  const author = await t.createUser();
  const match = await createMatch(t, author, { maxPlayers });
  const players = await createUsers(t, maxPlayers);
  for (const p of players) expect((await subscribe(match.id, p)).status).toBe(201);
  return { match, author, players };
}

describe('POST /match/:id/waitlist', () => {
  it('201 {matchId, userId, position} on a full match, in order; Location names the match', async () => {
    const { match } = await fullMatch();
    const [first, second] = await createUsers(t, 2);
    const res = await join(match.id, first!);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ matchId: match.id, userId: first!.id, position: 1 });
    expect(res.headers.location).toBe(`/match/${match.id}`);
    expect((await join(match.id, second!)).body.position).toBe(2);
    expect(await waitlistRows(t, match.id)).toEqual([first!.id, second!.id]);
  });

  it('409 MATCH_NOT_FULL when a spot is free; subscribing on a full match is 403 MATCH_FULL', async () => {
    const author = await t.createUser();
    const open = await createMatch(t, author, { maxPlayers: 2 });
    const user = await t.createUser();
    expect(expectError(await join(open.id, user), 409, 'CONFLICT').reason).toBe('MATCH_NOT_FULL');
    const { match } = await fullMatch();
    expect(expectError(await subscribe(match.id, user), 403, 'FORBIDDEN').reason).toBe(
      'MATCH_FULL',
    );
  });

  it('409 ALREADY_SUBSCRIBED for a player, ALREADY_WAITING twice; subscribing while waiting is 409 ALREADY_WAITING', async () => {
    const { match, players } = await fullMatch();
    expect(expectError(await join(match.id, players[0]!), 409, 'CONFLICT').reason).toBe(
      'ALREADY_SUBSCRIBED',
    );
    const waiting = await t.createUser();
    expect((await join(match.id, waiting)).status).toBe(201);
    expect(expectError(await join(match.id, waiting), 409, 'CONFLICT').reason).toBe(
      'ALREADY_WAITING',
    );
    expect(expectError(await subscribe(match.id, waiting), 409, 'CONFLICT').reason).toBe(
      'ALREADY_WAITING',
    );
  });

  it('403 MATCH_STARTED on a started match, 404 on an unknown one, 400 on a bad id', async () => {
    const author = await t.createUser();
    const past = await insertMatch(t, author, { matchDate: new Date(Date.now() - 60_000) });
    const user = await t.createUser();
    expect(expectError(await join(past.id, user), 403, 'FORBIDDEN').reason).toBe('MATCH_STARTED');
    expectError(await join('3f1b7f9e-0000-4000-8000-000000000000', user), 404, 'NOT_FOUND');
    expectError(await join('nope', user), 400, 'BAD_REQUEST');
  });
});

describe('leaving, and the spot that opens', () => {
  it('DELETE /match/:id/waitlist → 204, the rest move up; 404 when not waiting', async () => {
    const { match } = await fullMatch();
    const [a, b] = await createUsers(t, 2);
    await join(match.id, a!);
    await join(match.id, b!);
    expect((await leave(match.id, a!)).status).toBe(204);
    expect(await waitlistRows(t, match.id)).toEqual([b!.id]);
    expectError(await leave(match.id, a!), 404, 'NOT_FOUND');
  });

  it('an unsubscribe gives the spot to the first waiting user, placed by the rule, notified MATCH_SPOT_GRANTED', async () => {
    const { match, players } = await fullMatch(4);
    const [first, second] = await createUsers(t, 2);
    await join(match.id, first!);
    await join(match.id, second!);
    // players[1] is in team B (A, B, A, B): the spot opens in B, and B is where the first goes.
    const left = await t.request.delete(`/match/${match.id}/unsubscribe`).set(players[1]!.auth);
    expect(left.body).toEqual({ matchId: match.id, userId: players[1]!.id, team: 'B' });
    const rows = await playerRows(t, match.id);
    expect(rows.find((r) => r.userId === first!.id)?.team).toBe('B');
    expect(await waitlistRows(t, match.id)).toEqual([second!.id]);
    const granted = await t.db
      .select()
      .from(notifications)
      .where(
        and(eq(notifications.userId, first!.id), eq(notifications.type, 'MATCH_SPOT_GRANTED')),
      );
    expect(granted).toEqual([
      expect.objectContaining({
        data: { matchId: match.id },
        message: expect.stringContaining('vaga'),
      }),
    ]);
    await expectSeatInvariants(t, match.id);
  });

  it('a larger maxPlayers promotes as many as fit, first in line first', async () => {
    const { match, author } = await fullMatch(2);
    const waiting = await createUsers(t, 3);
    for (const u of waiting) await join(match.id, u);
    const res = await t.request
      .patch(`/match/${match.id}`)
      .set(author.auth)
      .send({ maxPlayers: 4 });
    expect(res.status).toBe(200);
    expect(res.body.spots).toEqual({ totalMax: 4, totalFilled: 4 });
    expect(res.body.waitlist).toEqual([
      {
        id: waiting[2]!.id,
        name: waiting[2]!.nome,
        userName: waiting[2]!.nickname,
        avatarUrl: null,
        position: 1,
      },
    ]);
    await expectSeatInvariants(t, match.id);
  });

  it('no promotion once the match has started: the spot stays free', async () => {
    const author = await t.createUser();
    const match = await insertMatch(t, author, { maxPlayers: 2 });
    const [p1, p2, w] = await createUsers(t, 3);
    for (const u of [p1!, p2!]) expect((await subscribe(match.id, u)).status).toBe(201);
    expect((await join(match.id, w!)).status).toBe(201);
    await t.request
      .patch(`/match/${match.id}`)
      .set(author.auth)
      .send({ MatchStatus: 'EM_ANDAMENTO' });
    await t.request.delete(`/match/${match.id}/unsubscribe`).set(p1!.auth).expect(200);
    expect((await playerRows(t, match.id)).map((r) => r.userId)).toEqual([p2!.id]);
    expect(await waitlistRows(t, match.id)).toEqual([w!.id]);
  });
});

describe('the caller in every read', () => {
  it('GET /match/:id lists the waiting list; myTeam and myWaitlistPosition are the caller’s, in the list too', async () => {
    const { match, players } = await fullMatch();
    const [a, b] = await createUsers(t, 2);
    await join(match.id, a!);
    await join(match.id, b!);
    const asB = await t.request.get(`/match/${match.id}`).set(b!.auth);
    expect(asB.body.waitlist).toEqual([
      { id: a!.id, name: a!.nome, userName: a!.nickname, avatarUrl: null, position: 1 },
      { id: b!.id, name: b!.nome, userName: b!.nickname, avatarUrl: null, position: 2 },
    ]);
    expect(asB.body).toMatchObject({ myTeam: null, myWaitlistPosition: 2 });
    const asPlayer = await t.request.get(`/match/${match.id}`).set(players[1]!.auth);
    expect(asPlayer.body).toMatchObject({ myTeam: 'B', myWaitlistPosition: null });
    const list = await t.request.get('/match?mine=true&limit=50').set(b!.auth);
    expect(list.body.data).toEqual([
      expect.objectContaining({
        id: match.id,
        myTeam: null,
        myWaitlistPosition: 2,
        waitlistCount: 2,
      }),
    ]);
  });
});
