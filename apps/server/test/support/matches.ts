import { matchPlayers, matchWaitlist, matches } from '@campus/core';
import { asc, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApp, TestUser } from './app';

/** An ISO timestamp `days` from now (negative: in the past). */
export const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

export const matchBody = (author: TestUser, overrides: Record<string, unknown> = {}) => ({
  userId: author.id,
  title: 'Pelada de quinta',
  description: 'Futebol society',
  maxPlayers: 10,
  MatchDate: daysFromNow(7),
  location: 'Quadra 2',
  ...overrides,
});

/**
 * What a match made from `matchBody` answers before anyone changes it, to someone outside it (in
 * a toEqual): no sport, group or scores.
 */
export const newMatchFields = () => ({
  MatchStatus: 'EM_BREVE',
  location: 'Quadra 2',
  teamNameA: 'TIME_A',
  teamNameB: 'TIME_B',
  createdAt: expect.any(String),
  updatedAt: expect.any(String),
  isSubscriptionOpen: true,
  sport: null,
  groupId: null,
  group: null,
  groupVerified: false,
  teamAScore: null,
  teamBScore: null,
  myTeam: null,
  myWaitlistPosition: null,
});

/** POST /match as `author`; returns the created match body. */
export async function createMatch(
  t: TestApp,
  author: TestUser,
  overrides: Record<string, unknown> = {},
) {
  const res = await t.request.post('/match').set(author.auth).send(matchBody(author, overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; maxPlayers: number; [field: string]: unknown };
}

/**
 * A match inserted straight into the table, for states the API refuses to create (a MatchDate in
 * the past, a stored status).
 */
export async function insertMatch(
  t: TestApp,
  author: TestUser,
  values: Partial<typeof matches.$inferInsert> = {},
) {
  const [row] = await t.db
    .insert(matches)
    .values({
      title: 'Inserted match',
      authorId: author.id,
      maxPlayers: 10,
      matchDate: new Date(Date.now() + 86_400_000),
      location: 'Quadra 1',
      ...values,
    })
    .returning();
  return row!;
}

/** The rows of match_players of a match. */
export const playerRows = (t: TestApp, matchId: string) =>
  t.db.select().from(matchPlayers).where(eq(matchPlayers.matchId, matchId));

/** Players per team, counted in the table. */
export async function teamCounts(t: TestApp, matchId: string) {
  const rows = await playerRows(t, matchId);
  return {
    A: rows.filter((r) => r.team === 'A').length,
    B: rows.filter((r) => r.team === 'B').length,
  };
}

/** `n` distinct users (ATIVO, perfil ALUNO). */
export const createUsers = (t: TestApp, n: number) =>
  Promise.all(Array.from({ length: n }, () => t.createUser()));

/** The match's waiting list in the table, first in line first (user ids). */
export async function waitlistRows(t: TestApp, matchId: string) {
  const rows = await t.db
    .select()
    .from(matchWaitlist)
    .where(eq(matchWaitlist.matchId, matchId))
    .orderBy(asc(matchWaitlist.queuedAt), asc(matchWaitlist.id));
  return rows.map((r) => r.userId);
}

/**
 * Every invariant of a match's seats, checked in SQL: the counters equal the rows, no team over
 * its capacity, nobody twice, nobody both playing and waiting, nobody waiting beside a free spot
 * of an open match.
 */
export async function expectSeatInvariants(t: TestApp, matchId: string) {
  const result = await t.db.execute(sql`
    select m.max_players as "maxPlayers", m.players_a as "countedA", m.players_b as "countedB",
      (select count(*)::int from match_players p where p.match_id = m.id and p.team = 'A') as "a",
      (select count(*)::int from match_players p where p.match_id = m.id and p.team = 'B') as "b",
      (select count(*)::int from match_players p join match_waitlist w
         on w.match_id = p.match_id and w.user_id = p.user_id where p.match_id = m.id) as "both",
      (select count(*)::int from match_waitlist w where w.match_id = m.id) as "waiting"
    from matches m where m.id = ${matchId}`);
  const [row] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<
    Record<string, number>
  >;
  const { maxPlayers, countedA, countedB, a, b, both, waiting } = row!;
  expect({ countedA, countedB }).toEqual({ countedA: a, countedB: b });
  expect(a).toBeLessThanOrEqual(Math.ceil(maxPlayers! / 2));
  expect(b).toBeLessThanOrEqual(Math.floor(maxPlayers! / 2));
  expect(both).toBe(0);
  if (waiting! > 0) expect(a! + b!).toBe(maxPlayers);
  return { players: a! + b!, waiting: waiting! };
}
