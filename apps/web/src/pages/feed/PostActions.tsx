import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formMessage } from '../../lib/errors';
import { useTRPC, type RouterOutputs } from '../../lib/trpc';

type PostSummary = RouterOutputs['feed']['list']['data'][number];

/**
 * Like and attend from a card: each button shows the caller's state (aria-pressed) and toggles
 * it; the list is read again afterwards, so counters and flags come from the server.
 */
export function PostActions({ post }: { post: PostSummary }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const settled = () => queryClient.invalidateQueries({ queryKey: trpc.feed.pathKey() });
  const like = useMutation(trpc.feed.like.mutationOptions({ onSettled: settled }));
  const unlike = useMutation(trpc.feed.unlike.mutationOptions({ onSettled: settled }));
  const attend = useMutation(trpc.feed.attend.mutationOptions({ onSettled: settled }));
  const unattend = useMutation(trpc.feed.unattend.mutationOptions({ onSettled: settled }));
  const busy = like.isPending || unlike.isPending || attend.isPending || unattend.isPending;

  async function run(action: Promise<unknown>) {
    setError(null);
    try {
      await action;
    } catch (failure) {
      setError(formMessage(failure));
    }
  }

  return (
    <div className="row post-actions">
      <button
        type="button"
        className="small"
        aria-pressed={post.likedByMe}
        disabled={busy}
        aria-label={`${post.likedByMe ? 'Descurtir' : 'Curtir'} “${post.title}”`}
        onClick={() =>
          void run(
            post.likedByMe
              ? unlike.mutateAsync({ id: post.id })
              : like.mutateAsync({ id: post.id }),
          )
        }
      >
        {post.likedByMe ? '♥ Curtido' : '♡ Curtir'}
      </button>
      {post.type === 'EVENT' ? (
        <button
          type="button"
          className="small"
          aria-pressed={post.attendingByMe}
          disabled={busy}
          aria-label={`${post.attendingByMe ? 'Cancelar presença em' : 'Confirmar presença em'} “${post.title}”`}
          onClick={() =>
            void run(
              post.attendingByMe
                ? unattend.mutateAsync({ id: post.id })
                : attend.mutateAsync({ id: post.id }),
            )
          }
        >
          {post.attendingByMe ? '✓ Presença confirmada' : 'Vou'}
        </button>
      ) : null}
      {error ? (
        <span role="alert" className="error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
