import { matchNotFound, type MatchRow } from './queries';
import { effectiveStatus, hasStarted, teamCapacity, type Team } from './rules';
import type {
  CreateMatchInput,
  Match,
  MatchFields,
  MatchListItem,
  MatchPlayer,
  MatchUser,
  UpdateMatchFields,
} from './schemas';
import type { matches } from './table';

/*
 * Rows → responses, and request fields → columns: the one place a match's shape is written
 * besides its table and its schemas.
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
  };
  return Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined));
}

function toFields(row: MatchRow, author: MatchUser, filled: number, now: Date): MatchFields {
  return {
    id: row.id,
    title: row.title,
    ...(row.description !== null ? { description: row.description } : {}),
    author,
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
  };
}

/** The single read (and the answer of create and update): players, spots and both teams. */
export function toMatch(
  row: MatchRow,
  author: MatchUser,
  playerRows: PlayerRow[],
  now: Date,
): Match {
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
      players: members.map(({ id, name, userName }) => ({ id, name, userName })),
    };
  };
  return {
    ...toFields(row, author, players.length, now),
    players,
    spots: { totalMax: row.maxPlayers, totalFilled: players.length },
    teamA: team('A'),
    teamB: team('B'),
  };
}

/** A match read with its author and players (`found` undefined: 404). */
export function toFoundMatch(
  found: { match: MatchRow; author: MatchUser } | undefined,
  players: PlayerRow[],
  now: Date,
): Match {
  if (!found) throw matchNotFound();
  return toMatch(found.match, found.author, players, now);
}

/** A list item: its players, and spots as filled and open. */
export function toListItem(
  row: MatchRow,
  author: MatchUser,
  playerRows: PlayerJson[],
  now: Date,
): MatchListItem {
  const players = playerRows.map((p) => ({
    ...p,
    subscribedAt: new Date(p.subscribedAt).toISOString(),
  }));
  const filled = players.length;
  return {
    ...toFields(row, author, filled, now),
    players,
    spots: { filled, open: Math.max(0, row.maxPlayers - filled) },
  };
}
