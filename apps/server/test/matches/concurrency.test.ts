import { matches } from '@campus/core';
import { eq } from 'drizzle-orm';
import type { Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, onTestApp } from '../support/app';
import { createMatch, createUsers, playerRows, teamCounts } from '../support/matches';
import { startSecondInstance } from '../support/two-instances';

/**
 * The rules of docs/contract/matches.md (Teams and seats) under simultaneous requests. Every
 * request of a burst is sent before any answer is awaited; the outcome is checked in the answers
 * and in match_players.
 */

let t: TestApp;
onTestApp((app) => (t = app));

const subscribe = (request: TestApp['request'], matchId: string, user: TestUser) =>
  request.post(`/match/${matchId}/subscribe`).set(user.auth);

const statuses = (responses: Response[]) =>
  responses.reduce<Record<number, number>>(
    (acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }),
    {},
  );

/** Ten of the forty are in, 5 and 5, each exactly once, and the answers say who and where. */
async function expectTenOfForty(matchId: string, users: TestUser[], responses: Response[]) {
  expect(statuses(responses)).toEqual({ 201: 10, 403: 30 });
  for (const r of responses.filter((r) => r.status === 403)) {
    expect(r.body).toMatchObject({ code: 'FORBIDDEN', reason: 'MATCH_FULL' });
  }
  const rows = await playerRows(t, matchId);
  expect(rows).toHaveLength(10);
  expect(new Set(rows.map((r) => r.userId)).size).toBe(10);
  expect(await teamCounts(t, matchId)).toEqual({ A: 5, B: 5 });
  const winners = responses.flatMap((r, i) =>
    r.status === 201 ? [{ userId: users[i]!.id, team: r.body.team }] : [],
  );
  expect(winners.map((w) => w.userId).sort()).toEqual(rows.map((r) => r.userId).sort());
  for (const w of winners) expect(rows.find((r) => r.userId === w.userId)!.team).toBe(w.team);
  const read = await t.request.get(`/match/${matchId}`).set(users[0]!.auth);
  expect(read.body).toMatchObject({
    isSubscriptionOpen: false,
    spots: { totalMax: 10, totalFilled: 10 },
    teamA: { filled: 5, isOpen: false },
    teamB: { filled: 5, isOpen: false },
  });
}

describe('subscribe under contention', () => {
  // Was a bug (fixed in matches/queries.ts with `qualified`): the snapshot read without the lock
  // compared match_players.id with itself (drizzle left "id" unqualified inside the subquery), so
  // it saw no players and refused nothing: every refusal queued on the match row behind the
  // admissions. Requests: POST /match/:id/subscribe by a player already in, and on a full match,
  // while another transaction holds the match row.
  it(
    'refusals (already in, match full) answer at once while the match row is locked',
    { tags: ['postgres-only'] },
    async () => {
      const author = await t.createUser();
      const match = await createMatch(t, author, { maxPlayers: 2 });
      const [first, second, late] = await createUsers(t, 3);
      for (const user of [first!, second!])
        expect((await subscribe(t.request, match.id, user)).status).toBe(201);
      await t.db.transaction(async (tx) => {
        await tx
          .select({ id: matches.id })
          .from(matches)
          .where(eq(matches.id, match.id))
          .for('update');
        const [again, full] = await Promise.all([
          subscribe(t.request, match.id, first!).timeout(5_000),
          subscribe(t.request, match.id, late!).timeout(5_000),
        ]);
        expect(again.status).toBe(409);
        expect(again.body).toMatchObject({ code: 'CONFLICT', reason: 'ALREADY_SUBSCRIBED' });
        expect(full.status).toBe(403);
        expect(full.body).toMatchObject({ code: 'FORBIDDEN', reason: 'MATCH_FULL' });
      });
      expect(await teamCounts(t, match.id)).toEqual({ A: 1, B: 1 });
    },
  );

  it('40 distinct users at once on a maxPlayers-10 match: ten 201, thirty 403 MATCH_FULL, 5 and 5', async () => {
    const author = await t.createUser();
    const match = await createMatch(t, author, { maxPlayers: 10 });
    const users = await createUsers(t, 40);
    const responses = await Promise.all(users.map((u) => subscribe(t.request, match.id, u)));
    await expectTenOfForty(match.id, users, responses);
  });

  it('one user sending the same subscribe ten times at once: one 201, nine 409 ALREADY_SUBSCRIBED', async () => {
    const author = await t.createUser();
    const match = await createMatch(t, author, { maxPlayers: 10 });
    const user = await t.createUser();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => subscribe(t.request, match.id, user)),
    );
    expect(statuses(responses)).toEqual({ 201: 1, 409: 9 });
    for (const r of responses.filter((r) => r.status === 409)) {
      expect(r.body).toMatchObject({ code: 'CONFLICT', reason: 'ALREADY_SUBSCRIBED' });
    }
    expect(await playerRows(t, match.id)).toEqual([
      expect.objectContaining({ userId: user.id, team: 'A' }),
    ]);
  });

  it(
    'two app instances on one PostgreSQL, 40 users split between them: still ten 201, 5 and 5',
    { tags: ['postgres-only'] },
    async () => {
      const second = await startSecondInstance(t);
      try {
        const author = await t.createUser();
        const match = await createMatch(t, author, { maxPlayers: 10 });
        const users = await createUsers(t, 40);
        const responses = await Promise.all(
          users.map((u, i) => subscribe(i % 2 === 0 ? t.request : second.request, match.id, u)),
        );
        // The second instance served its twenty with real answers, not errors.
        expect(
          responses.filter((_, i) => i % 2 === 1).every((r) => [201, 403].includes(r.status)),
        ).toBe(true);
        await expectTenOfForty(match.id, users, responses);
      } finally {
        await second.close();
      }
    },
  );
});

describe('switch under contention', () => {
  it('two players switching into the last free spot of team B at once: one 200, one 403 TEAM_FULL', async () => {
    const author = await t.createUser();
    const match = await createMatch(t, author, { maxPlayers: 4 });
    const [a1, b1, a2] = await createUsers(t, 3);
    for (const u of [a1!, b1!, a2!])
      expect((await subscribe(t.request, match.id, u)).status).toBe(201);
    expect(await teamCounts(t, match.id)).toEqual({ A: 2, B: 1 });

    const responses = await Promise.all(
      [a1!, a2!].map((u) => t.request.post(`/match/${match.id}/switch`).set(u.auth)),
    );
    expect(statuses(responses)).toEqual({ 200: 1, 403: 1 });
    const winner = responses.find((r) => r.status === 200)!;
    expect(winner.body).toEqual({ matchId: match.id, userId: expect.any(String), team: 'B' });
    expect(responses.find((r) => r.status === 403)!.body).toMatchObject({ reason: 'TEAM_FULL' });
    expect(await teamCounts(t, match.id)).toEqual({ A: 1, B: 2 });
    const rows = await playerRows(t, match.id);
    expect(rows.find((r) => r.userId === winner.body.userId)!.team).toBe('B');
  });
});

describe('mixed bursts keep every invariant', () => {
  it('subscribes, switches and unsubscribes at once never overfill a team or double a user', async () => {
    const author = await t.createUser();
    const match = await createMatch(t, author, { maxPlayers: 7 });
    const inside = await createUsers(t, 6);
    for (const u of inside) expect((await subscribe(t.request, match.id, u)).status).toBe(201);
    const newcomers = await createUsers(t, 12);

    const responses = await Promise.all([
      ...newcomers.map((u) => subscribe(t.request, match.id, u)),
      ...inside.slice(0, 3).map((u) => t.request.post(`/match/${match.id}/switch`).set(u.auth)),
      ...inside.slice(3).map((u) => t.request.delete(`/match/${match.id}/unsubscribe`).set(u.auth)),
    ]);
    const subscribed = responses.slice(0, 12).filter((r) => r.status === 201).length;
    expect(
      responses.slice(0, 12).every((r) => r.status === 201 || r.body.reason === 'MATCH_FULL'),
    ).toBe(true);
    expect(
      responses.slice(12, 15).every((r) => r.status === 200 || r.body.reason === 'TEAM_FULL'),
    ).toBe(true);
    expect(responses.slice(15).every((r) => r.status === 200)).toBe(true);

    const rows = await playerRows(t, match.id);
    const counts = await teamCounts(t, match.id);
    expect(rows).toHaveLength(6 + subscribed - 3);
    expect(new Set(rows.map((r) => r.userId)).size).toBe(rows.length);
    expect(counts.A).toBeLessThanOrEqual(4);
    expect(counts.B).toBeLessThanOrEqual(3);
  });

  it('lowering maxPlayers while players subscribe: the final capacity always holds the players', async () => {
    const author = await t.createUser();
    const match = await createMatch(t, author, { maxPlayers: 20 });
    const users = await createUsers(t, 12);
    const patch = t.request.patch(`/match/${match.id}`).set(author.auth).send({ maxPlayers: 6 });
    const [patched, ...subscribes] = await Promise.all([
      patch,
      ...users.map((u) => subscribe(t.request, match.id, u)),
    ]);

    expect([200, 409]).toContain(patched!.status);
    const [row] = await t.db.select().from(matches).where(eq(matches.id, match.id));
    const counts = await teamCounts(t, match.id);
    expect(row!.maxPlayers).toBe(patched!.status === 200 ? 6 : 20);
    expect(counts.A).toBeLessThanOrEqual(Math.ceil(row!.maxPlayers / 2));
    expect(counts.B).toBeLessThanOrEqual(Math.floor(row!.maxPlayers / 2));
    expect(counts.A + counts.B).toBe(subscribes.filter((r) => r.status === 201).length);
    if (patched!.status === 409) expect(patched!.body.reason).toBe('CAPACITY_BELOW_PLAYERS');
  });
});
