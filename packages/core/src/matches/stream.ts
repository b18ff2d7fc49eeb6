import { z } from 'zod';
import type { EventBus } from '../events/bus';
import { followState, sharedReads } from '../events/live';
import { matchSchema, type Match } from './schemas';

/** The match stream: the match whenever its spots, teams, status or fields change; `deleted` ends it. */
export const matchStreamEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('match'), match: matchSchema }),
  z.object({ kind: z.literal('deleted') }),
]);
export type MatchStreamEvent = z.infer<typeof matchStreamEvent>;

/**
 * The live match stream: it starts with the match, then follows the bus; after a lost listener
 * connection it sends the match again. It ends when `signal` aborts or the match is deleted.
 */
export function createMatchStream(
  bus: EventBus | undefined,
  readMatch: (id: string) => Promise<Match>,
) {
  const sharedMatch = sharedReads(async (id) => {
    try {
      return await readMatch(id);
    } catch (error) {
      if ((error as { status?: number }).status === 404) return undefined;
      throw error;
    }
  });

  /** Throws 404 before the stream starts when the match does not exist. */
  return (id: string, signal: AbortSignal): Promise<AsyncGenerator<MatchStreamEvent>> =>
    followState(
      bus,
      { kind: 'match', key: id, missing: 'Match not found' },
      signal,
      (at) => sharedMatch(id, at),
      (match) => ({ kind: 'match' as const, match }),
    );
}
