import { z } from 'zod';
import { notFound } from '../errors';
import type { EventBus } from '../events/bus';
import { follow, requireBus, sharedReads } from '../events/live';
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
  return async function match(
    id: string,
    signal: AbortSignal,
  ): Promise<AsyncGenerator<MatchStreamEvent>> {
    const items = await follow(requireBus(bus), 'match', id, signal);
    const first = await sharedMatch(id, performance.now()).catch(async (error: unknown) => {
      await items.return();
      throw error;
    });
    if (!first) {
      await items.return();
      throw notFound('Match not found');
    }
    return (async function* () {
      try {
        yield { kind: 'match', match: first };
        for await (const item of items) {
          const match = await sharedMatch(id, item.at);
          if (!match) {
            yield { kind: 'deleted' };
            return;
          }
          yield { kind: 'match', match };
        }
      } finally {
        await items.return();
      }
    })();
  };
}
