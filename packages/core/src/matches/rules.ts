import type { MATCH_STATUSES, TEAMS } from './enums';

/**
 * The rules of docs/contract/matches.md (Status, Teams and seats) as pure functions, shared by the
 * service and its tests.
 */

export type MatchStatus = (typeof MATCH_STATUSES)[number];
export type Team = (typeof TEAMS)[number];
export type TeamCounts = Record<Team, number>;

/** A stored EM_BREVE match whose date has passed reads EM_ANDAMENTO (no background job). */
export function effectiveStatus(stored: MatchStatus, matchDate: Date, now: Date): MatchStatus {
  return stored === 'EM_BREVE' && matchDate <= now ? 'EM_ANDAMENTO' : stored;
}

/** Subscribe and switch are allowed only before the match starts. */
export function hasStarted(stored: MatchStatus, matchDate: Date, now: Date): boolean {
  return effectiveStatus(stored, matchDate, now) !== 'EM_BREVE';
}

/** Team A holds ceil(maxPlayers/2), team B floor(maxPlayers/2). */
export function teamCapacity(maxPlayers: number): TeamCounts {
  return { A: Math.ceil(maxPlayers / 2), B: Math.floor(maxPlayers / 2) };
}

export const otherTeam = (team: Team): Team => (team === 'A' ? 'B' : 'A');

/**
 * The team a new player joins: the one with fewer players, a tie goes to A; if that one is full
 * (possible only after maxPlayers changed), the other. `undefined` when both are full.
 */
export function placeNewPlayer(counts: TeamCounts, maxPlayers: number): Team | undefined {
  const capacity = teamCapacity(maxPlayers);
  const preferred: Team = counts.B < counts.A ? 'B' : 'A';
  for (const team of [preferred, otherTeam(preferred)]) {
    if (counts[team] < capacity[team]) return team;
  }
  return undefined;
}

/** True when the players already in fit a match of `maxPlayers`, in total and per team. */
export function fitsCapacity(counts: TeamCounts, maxPlayers: number): boolean {
  const capacity = teamCapacity(maxPlayers);
  return counts.A <= capacity.A && counts.B <= capacity.B;
}

/** The transitions a PATCH of MatchStatus may make, from the effective status. */
const TRANSITIONS: Record<MatchStatus, readonly MatchStatus[]> = {
  EM_BREVE: ['EM_ANDAMENTO', 'CANCELADA'],
  EM_ANDAMENTO: ['FINALIZADA'],
  FINALIZADA: [],
  CANCELADA: [],
};

/** Setting the status a match already has is not a transition and is accepted as a no-op. */
export function canTransition(from: MatchStatus, to: MatchStatus): boolean {
  return from === to || TRANSITIONS[from].includes(to);
}
