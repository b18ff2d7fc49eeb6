import type { EventBus } from '../events/bus';
import { follow } from '../events/live';
import type { FeedStreamEvent } from './schemas';

/** The bus key of the feed's events: there is one feed. */
export const FEED_KEY = 'feed';

/** The feed stream of one reader (see `feedStreamEvent`). */
export function createFeedStream(bus: EventBus | undefined) {
  return async (signal: AbortSignal): Promise<AsyncGenerator<FeedStreamEvent>> => {
    if (!bus) throw new Error('live streams need the event bus');
    const items = await follow(bus, 'feed', FEED_KEY, signal);
    return (async function* () {
      try {
        yield { kind: 'ready' as const };
        for await (const item of items) {
          yield item.type === 'event'
            ? { kind: 'post' as const, postId: item.event.postId, authorId: item.event.authorId }
            : { kind: 'missed' as const };
        }
      } finally {
        await items.return();
      }
    })();
  };
}
