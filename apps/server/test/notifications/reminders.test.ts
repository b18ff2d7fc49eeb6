import { matchPlayers, matches, notificationJobs, notifications } from '@campus/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../support/app';
import { createEvent } from '../support/feed';
import { createMatch, insertMatch } from '../support/matches';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const inHours = (hours: number) => new Date(Date.now() + hours * 3600_000);
const sweep = () => notificationJobs['reminders-sweep'].handler(t.services);
const remindersOf = (
  user: TestUser,
  type: 'MATCH_REMINDER' | 'EVENT_REMINDER' = 'MATCH_REMINDER',
) =>
  t.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, user.id), eq(notifications.type, type)));
const join = (matchId: string, users: TestUser[]) =>
  t.db
    .insert(matchPlayers)
    .values(users.map((u, i) => ({ matchId, userId: u.id, team: i % 2 ? 'B' : 'A' }) as const));

describe('MATCH_REMINDER and EVENT_REMINDER (REMINDER_LEAD 2 h)', () => {
  it('a due match reminds each player once, however many sweeps run at once', async () => {
    const organiser = await t.createUser();
    const players = [await t.createUser(), await t.createUser(), await t.createUser()];
    const due = await insertMatch(t, organiser, {
      matchDate: inHours(1.5),
      title: 'Racha das seis',
    });
    const later = await insertMatch(t, organiser, { matchDate: inHours(3) });
    const cancelled = await insertMatch(t, organiser, {
      matchDate: inHours(1),
      status: 'CANCELADA',
    });
    const past = await insertMatch(t, organiser, { matchDate: inHours(-0.5) });
    for (const match of [due, later, cancelled, past]) await join(match.id, players);

    const written = await Promise.all(Array.from({ length: 8 }, () => sweep()));
    expect(written.reduce((a, b) => a + b, 0)).toBe(3);
    expect(await sweep()).toBe(0);
    for (const player of players) {
      const rows = await remindersOf(player);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.data).toEqual({ matchId: due.id });
      expect(rows[0]!.message).toMatch(
        /^Lembrete: a partida “Racha das seis” começa em \d\d\/\d\d às \d\d:\d\d$/,
      );
    }
    expect(await remindersOf(organiser)).toHaveLength(0);
  });

  it('joining a match inside the lead time reminds at once; moving it reminds for the new date', async () => {
    const organiser = await t.createUser();
    const player = await t.createUser();
    const match = await createMatch(t, organiser, { MatchDate: inHours(1).toISOString() });
    expect((await t.request.post(`/match/${match.id}/subscribe`).set(player.auth)).status).toBe(
      201,
    );
    expect(await remindersOf(player)).toHaveLength(1);

    const far = await createMatch(t, organiser, { MatchDate: inHours(30).toISOString() });
    await t.request.post(`/match/${far.id}/subscribe`).set(player.auth);
    expect(await remindersOf(player)).toHaveLength(1);
    const moved = await t.request
      .patch(`/match/${far.id}`)
      .set(organiser.auth)
      .send({ MatchDate: inHours(1).toISOString() });
    expect(moved.status).toBe(200);
    expect((await remindersOf(player)).map((r) => r.data.matchId).sort()).toEqual(
      [match.id, far.id].sort(),
    );
    // Moved again after its reminder: one more, for the new time; never twice for one date.
    await t.request
      .patch(`/match/${far.id}`)
      .set(organiser.auth)
      .send({ MatchDate: inHours(1.5).toISOString() });
    await sweep();
    expect((await remindersOf(player)).filter((r) => r.data.matchId === far.id)).toHaveLength(2);
  });

  it('a cancelled match reminds nobody', async () => {
    const organiser = await t.createUser();
    const player = await t.createUser();
    const match = await createMatch(t, organiser, { MatchDate: inHours(30).toISOString() });
    await t.request.post(`/match/${match.id}/subscribe`).set(player.auth);
    await t.request
      .patch(`/match/${match.id}`)
      .set(organiser.auth)
      .send({ MatchStatus: 'CANCELADA' });
    // Its date falls inside the lead time now (stored directly: a cancelled match cannot move).
    await t.db
      .update(matches)
      .set({ matchDate: inHours(1) })
      .where(eq(matches.id, match.id));
    await sweep();
    expect(await remindersOf(player)).toHaveLength(0);
  });

  it('an event reminds its attendees, at once for one attended inside the lead time', async () => {
    const author = await t.createUser();
    const attendee = await t.createUser();
    const soon = await createEvent(t, author, {
      eventDate: inHours(1).toISOString(),
      eventFinishDate: inHours(3).toISOString(),
      title: 'Calourada',
    });
    expect((await t.request.post(`/post/${soon.id}/attendance`).set(attendee.auth)).status).toBe(
      201,
    );
    const rows = await remindersOf(attendee, 'EVENT_REMINDER');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.data).toEqual({ postId: soon.id });
    expect(rows[0]!.message).toMatch(/^Lembrete: o evento “Calourada” começa em /);
    await sweep();
    expect(await remindersOf(attendee, 'EVENT_REMINDER')).toHaveLength(1);
  });
});
