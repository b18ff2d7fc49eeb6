import { matchPlayers, matches } from '@campus/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, onTestAppWithUsers, UNKNOWN_ID, postRaw } from '../support/app';
import { createMatch, daysFromNow, matchBody, newMatchFields } from '../support/matches';

const {
  t,
  users: [author],
} = onTestAppWithUsers({});

const countMatches = async () => (await t.db.select().from(matches)).length;

describe('POST /match', () => {
  it('201 with the whole Match: EM_BREVE, no players, teams split ceil/floor, default team names', async () => {
    const MatchDate = daysFromNow(3);
    const res = await t.request
      .post('/match')
      .set(author.auth)
      .send(matchBody(author, { maxPlayers: 11, MatchDate }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: 'Pelada de quinta',
      description: 'Futebol society',
      author: { id: author.id, name: author.nome, userName: author.nickname, avatarUrl: null },
      authorId: author.id,
      maxPlayers: 11,
      players: [],
      MatchDate,
      ...newMatchFields(),
      spots: { totalMax: 11, totalFilled: 0 },
      teamA: { name: 'TIME_A', max: 6, filled: 0, isOpen: true, players: [] },
      teamB: { name: 'TIME_B', max: 5, filled: 0, isOpen: true, players: [] },
      waitlist: [],
    });
    const [row] = await t.db.select().from(matches).where(eq(matches.id, res.body.id));
    expect(row).toMatchObject({
      authorId: author.id,
      maxPlayers: 11,
      status: 'EM_BREVE',
      matchDate: new Date(MatchDate),
    });
  });

  it('trims text, keeps given team names, leaves description out when not sent; trailing slash works', async () => {
    const { description: _, ...body } = matchBody(author, {
      title: '  Vôlei  ',
      teamNameA: 'Azul',
      teamNameB: 'Verde',
    });
    const res = await t.request.post('/match/').set(author.auth).send(body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Vôlei',
      teamNameA: 'Azul',
      teamNameB: 'Verde',
      teamA: { name: 'Azul' },
    });
    expect(res.body).not.toHaveProperty('description');
  });

  it('accepts a MatchDate with an offset and answers it in UTC', async () => {
    const res = await t.request
      .post('/match')
      .set(author.auth)
      .send(matchBody(author, { MatchDate: '2099-05-01T18:00:00-03:00' }));
    expect(res.status).toBe(201);
    expect(res.body.MatchDate).toBe('2099-05-01T21:00:00.000Z');
  });

  it.each([
    ['title missing', { title: undefined }, 'title'],
    ['title shorter than 3', { title: 'ab' }, 'title'],
    ['title of spaces', { title: '     ' }, 'title'],
    ['title longer than 120', { title: 'a'.repeat(121) }, 'title'],
    ['description shorter than 2', { description: 'a' }, 'description'],
    ['description longer than 1000', { description: 'a'.repeat(1001) }, 'description'],
    ['maxPlayers missing', { maxPlayers: undefined }, 'maxPlayers'],
    ['maxPlayers 1', { maxPlayers: 1 }, 'maxPlayers'],
    ['maxPlayers 101', { maxPlayers: 101 }, 'maxPlayers'],
    ['maxPlayers not an integer', { maxPlayers: 2.5 }, 'maxPlayers'],
    ['maxPlayers not a number', { maxPlayers: 'ten' }, 'maxPlayers'],
    ['MatchDate missing', { MatchDate: undefined }, 'MatchDate'],
    ['MatchDate in the past', { MatchDate: daysFromNow(-1) }, 'MatchDate'],
    ['MatchDate not a timestamp', { MatchDate: 'next friday' }, 'MatchDate'],
    ['MatchDate without a time', { MatchDate: '2099-01-01' }, 'MatchDate'],
    ['location missing', { location: undefined }, 'location'],
    ['location empty', { location: '' }, 'location'],
    ['location longer than 200', { location: 'a'.repeat(201) }, 'location'],
    ['teamNameA empty', { teamNameA: '' }, 'teamNameA'],
    ['teamNameB longer than 50', { teamNameB: 'b'.repeat(51) }, 'teamNameB'],
    ['userId missing', { userId: undefined }, 'userId'],
    ['userId not a UUID', { userId: 'abc' }, 'userId'],
  ])('400 when %s, nothing written', async (_case, overrides, path) => {
    const before = await countMatches();
    const res = await t.request.post('/match').set(author.auth).send(matchBody(author, overrides));
    expect(expectError(res, 400, 'BAD_REQUEST').issues).toEqual([
      expect.objectContaining({ path }),
    ]);
    expect(await countMatches()).toBe(before);
  });

  it('400 for malformed JSON, 415 for a body that is not JSON', async () => {
    const bad = postRaw(t, '/match', author, 'application/json', '{"title":');
    expectError(await bad, 400, 'BAD_REQUEST');
    const text = postRaw(t, '/match', author, 'text/plain', 'hello');
    expectError(await text, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('401 without a token or with a bad one', async () => {
    expectError(await t.request.post('/match').send(matchBody(author)), 401, 'UNAUTHORIZED');
    const res = await t.request
      .post('/match')
      .set('Authorization', 'Bearer nope')
      .send(matchBody(author));
    expectError(res, 401, 'UNAUTHORIZED');
  });

  it('403 NOT_OWNER when a non-admin creates for another user (existing or not), nothing written', async () => {
    const other = await t.createUser();
    const before = await countMatches();
    for (const userId of [other.id, UNKNOWN_ID]) {
      const res = await t.request
        .post('/match')
        .set(author.auth)
        .send(matchBody(author, { userId }));
      expect(expectError(res, 403, 'FORBIDDEN').reason).toBe('NOT_OWNER');
    }
    expect(await countMatches()).toBe(before);
  });

  it('an ADMIN creates for another user, who becomes the author; 404 for an unknown user', async () => {
    const admin = await t.createUser({ perfil: 'ADMIN' });
    const other = await t.createUser();
    const res = await t.request.post('/match').set(admin.auth).send(matchBody(other));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      authorId: other.id,
      author: { id: other.id, userName: other.nickname },
    });
    const missing = await t.request
      .post('/match')
      .set(admin.auth)
      .send(matchBody(admin, { userId: UNKNOWN_ID }));
    expectError(missing, 404, 'NOT_FOUND');
  });
});

describe('GET /match/:id', () => {
  it('200 with the same Match that create answered', async () => {
    const created = await createMatch(t, author);
    const res = await t.request.get(`/match/${created.id}`).set(author.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });

  it('404 for an unknown id, 400 for an id that is not a UUID, 401 without a token', async () => {
    expectError(await t.request.get(`/match/${UNKNOWN_ID}`).set(author.auth), 404, 'NOT_FOUND');
    const bad = expectError(
      await t.request.get('/match/not-a-uuid').set(author.auth),
      400,
      'BAD_REQUEST',
    );
    expect(bad.issues).toEqual([expect.objectContaining({ path: 'id' })]);
    expectError(await t.request.get(`/match/${UNKNOWN_ID}`), 401, 'UNAUTHORIZED');
  });

  it('is served over /trpc too', async () => {
    const created = await createMatch(t, author);
    const input = encodeURIComponent(JSON.stringify({ id: created.id }));
    const res = await t.request.get(`/trpc/matches.get?input=${input}`).set(author.auth);
    expect(res.body.result.data).toEqual(created);
  });
});

describe('DELETE /match/:id', () => {
  it('204 with no body; the match and its subscriptions are gone', async () => {
    const created = await createMatch(t, author);
    const player = await t.createUser();
    await t.request.post(`/match/${created.id}/subscribe`).set(player.auth).expect(201);
    const res = await t.request.delete(`/match/${created.id}`).set(author.auth);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await t.db.select().from(matches).where(eq(matches.id, created.id))).toEqual([]);
    expect(
      await t.db.select().from(matchPlayers).where(eq(matchPlayers.matchId, created.id)),
    ).toEqual([]);
    expectError(await t.request.get(`/match/${created.id}`).set(author.auth), 404, 'NOT_FOUND');
    expectError(await t.request.delete(`/match/${created.id}`).set(author.auth), 404, 'NOT_FOUND');
  });

  it.each([
    ['the author', 'author', 204],
    ['another user', 'other', 403],
    ['an ADMIN', 'admin', 204],
  ] as const)('permission: %s (%s) → %i', async (_who, who, status) => {
    const created = await createMatch(t, author);
    const caller =
      who === 'author' ? author : await t.createUser(who === 'admin' ? { perfil: 'ADMIN' } : {});
    const res = await t.request.delete(`/match/${created.id}`).set(caller.auth);
    expect(res.status).toBe(status);
    if (status === 403) expect(expectError(res, 403, 'FORBIDDEN').reason).toBe('NOT_OWNER');
    const rows = await t.db.select().from(matches).where(eq(matches.id, created.id));
    expect(rows).toHaveLength(status === 204 ? 0 : 1);
  });

  it('404 for an unknown id, 400 for an id that is not a UUID, 401 without a token', async () => {
    expectError(await t.request.delete(`/match/${UNKNOWN_ID}`).set(author.auth), 404, 'NOT_FOUND');
    expectError(await t.request.delete('/match/123').set(author.auth), 400, 'BAD_REQUEST');
    expectError(await t.request.delete(`/match/${UNKNOWN_ID}`), 401, 'UNAUTHORIZED');
  });
});

describe('the OpenAPI document', () => {
  it('lists the eight match operations with their success statuses', async () => {
    const doc = (await t.request.get('/openapi.json')).body;
    expect(Object.keys(doc.paths['/match'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(doc.paths['/match/{id}'])).toEqual(
      expect.arrayContaining(['get', 'patch', 'delete']),
    );
    expect(doc.paths['/match'].post.responses).toHaveProperty('201');
    expect(doc.paths['/match/{id}'].delete.responses).toHaveProperty('204');
    expect(doc.paths['/match/{id}/subscribe'].post.responses).toHaveProperty('201');
    expect(doc.paths['/match/{id}/unsubscribe'].delete.responses).toHaveProperty('200');
    expect(doc.paths['/match/{id}/switch'].post.responses).toHaveProperty('200');
  });
});
