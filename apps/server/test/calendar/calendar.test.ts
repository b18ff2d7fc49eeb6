import ical, { type VEvent } from 'node-ical';
import { describe, expect, it } from 'vitest';
import { expectError, onTestAppWithUsers, UNKNOWN_ID } from '../support/app';
import { createEvent, createPost } from '../support/feed';
import { createMatch } from '../support/matches';

/**
 * "Adicionar à agenda" (docs/contract/matches.md, Reminders and calendar): each file is parsed back
 * with another library (node-ical) than the one that wrote it (ical-generator).
 */

const { t, users } = onTestAppWithUsers({}, {});
const [author, reader] = users;

/** The file's one VEVENT, parsed. */
function onlyEvent(text: string): VEvent {
  const events = Object.values(ical.sync.parseICS(text)).filter((c) => c?.type === 'VEVENT');
  expect(events).toHaveLength(1);
  return events[0] as VEvent;
}

describe('GET /match/:id/calendar.ics', () => {
  it('text/calendar with one VEVENT: stable UID, UTC start, two hours, place and teams', async () => {
    const match = await createMatch(t, author!, {
      title: 'Racha de sexta',
      MatchDate: '2036-05-02T21:30:00Z',
      location: 'Ginásio',
      sport: 'FUTSAL',
    });
    const res = await t.request.get(`/match/${match.id}/calendar.ics`).set(reader!.auth);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.text).toMatch(/^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\n/);
    expect(res.text).toContain('DTSTART:20360502T213000Z');
    const event = onlyEvent(res.text);
    expect(event.uid).toBe(`match-${match.id}@campus-api`);
    expect(event.summary).toBe('Racha de sexta');
    expect(event.location).toBe('Ginásio');
    expect(event.start.toISOString()).toBe('2036-05-02T21:30:00.000Z');
    expect(event.end?.toISOString()).toBe('2036-05-02T23:30:00.000Z');
    // The default team names as a person reads them, never the API's codes.
    expect(event.description).toContain('Futsal · Time A × Time B');
    expect(res.text).not.toContain('TIME_A');
    const again = await t.request.get(`/match/${match.id}/calendar.ics`).set(author!.auth);
    expect(again.text).toBe(res.text);
  });

  it('a cancelled match says STATUS:CANCELLED; 404 unknown, 400 bad id, 401 without a token', async () => {
    const match = await createMatch(t, author!);
    await t.request
      .patch(`/match/${match.id}`)
      .set(author!.auth)
      .send({ MatchStatus: 'CANCELADA' })
      .expect(200);
    const res = await t.request.get(`/match/${match.id}/calendar.ics`).set(author!.auth);
    expect(onlyEvent(res.text).status).toBe('CANCELLED');
    expectError(
      await t.request.get(`/match/${UNKNOWN_ID}/calendar.ics`).set(author!.auth),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.request.get('/match/nope/calendar.ics').set(author!.auth),
      400,
      'BAD_REQUEST',
    );
    expectError(await t.request.get(`/match/${match.id}/calendar.ics`), 401, 'UNAUTHORIZED');
  });
});

describe('GET /post/:id/calendar.ics', () => {
  it('an EVENT post: its dates in UTC, its place, its title', async () => {
    const post = await createEvent(t, author!);
    const res = await t.request.get(`/post/${post.id}/calendar.ics`).set(reader!.auth);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const event = onlyEvent(res.text);
    expect(event.uid).toBe(`post-${post.id}@campus-api`);
    expect(event.summary).toBe('Campus cup final');
    expect(event.location).toBe('Main stadium');
    expect(event.start.toISOString()).toBe('2031-05-10T18:00:00.000Z');
    expect(event.end?.toISOString()).toBe('2031-05-10T20:00:00.000Z');
  });

  it('400 NOT_AN_EVENT for a GENERAL post, 404 for an unknown one', async () => {
    const post = await createPost(t, author!);
    const res = await t.request.get(`/post/${post.id}/calendar.ics`).set(reader!.auth);
    expect(expectError(res, 400, 'BAD_REQUEST').reason).toBe('NOT_AN_EVENT');
    expectError(
      await t.request.get(`/post/${UNKNOWN_ID}/calendar.ics`).set(reader!.auth),
      404,
      'NOT_FOUND',
    );
  });
});
