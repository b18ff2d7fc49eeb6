import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ShareButton } from '../../components/ShareButton';
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

  /**
   * Each toggle: the caller's state, the two mutations, and its words and symbol off and on. The
   * accessible name is the visible words and the post's title (WCAG 2.5.3: the name contains
   * what is seen), the symbol is hidden from it, and the state is `aria-pressed`.
   */
  const toggles = [
    {
      key: 'like',
      on: post.likedByMe,
      run: () => (post.likedByMe ? unlike : like).mutateAsync({ id: post.id }),
      words: ['Curtir', 'Curtido'],
      symbols: ['♡', '♥'],
    },
    ...(post.type === 'EVENT'
      ? [
          {
            key: 'attend',
            on: post.attendingByMe,
            run: () => (post.attendingByMe ? unattend : attend).mutateAsync({ id: post.id }),
            // One wording everywhere: pressed means "I'm going" (the event page says the same).
            words: ['Vou participar', 'Vou participar'],
            symbols: ['', '✓'],
          },
        ]
      : []),
  ];

  return (
    <div className="row post-actions">
      {toggles.map((toggle) => (
        <button
          key={toggle.key}
          type="button"
          className="small"
          aria-pressed={toggle.on}
          disabled={busy}
          aria-label={`${toggle.words[Number(toggle.on)]} “${post.title}”`}
          onClick={() => void run(toggle.run())}
        >
          {toggle.symbols[Number(toggle.on)] ? (
            <span aria-hidden="true">{toggle.symbols[Number(toggle.on)]} </span>
          ) : null}
          {toggle.words[Number(toggle.on)]}
        </button>
      ))}
      <ShareButton title={post.title} path={`/feed/${post.id}`} label={`“${post.title}”`} compact />
      {error ? (
        <span role="alert" className="error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
