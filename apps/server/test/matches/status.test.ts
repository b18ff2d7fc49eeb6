import { matches } from '@campus/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, type TestApp, type TestUser, onTestApp } from '../support/app';
import { createMatch, daysFromNow, insertMatch, playerRows } from '../support/matches';

/** The MatchStatus lifecycle of docs/contract/matches.md (Status) and what each status allows. */

let t: TestApp;
let author: TestUser;
onTestApp(async (app) => {
  t = app;
  author = await t.createUser();
});

type Status = 'EM_BREVE' | 'EM_ANDAMENTO' | 'FINALIZADA' | 'CANCELADA';
const setStatus = (id: string, user: TestUser, MatchStatus: string) =>
  t.request.patch(`/match/${id}`).set(user.auth).send({ MatchStatus });
const storedStatus = async (id: string) =>
  (await t.db.select().from(matches).where(eq(matches.id, id)))[0]!.status;
const future = () => new Date(daysFromNow(5));
const subscribe = (id: string, user: TestUser) =>
  t.request.post(`/match/${id}/subscribe`).set(user.auth);

describe('PATCH MatchStatus', () => {
  it.each([
    ['EM_BREVE', 'EM_ANDAMENTO'],
    ['EM_BREVE', 'CANCELADA'],
    ['EM_ANDAMENTO', 'FINALIZADA'],
  ] as const)('%s → %s: 200, stored and read', async (from, to) => {
    const row = await insertMatch(t, author, { status: from, matchDate: future() });
    const res = await setStatus(row.id, author, to);
    expect(res.status).toBe(200);
    expect(res.body.MatchStatus).toBe(to);
    expect(await storedStatus(row.id)).toBe(to);
    expect((await t.request.get(`/match/${row.id}`).set(author.auth)).body.MatchStatus).toBe(to);
  });

  it.each([
    ['EM_BREVE', 'FINALIZADA'],
    ['EM_ANDAMENTO', 'EM_BREVE'],
    ['EM_ANDAMENTO', 'CANCELADA'],
    ['FINALIZADA', 'EM_BREVE'],
    ['FINALIZADA', 'EM_ANDAMENTO'],
    ['FINALIZADA', 'CANCELADA'],
    ['CANCELADA', 'EM_BREVE'],
    ['CANCELADA', 'EM_ANDAMENTO'],
    ['CANCELADA', 'FINALIZADA'],
  ] as const)('%s → %s: 409 INVALID_TRANSITION, nothing changes', async (from, to) => {
    const row = await insertMatch(t, author, { status: from, matchDate: future() });
    const res = await t.request
      .patch(`/match/${row.id}`)
      .set(author.auth)
      .send({ MatchStatus: to, title: 'Not applied' });
    expect(expectError(res, 409, 'CONFLICT').reason).toBe('INVALID_TRANSITION');
    expect(await t.db.select().from(matches).where(eq(matches.id, row.id))).toEqual([row]);
  });

  it.each(['EM_BREVE', 'EM_ANDAMENTO', 'FINALIZADA', 'CANCELADA'] as const)(
    'setting the status a match already has (%s) is a no-op, not a transition',
    async (status: Status) => {
      const row = await insertMatch(t, author, { status, matchDate: future() });
      const res = await setStatus(row.id, author, status);
      expect(res.status).toBe(200);
      expect(res.body.MatchStatus).toBe(status);
    },
  );

  it('the full lifecycle over REST: EM_BREVE → EM_ANDAMENTO → FINALIZADA, then nothing more', async () => {
    const created = await createMatch(t, author);
    expect(created.MatchStatus).toBe('EM_BREVE');
    expect((await setStatus(created.id, author, 'EM_ANDAMENTO')).body.MatchStatus).toBe(
      'EM_ANDAMENTO',
    );
    expect((await setStatus(created.id, author, 'FINALIZADA')).body.MatchStatus).toBe('FINALIZADA');
    expectError(await setStatus(created.id, author, 'EM_BREVE'), 409, 'CONFLICT');
  });

  it.each([
    ['another user', 'other', 403],
    ['an ADMIN', 'admin', 200],
  ] as const)('permission: %s (%s) → %i', async (_who, who, status) => {
    const created = await createMatch(t, author);
    const caller = await t.createUser(who === 'admin' ? { perfil: 'ADMIN' } : {});
    const res = await setStatus(created.id, caller, 'CANCELADA');
    expect(res.status).toBe(status);
    expect(await storedStatus(created.id)).toBe(status === 200 ? 'CANCELADA' : 'EM_BREVE');
  });
});

describe('a match whose MatchDate has passed', () => {
  it('reads EM_ANDAMENTO (single read and list) while the row still says EM_BREVE; closed to subscriptions', async () => {
    const row = await insertMatch(t, author, { matchDate: new Date(daysFromNow(-0.01)) });
    expect(row.status).toBe('EM_BREVE');
    const read = await t.request.get(`/match/${row.id}`).set(author.auth);
    expect(read.body).toMatchObject({
      MatchStatus: 'EM_ANDAMENTO',
      isSubscriptionOpen: false,
      teamA: { isOpen: false },
      teamB: { isOpen: false },
    });
    const listed = await t.request.get('/match?status=EM_ANDAMENTO&limit=50').set(author.auth);
    expect(listed.body.data.map((m: { id: string }) => m.id)).toContain(row.id);
    const player = await t.createUser();
    expect(expectError(await subscribe(row.id, player), 403, 'FORBIDDEN').reason).toBe(
      'MATCH_STARTED',
    );
    expect(await storedStatus(row.id)).toBe('EM_BREVE');
  });

  it('transitions from the status it reads: → FINALIZADA allowed, → CANCELADA refused', async () => {
    const past = new Date(daysFromNow(-1));
    const toCancel = await insertMatch(t, author, { matchDate: past });
    expect(
      expectError(await setStatus(toCancel.id, author, 'CANCELADA'), 409, 'CONFLICT').reason,
    ).toBe('INVALID_TRANSITION');
    const toFinish = await insertMatch(t, author, { matchDate: past });
    expect((await setStatus(toFinish.id, author, 'FINALIZADA')).status).toBe(200);
    expect(await storedStatus(toFinish.id)).toBe('FINALIZADA');
    const confirmed = await insertMatch(t, author, { matchDate: past });
    expect((await setStatus(confirmed.id, author, 'EM_ANDAMENTO')).status).toBe(200);
    expect(await storedStatus(confirmed.id)).toBe('EM_ANDAMENTO');
  });

  it('its MatchDate can no longer move (409 MATCH_STARTED), other fields can', async () => {
    const row = await insertMatch(t, author, { matchDate: new Date(daysFromNow(-1)) });
    const moved = await t.request
      .patch(`/match/${row.id}`)
      .set(author.auth)
      .send({ MatchDate: daysFromNow(3) });
    expect(expectError(moved, 409, 'CONFLICT').reason).toBe('MATCH_STARTED');
    const renamed = await t.request
      .patch(`/match/${row.id}`)
      .set(author.auth)
      .send({ title: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.MatchStatus).toBe('EM_ANDAMENTO');
  });
});

describe('what each status allows', () => {
  it.each(['EM_ANDAMENTO', 'FINALIZADA', 'CANCELADA'] as const)(
    '%s with a future date: subscribe and switch 403 MATCH_STARTED; unsubscribe still 200',
    async (status) => {
      const created = await createMatch(t, author, { maxPlayers: 4 });
      const [inA, inB, late] = [await t.createUser(), await t.createUser(), await t.createUser()];
      await subscribe(created.id, inA).expect(201);
      await subscribe(created.id, inB).expect(201);
      await t.db.update(matches).set({ status }).where(eq(matches.id, created.id));

      const read = (await t.request.get(`/match/${created.id}`).set(author.auth)).body;
      expect(read).toMatchObject({
        MatchStatus: status,
        isSubscriptionOpen: false,
        teamA: { isOpen: false },
      });
      expect(expectError(await subscribe(created.id, late), 403, 'FORBIDDEN').reason).toBe(
        'MATCH_STARTED',
      );
      const switched = await t.request.post(`/match/${created.id}/switch`).set(inA.auth);
      expect(expectError(switched, 403, 'FORBIDDEN').reason).toBe('MATCH_STARTED');
      const left = await t.request.delete(`/match/${created.id}/unsubscribe`).set(inB.auth);
      expect(left.body).toEqual({ matchId: created.id, userId: inB.id, team: 'B' });
      expect((await playerRows(t, created.id)).map((r) => [r.userId, r.team])).toEqual([
        [inA.id, 'A'],
      ]);
    },
  );
});
