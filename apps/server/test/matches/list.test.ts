import { matches, rowCounts } from '@campus/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, type TestApp, type TestUser, onTestApp } from '../support/app';
import { createMatch, daysFromNow, insertMatch, newMatchFields } from '../support/matches';

/** A database of its own: every match of this file is known, so totals and orders are exact. */
let t: TestApp;
let author: TestUser;
const ids: Record<string, string> = {};
onTestApp(async (app) => {
  t = app;
  author = await t.createUser();
  // Created out of date order; two share a date (ordered by id then).
  ids.day5 = (
    await createMatch(t, author, { title: 'Day 5', MatchDate: daysFromNow(5), maxPlayers: 4 })
  ).id;
  ids.day2 = (await createMatch(t, author, { title: 'Day 2', MatchDate: daysFromNow(2) })).id;
  const sameDate = daysFromNow(9);
  ids.day9a = (await createMatch(t, author, { title: 'Day 9 a', MatchDate: sameDate })).id;
  ids.day9b = (await createMatch(t, author, { title: 'Day 9 b', MatchDate: sameDate })).id;
  ids.cancelled = (
    await insertMatch(t, author, {
      title: 'Cancelled',
      status: 'CANCELADA',
      matchDate: new Date(daysFromNow(3)),
    })
  ).id;
  ids.started = (
    await insertMatch(t, author, { title: 'Past date', matchDate: new Date(daysFromNow(-1)) })
  ).id;
  ids.explicit = (
    await insertMatch(t, author, {
      title: 'Started early',
      status: 'EM_ANDAMENTO',
      matchDate: new Date(daysFromNow(1)),
    })
  ).id;
  ids.finished = (
    await insertMatch(t, author, {
      title: 'Finished',
      status: 'FINALIZADA',
      matchDate: new Date(daysFromNow(-3)),
    })
  ).id;
});

const list = (query = '') => t.request.get(`/match${query}`).set(author.auth);
const titles = (body: { data: { title: string }[] }) => body.data.map((m) => m.title);

describe('GET /match', () => {
  it('orders by MatchDate ascending, then id, with meta and the row_counts total', async () => {
    const res = await list('?limit=50');
    expect(res.status).toBe(200);
    const [nineA, nineB] = [ids.day9a!, ids.day9b!].sort();
    expect(res.body.data.map((m: { id: string }) => m.id)).toEqual([
      ids.finished,
      ids.started,
      ids.explicit,
      ids.day2,
      ids.cancelled,
      ids.day5,
      nineA,
      nineB,
    ]);
    expect(res.body.meta).toEqual({
      page: 1,
      limit: 50,
      totalCount: 8,
      totalPages: 1,
      hasNextPage: false,
      hasPrevPage: false,
      nextCursor: null,
    });
    const [counted] = await t.db.select().from(rowCounts).where(eq(rowCounts.tableName, 'matches'));
    expect(counted!.rowCount).toBe(8);
  });

  it('list items: the Match fields with isSubscriptionOpen, the players (as the single read) and spots {filled, open}; no teams', async () => {
    const player = await t.createUser();
    await t.request.post(`/match/${ids.day5}/subscribe`).set(player.auth).expect(201);
    const single = (await t.request.get(`/match/${ids.day5}`).set(author.auth).expect(200)).body;
    const item = (await list('?limit=50')).body.data.find((m: { id: string }) => m.id === ids.day5);
    expect(item).toEqual({
      id: ids.day5,
      title: 'Day 5',
      description: 'Futebol society',
      author: { id: author.id, name: author.nome, userName: author.nickname, avatarUrl: null },
      authorId: author.id,
      maxPlayers: 4,
      MatchDate: expect.any(String),
      ...newMatchFields(),
      players: [
        {
          id: player.id,
          name: player.nome,
          userName: player.nickname,
          avatarUrl: null,
          team: 'A',
          subscribedAt: expect.any(String),
        },
      ],
      spots: { filled: 1, open: 3 },
      waitlistCount: 0,
    });
    expect(item.players).toEqual(single.players);
    await t.request.delete(`/match/${ids.day5}/unsubscribe`).set(player.auth).expect(200);
  });

  it('shows the status as it reads now and opens subscriptions only for EM_BREVE in the future', async () => {
    const byTitle = Object.fromEntries(
      (await list('?limit=50')).body.data.map(
        (m: { title: string; MatchStatus: string; isSubscriptionOpen: boolean }) => [
          m.title,
          [m.MatchStatus, m.isSubscriptionOpen],
        ],
      ),
    );
    expect(byTitle).toEqual({
      'Day 2': ['EM_BREVE', true],
      'Day 5': ['EM_BREVE', true],
      'Day 9 a': ['EM_BREVE', true],
      'Day 9 b': ['EM_BREVE', true],
      Cancelled: ['CANCELADA', false],
      'Past date': ['EM_ANDAMENTO', false],
      'Started early': ['EM_ANDAMENTO', false],
      Finished: ['FINALIZADA', false],
    });
  });

  it.each([
    ['EM_BREVE', ['Day 2', 'Day 5', 'Day 9 a', 'Day 9 b']],
    ['EM_ANDAMENTO', ['Past date', 'Started early']],
    ['CANCELADA', ['Cancelled']],
    ['FINALIZADA', ['Finished']],
  ])('filters by status %s (as it reads now) with a counted total', async (status, expected) => {
    const res = await list(`?status=${status}&limit=50`);
    expect(res.status).toBe(200);
    expect([...titles(res.body)].sort()).toEqual([...expected].sort());
    expect(res.body.data.every((m: { MatchStatus: string }) => m.MatchStatus === status)).toBe(
      true,
    );
    expect(res.body.meta.totalCount).toBe(expected.length);
  });

  it('pages: defaults, a middle page, the last page, past the end, and a filtered page', async () => {
    const defaults = await list();
    expect(defaults.body.meta).toMatchObject({ page: 1, limit: 10, totalCount: 8, totalPages: 1 });
    const second = await list('?page=2&limit=3');
    expect(titles(second.body)).toEqual(['Day 2', 'Cancelled', 'Day 5']);
    expect(second.body.meta).toEqual({
      page: 2,
      limit: 3,
      totalCount: 8,
      totalPages: 3,
      hasNextPage: true,
      hasPrevPage: true,
      nextCursor: expect.any(String),
    });
    const last = await list('?page=3&limit=3');
    expect(last.body.data).toHaveLength(2);
    expect(last.body.meta).toMatchObject({ hasNextPage: false, hasPrevPage: true });
    const past = await list('?page=9&limit=3');
    expect(past.body.data).toEqual([]);
    const filtered = await list('?status=EM_BREVE&page=2&limit=3');
    expect(titles(filtered.body)).toHaveLength(1);
    expect(filtered.body.meta).toEqual({
      page: 2,
      limit: 3,
      totalCount: 4,
      totalPages: 2,
      hasNextPage: false,
      hasPrevPage: true,
      nextCursor: null,
    });
  });

  it('a deleted match leaves the list and the total', async () => {
    const extra = await createMatch(t, author, { title: 'Short lived' });
    expect((await list()).body.meta.totalCount).toBe(9);
    await t.request.delete(`/match/${extra.id}`).set(author.auth).expect(204);
    expect((await list()).body.meta.totalCount).toBe(8);
    expect(await t.db.select().from(matches).where(eq(matches.id, extra.id))).toEqual([]);
  });

  it.each([
    'limit=51',
    'limit=0',
    'limit=abc',
    'limit=2.5',
    'page=0',
    'page=-1',
    'status=OPEN',
    'status=em_breve',
  ])('400 for %s', async (query) => {
    expectError(await list(`?${query}`), 400, 'BAD_REQUEST');
  });

  it('accepts limit=50 and a trailing slash; 401 without a token', async () => {
    expect((await t.request.get('/match/?limit=50').set(author.auth)).status).toBe(200);
    expectError(await t.request.get('/match'), 401, 'UNAUTHORIZED');
  });
});
