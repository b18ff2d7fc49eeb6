import ical, { ICalEventStatus } from 'ical-generator';
import type { Actor } from '../common/actor';
import { AppError } from '../errors';
import type { Post } from '../feed/schemas';
import type { Match } from '../matches/schemas';
import { SPORT_NAMES } from '../matches/schemas';

/** How long an event without an end is shown to last (a match has no end; most games take this). */
export const DEFAULT_DURATION_MS = 2 * 60 * 60 * 1000;

/** The host part of every UID: stable for the life of the service, so a re-import updates. */
const UID_DOMAIN = 'campus-api';

interface CalendarEvent {
  uid: string;
  start: Date;
  end: Date;
  summary: string;
  description?: string | undefined;
  location: string;
  /** When this version of the thing was written: DTSTAMP, so the same state gives the same file. */
  stamp: Date;
  cancelled?: boolean;
}

/** One VEVENT in one VCALENDAR (RFC 5545), times in UTC. */
function calendarOf(event: CalendarEvent): string {
  const calendar = ical({ prodId: { company: 'Campus', product: 'Campus API', language: 'PT' } });
  calendar.createEvent({
    id: event.uid,
    start: event.start,
    end: event.end,
    stamp: event.stamp,
    summary: event.summary,
    description: event.description ?? null,
    location: event.location,
    status: event.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  return calendar.toString();
}

/** A team as a person reads it: its own name, or "Time A" for the default (TIME_A), never the code. */
const teamTitle = (letter: 'A' | 'B', name: string) =>
  name.trim() && name !== `TIME_${letter}` ? name : `Time ${letter}`;

export const matchCalendar = (match: Match): string => {
  const start = new Date(match.MatchDate);
  const sport = match.sport ? `${SPORT_NAMES[match.sport]} · ` : '';
  const teams = `${teamTitle('A', match.teamNameA)} × ${teamTitle('B', match.teamNameB)}`;
  return calendarOf({
    uid: `match-${match.id}@${UID_DOMAIN}`,
    start,
    end: new Date(start.getTime() + DEFAULT_DURATION_MS),
    summary: match.title,
    description: [`${sport}${teams}`, match.description].filter(Boolean).join('\n\n'),
    location: match.location,
    stamp: new Date(match.updatedAt),
    cancelled: match.MatchStatus === 'CANCELADA',
  });
};

/** An EVENT post (its end, or two hours); any other post → 400 NOT_AN_EVENT. */
export const postCalendar = (post: Post): string => {
  if (post.type !== 'EVENT' || !post.eventDate) {
    throw new AppError('BAD_REQUEST', 'Only an EVENT post has a calendar entry', {
      reason: 'NOT_AN_EVENT',
    });
  }
  const start = new Date(post.eventDate);
  return calendarOf({
    uid: `post-${post.id}@${UID_DOMAIN}`,
    start,
    end: post.eventFinishDate
      ? new Date(post.eventFinishDate)
      : new Date(start.getTime() + DEFAULT_DURATION_MS),
    summary: post.title,
    description: post.content ?? undefined,
    location: post.location ?? '',
    stamp: new Date(post.updatedAt),
  });
};

/**
 * Calendar files of a match and of an EVENT post, read through their own services (so every
 * visibility rule of a read holds here too).
 */
export function createCalendarService(sources: {
  match: (id: string, actor: Actor) => Promise<Match>;
  post: (id: string, actor: Actor) => Promise<Post>;
}) {
  return {
    match: async (id: string, actor: Actor) => matchCalendar(await sources.match(id, actor)),
    post: async (id: string, actor: Actor) => postCalendar(await sources.post(id, actor)),
  };
}
