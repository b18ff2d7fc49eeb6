import { describe, expect, it } from 'vitest';
import { expectError, type TestApp, type TestUser, onTestApp, UNKNOWN_ID } from '../support/app';
import { createMatch, createUsers, playerRows, teamCounts } from '../support/matches';

let t: TestApp;
let author: TestUser;
onTestApp(async (app) => {
  t = app;
  author = await t.createUser();
});

const subscribe = (id: string, user: TestUser) =>
  t.request.post(`/match/${id}/subscribe`).set(user.auth);
const unsubscribe = (id: string, user: TestUser) =>
  t.request.delete(`/match/${id}/unsubscribe`).set(user.auth);
const switchTeam = (id: string, user: TestUser) =>
  t.request.post(`/match/${id}/switch`).set(user.auth);

describe('POST /match/:id/subscribe', () => {
  it('201 {matchId, userId, team, teamName, subscribedAt}; the row is in match_players', async () => {
    const match = await createMatch(t, author, { teamNameA: 'Azul' });
    const player = await t.createUser();
    const res = await subscribe(match.id, player);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      matchId: match.id,
      userId: player.id,
      team: 'A',
      teamName: 'Azul',
      subscribedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const rows = await playerRows(t, match.id);
    expect(rows).toEqual([
      expect.objectContaining({
        userId: player.id,
        team: 'A',
        subscribedAt: new Date(res.body.subscribedAt),
      }),
    ]);
  });

  it('places players A, B, A, B, … and a newcomer in the team with fewer players', async () => {
    const match = await createMatch(t, author, { maxPlayers: 10, teamNameB: 'Verde' });
    const users = await createUsers(t, 6);
    const placed = [];
    for (const u of users) placed.push((await subscribe(match.id, u)).body);
    expect(placed.map((p) => p.team)).toEqual(['A', 'B', 'A', 'B', 'A', 'B']);
    expect(placed[1].teamName).toBe('Verde');
    // Two leave team A: it has fewer players now, so the next two go to A, then a tie goes to A.
    await unsubscribe(match.id, users[0]!).expect(200);
    await unsubscribe(match.id, users[2]!).expect(200);
    const late = await createUsers(t, 3);
    const next = [];
    for (const u of late) next.push((await subscribe(match.id, u)).body.team);
    expect(next).toEqual(['A', 'A', 'A']);
    expect(await teamCounts(t, match.id)).toEqual({ A: 4, B: 3 });
  });

  it('an odd maxPlayers gives team A the extra spot: 3 → A, B, A, then 403 MATCH_FULL', async () => {
    const match = await createMatch(t, author, { maxPlayers: 3 });
    const users = await createUsers(t, 4);
    const answers = [];
    for (const u of users) answers.push(await subscribe(match.id, u));
    expect(answers.slice(0, 3).map((r) => r.body.team)).toEqual(['A', 'B', 'A']);
    expect(expectError(answers[3]!, 403, 'FORBIDDEN').reason).toBe('MATCH_FULL');
    expect(await playerRows(t, match.id)).toHaveLength(3);
  });

  it('409 ALREADY_SUBSCRIBED the second time; still one row', async () => {
    const match = await createMatch(t, author);
    const player = await t.createUser();
    await subscribe(match.id, player).expect(201);
    expect(expectError(await subscribe(match.id, player), 409, 'CONFLICT').reason).toBe(
      'ALREADY_SUBSCRIBED',
    );
    expect(await playerRows(t, match.id)).toHaveLength(1);
  });

  it('takes no body, but an empty JSON body is fine too', async () => {
    const match = await createMatch(t, author);
    const [one, two] = await createUsers(t, 2);
    expect((await subscribe(match.id, one!)).status).toBe(201);
    expect((await subscribe(match.id, two!).send({})).status).toBe(201);
  });

  it('404 for an unknown match, 400 for an id that is not a UUID, 401 without a token', async () => {
    expectError(await subscribe(UNKNOWN_ID, author), 404, 'NOT_FOUND');
    expectError(await subscribe('abc', author), 400, 'BAD_REQUEST');
    expectError(await t.request.post(`/match/${UNKNOWN_ID}/subscribe`), 401, 'UNAUTHORIZED');
  });

  it('is served over /trpc too', async () => {
    const match = await createMatch(t, author);
    const player = await t.createUser();
    const res = await t.request
      .post('/trpc/matches.subscribe')
      .set(player.auth)
      .send({ id: match.id });
    expect(res.body.result.data).toMatchObject({ matchId: match.id, userId: player.id, team: 'A' });
  });
});

describe('GET /match/:id with players', () => {
  it('lists players in subscription order and each team with its players, max, filled and isOpen', async () => {
    const match = await createMatch(t, author, { maxPlayers: 3 });
    const [first, second] = await createUsers(t, 2);
    const a = (await subscribe(match.id, first!)).body;
    const b = (await subscribe(match.id, second!)).body;
    const res = await t.request.get(`/match/${match.id}`).set(author.auth);
    const ref = (u: TestUser) => ({ id: u.id, name: u.nome, userName: u.nickname });
    expect(res.body).toMatchObject({
      players: [
        { ...ref(first!), team: 'A', subscribedAt: a.subscribedAt },
        { ...ref(second!), team: 'B', subscribedAt: b.subscribedAt },
      ],
      isSubscriptionOpen: true,
      spots: { totalMax: 3, totalFilled: 2 },
      teamA: { name: 'TIME_A', max: 2, filled: 1, isOpen: true, players: [ref(first!)] },
      teamB: { name: 'TIME_B', max: 1, filled: 1, isOpen: false, players: [ref(second!)] },
    });
  });
});

describe('DELETE /match/:id/unsubscribe', () => {
  it('200 {matchId, userId, team}; the row is gone and the spot is free again', async () => {
    const match = await createMatch(t, author, { maxPlayers: 2 });
    const [one, two, three] = await createUsers(t, 3);
    await subscribe(match.id, one!).expect(201);
    await subscribe(match.id, two!).expect(201);
    expectError(await subscribe(match.id, three!), 403, 'FORBIDDEN');
    const res = await unsubscribe(match.id, two!);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ matchId: match.id, userId: two!.id, team: 'B' });
    expect((await playerRows(t, match.id)).map((r) => r.userId)).toEqual([one!.id]);
    expect((await subscribe(match.id, three!)).body.team).toBe('B');
  });

  it('404 when not subscribed or the match is unknown, 400 for a bad id, 401 without a token', async () => {
    const match = await createMatch(t, author);
    const player = await t.createUser();
    expectError(await unsubscribe(match.id, player), 404, 'NOT_FOUND');
    await subscribe(match.id, player).expect(201);
    await unsubscribe(match.id, player).expect(200);
    expectError(await unsubscribe(match.id, player), 404, 'NOT_FOUND');
    expectError(await unsubscribe(UNKNOWN_ID, player), 404, 'NOT_FOUND');
    expectError(await unsubscribe('x', player), 400, 'BAD_REQUEST');
    expectError(await t.request.delete(`/match/${match.id}/unsubscribe`), 401, 'UNAUTHORIZED');
  });
});

describe('POST /match/:id/switch', () => {
  it('200 {matchId, userId, team} with the new team, there and back; the row follows', async () => {
    const match = await createMatch(t, author, { maxPlayers: 4 });
    const player = await t.createUser();
    await subscribe(match.id, player).expect(201);
    const res = await switchTeam(match.id, player);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ matchId: match.id, userId: player.id, team: 'B' });
    expect((await playerRows(t, match.id))[0]!.team).toBe('B');
    expect((await switchTeam(match.id, player)).body.team).toBe('A');
    expect((await playerRows(t, match.id))[0]!.team).toBe('A');
  });

  it('403 TEAM_FULL when the other team is full; nothing moves', async () => {
    const match = await createMatch(t, author, { maxPlayers: 2 });
    const [inA, inB] = await createUsers(t, 2);
    await subscribe(match.id, inA!).expect(201);
    await subscribe(match.id, inB!).expect(201);
    expect(expectError(await switchTeam(match.id, inA!), 403, 'FORBIDDEN').reason).toBe(
      'TEAM_FULL',
    );
    expect(expectError(await switchTeam(match.id, inB!), 403, 'FORBIDDEN').reason).toBe(
      'TEAM_FULL',
    );
    expect(await teamCounts(t, match.id)).toEqual({ A: 1, B: 1 });
  });

  it('404 when not subscribed or the match is unknown, 400 for a bad id, 401 without a token', async () => {
    const match = await createMatch(t, author);
    const player = await t.createUser();
    expectError(await switchTeam(match.id, player), 404, 'NOT_FOUND');
    expectError(await switchTeam(UNKNOWN_ID, player), 404, 'NOT_FOUND');
    expectError(await switchTeam('x', player), 400, 'BAD_REQUEST');
    expectError(await t.request.post(`/match/${match.id}/switch`), 401, 'UNAUTHORIZED');
  });
});
