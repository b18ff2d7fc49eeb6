import { useState } from 'react';
import { useTRPCClient } from '../../lib/trpc';
import { useSession } from '../../session/SessionProvider';
import { useLiveStream } from '../../session/useLiveStream';
import type { FeedStreamEvent } from '@campus/core/schemas';

/**
 * "N novos posts": the feed stream (GET /feed/stream) tells of each post published by someone
 * else; tapping the pill shows them (`onShow` reads the feed again from its first page). After
 * a `missed` the count is unknown: "Novos posts". `known` says which posts are already shown.
 */
export function NewPostsPill({
  known,
  onShow,
}: {
  known: (id: string) => boolean;
  onShow: () => void;
}) {
  const client = useTRPCClient();
  const { user } = useSession();
  const [fresh, setFresh] = useState<{ ids: string[]; missed: boolean }>({
    ids: [],
    missed: false,
  });
  useLiveStream<FeedStreamEvent>(
    (handlers) => client.streams.feed.subscribe(undefined, handlers),
    (event) => {
      if (event.kind === 'missed') setFresh((f) => ({ ...f, missed: true }));
      if (event.kind !== 'post' || event.authorId === user?.id || known(event.postId)) return;
      setFresh((f) => (f.ids.includes(event.postId) ? f : { ...f, ids: [...f.ids, event.postId] }));
    },
    user?.id ?? null,
  );
  const count = fresh.ids.length;
  if (!count && !fresh.missed) return null;
  return (
    <div className="new-posts">
      <button
        type="button"
        className="primary"
        onClick={() => {
          setFresh({ ids: [], missed: false });
          onShow();
        }}
      >
        <span aria-hidden="true">↑ </span>
        {count === 1 ? '1 novo post' : count > 1 ? `${count} novos posts` : 'Novos posts'}
      </button>
    </div>
  );
}
