import { createPostInput, eventFieldIssues } from '@campus/core/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';
import { checked } from '../../lib/validate';
import { useSession, useSessionClient } from '../../session/SessionProvider';
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
  const session = useSessionClient();
  const create = useMutation(trpc.feed.create.mutationOptions());
  return (
    <PostForm
      submitLabel="Publicar"
      onSubmit={async ({ photos = [], ...fields }) => {
        const input = { ...fields, author: user!.nickname, authorId: user!.id };
        checked(createPostInput, input, 'en', eventFieldIssues(input));
        // The photos first (in order), then the post that shows them.
        const uploaded = await Promise.all(
          photos.map((photo) => session.uploadPhoto(photo.file, photo.alt)),
        );
        const mediaIds = uploaded.map((photo) => photo.id);
        const post = await create.mutateAsync(
          checked(createPostInput, { ...input, mediaIds }, 'en'),
        );
        onPublished(post.title);
        await queryClient.invalidateQueries({ queryKey: trpc.feed.list.pathKey() });
      }}
    />
  );
}
