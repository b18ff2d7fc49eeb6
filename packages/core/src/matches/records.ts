import type { Executor } from '../db/client';
import { matchNotFound, matchWithAuthor, playersOf, waitlistOf, type MatchRow } from './queries';
import { effectiveStatus, hasStarted, teamCapacity, type Team } from './rules';
import type {
  CreateMatchInput,
  Match,
  MatchFields,
  MatchListItem,
  MatchPlayer,
  MatchSubscription,
  MatchUser,
  MatchWaitingUser,
  UpdateMatchFields,
} from './schemas';
import type { matches } from './table';

/*
 * Rows → responses (and the read of one match), and request fields → columns: the one place a
 * match's shape is written besides its table and its schemas.
 */

/** A player as the single read selects it. */
export type PlayerRow = Omit<MatchPlayer, 'subscribedAt'> & { subscribedAt: Date };
/** A player as the list statement aggregates it (JSON, timestamps as text). */
export type PlayerJson = Omit<MatchPlayer, 'subscribedAt'> & { subscribedAt: string };

type MatchInsert = typeof matches.$inferInsert;

/** The fields of a create or a PATCH → the columns they set; absent fields set nothing. */
export function toMatchColumns(fields: CreateMatchInput): Omit<MatchInsert, 'authorId'>;
export function toMatchColumns(fields: UpdateMatchFields): Partial<MatchInsert>;
export function toMatchColumns(fields: UpdateMatchFields): Partial<MatchInsert> {
  const columns: Partial<MatchInsert> = {
    title: fields.title,
    description: fields.description,
    maxPlayers: fields.maxPlayers,
    matchDate: fields.MatchDate === undefined ? undefined : new Date(fields.MatchDate),
    location: fields.location,
    teamNameA: fields.teamNameA,
    teamNameB: fields.teamNameB,
    // Storing the effective status makes an EM_BREVE-by-date match explicitly EM_ANDAMENTO.
    status: fields.MatchStatus,
    sport: fields.sport,
    groupId: fields.groupId,
    teamAScore: fields.teamAScore,
    teamBScore: fields.teamBScore,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined));
}

/** What is read beside a match row: its author, its group, and the viewer's place in it. */
export interface MatchContext {
  author: MatchUser;
  group: string | null;
  groupVerified: boolean;
  myTeam: Team | null;
  myWaitlistPosition: number | null;
}

function toFields(row: MatchRow, context: MatchContext, filled: number, now: Date): MatchFields {
  return {
    id: row.id,
    title: row.title,
    ...(row.description !== null ? { description: row.description } : {}),
    author: context.author,
    authorId: row.authorId,
    maxPlayers: row.maxPlayers,
    MatchDate: row.matchDate.toISOString(),
    MatchStatus: effectiveStatus(row.status, row.matchDate, now),
    location: row.location,
    teamNameA: row.teamNameA,
    teamNameB: row.teamNameB,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    isSubscriptionOpen: !hasStarted(row.status, row.matchDate, now) && filled < row.maxPlayers,
    sport: row.sport,
    groupId: row.groupId,
    group: context.group,
    groupVerified: context.groupVerified,
    teamAScore: row.teamAScore,
    teamBScore: row.teamBScore,
    myTeam: context.myTeam,
    myWaitlistPosition: context.myWaitlistPosition,
  };
}

/** The single read's context: group columns as read, the viewer's place from the lists. */
export interface MatchRead {
  match: MatchRow;
  author: MatchUser;
  group: string | null;
  groupVerified: boolean;
}

/**
 * The match as `viewerId` sees it: `myTeam` and `myWaitlistPosition` from its players and
 * waiting list (a stream reads a match once and sends it to every watcher this way).
 */
export function viewedBy(match: Match, viewerId: string | undefined): Match {
  const position = match.waitlist.find((w) => w.id === viewerId)?.position ?? null;
  return {
    ...match,
    myTeam: match.players.find((p) => p.id === viewerId)?.team ?? null,
    myWaitlistPosition: position,
  };
}

/** The single read (and the answer of create and update): players, spots and both teams. */
export function toMatch(
  read: MatchRead,
  playerRows: PlayerRow[],
  waiting: MatchUser[],
  now: Date,
  viewerId?: string,
): Match {
  const row = read.match;
  const players = playerRows.map((p) => ({ ...p, subscribedAt: p.subscribedAt.toISOString() }));
  const capacity = teamCapacity(row.maxPlayers);
  const windowOpen = !hasStarted(row.status, row.matchDate, now);
  const team = (t: Team) => {
    const members = players.filter((p) => p.team === t);
    return {
      name: t === 'A' ? row.teamNameA : row.teamNameB,
      max: capacity[t],
      filled: members.length,
      isOpen: windowOpen && members.length < capacity[t],
      players: members.map(({ id, name, userName, avatarUrl }) => ({
        id,
        name,
        userName,
        avatarUrl,
      })),
    };
  };
  const waitlist: MatchWaitingUser[] = waiting.map((user, i) => ({ ...user, position: i + 1 }));
  const context = { ...read, myTeam: null, myWaitlistPosition: null };
  return viewedBy(
    {
      ...toFields(row, context, players.length, now),
      players,
      spots: { totalMax: row.maxPlayers, totalFilled: players.length },
      teamA: team('A'),
      teamB: team('B'),
      waitlist,
    },
    viewerId,
  );
}

/** The match with its author, group, players and waiting list, as `viewerId` sees it. */
export async function readMatch(
  ex: Executor,
  id: string,
  now: Date,
  viewerId?: string,
): Promise<Match> {
  const [[found], players, waiting] = await Promise.all([
    matchWithAuthor(ex, id),
    playersOf(ex, id),
    waitlistOf(ex, id),
  ]);
  return toFoundMatch(found, players, waiting, now, viewerId);
}

/** A new seat as subscribe answers it, the team named as the match names it. */
export const toSubscription = (
  matchId: string,
  userId: string,
  placed: { team: Team; subscribedAt: Date },
  match: { teamNameA: string; teamNameB: string },
): MatchSubscription => ({
  matchId,
  userId,
  team: placed.team,
  teamName: placed.team === 'A' ? match.teamNameA : match.teamNameB,
  subscribedAt: placed.subscribedAt.toISOString(),
});

/** A match read with its author and players (`found` undefined: 404). */
export function toFoundMatch(
  found: MatchRead | undefined,
  players: PlayerRow[],
  waiting: MatchUser[],
  now: Date,
  viewerId?: string,
): Match {
  if (!found) throw matchNotFound();
  return toMatch(found, players, waiting, now, viewerId);
}

/** A list item: its players, and spots as filled and open. */
export function toListItem(
  row: MatchRow,
  context: MatchContext,
  playerRows: PlayerJson[],
  waitlistCount: number,
  now: Date,
): MatchListItem {
  const players = playerRows.map((p) => ({
    ...p,
    subscribedAt: new Date(p.subscribedAt).toISOString(),
  }));
  const filled = players.length;
  return {
    ...toFields(row, context, filled, now),
    players,
    spots: { filled, open: Math.max(0, row.maxPlayers - filled) },
    waitlistCount,
  };
}
