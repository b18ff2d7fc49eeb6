import { createPostInput, eventFieldIssues } from '@campus/core/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';
import { checked } from '../../lib/validate';
import { useSession } from '../../session/SessionProvider';
import { PostForm } from './PostForm';

/**
 * The composer's form, a chunk of its own: the schemas and their Portuguese messages it checks
 * with (about 80 kB gzip) load when the sheet first opens, or once the feed is idle, never before
 * the feed's first posts.
 */
export default function ComposerForm({ onPublished }: { onPublished: (title: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const create = useMutation(trpc.feed.create.mutationOptions());
  return (
    <PostForm
      submitLabel="Publicar"
      onSubmit={async (fields) => {
        const input = { ...fields, author: user!.nickname, authorId: user!.id };
        const valid = checked(createPostInput, input, 'en', eventFieldIssues(input));
        const post = await create.mutateAsync(valid);
        onPublished(post.title);
        await queryClient.invalidateQueries({ queryKey: trpc.feed.list.pathKey() });
      }}
    />
  );
}
