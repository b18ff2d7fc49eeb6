import { createPostInput, eventFieldIssues } from '@campus/core/schemas';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { StatusMessage } from '../../components/Alert';
import { EndlessList } from '../../components/EndlessList';
import { Icon } from '../../components/Icon';
import { Page } from '../../components/Page';
import { Sheet } from '../../components/Sheet';
import { useFlash, useLocation } from '../../lib/router';
import { useTRPC } from '../../lib/trpc';
import { checked } from '../../lib/validate';
import { useSession } from '../../session/SessionProvider';
import { FeedFilters, feedQueryFrom } from './FeedFilters';
import { NewPostsPill } from './NewPostsPill';
import { PostForm } from './PostForm';
import { PostItem } from './PostItem';

/** The composer, behind the header's "Publicar": a sheet with the post form. */
function Composer({ onPublished }: { onPublished: (title: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const create = useMutation(trpc.feed.create.mutationOptions());
  return (
    <Sheet
      title="Nova publicação"
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button type="button" className="primary with-icon">
          <Icon name="plus" />
          Publicar
        </button>
      }
    >
      <PostForm
        submitLabel="Publicar"
        onSubmit={async (fields) => {
          const input = { ...fields, author: user!.nickname, authorId: user!.id };
          const valid = checked(createPostInput, input, 'en', eventFieldIssues(input));
          const post = await create.mutateAsync(valid);
          setOpen(false);
          onPublished(post.title);
          await queryClient.invalidateQueries({ queryKey: trpc.feed.list.pathKey() });
        }}
      />
    </Sheet>
  );
}

/**
 * The feed: the posts from the first screen on, endless (the cursors of GET /post), a pill when
 * someone else posts; writing and filtering each behind a button, in a sheet.
 */
export function FeedPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const { query } = useLocation();
  const filters = feedQueryFrom(query);
  const filtered = Boolean(filters.q || filters.type || filters.upcoming);
  const [status, setStatus] = useState<string | null>(null);
  const welcome = useFlash('bemvindo', `Bem-vindo(a) ao Campus, ${user?.nome}!`);
  const deleted = useFlash('excluida', 'Publicação excluída.');

  const options = trpc.feed.list.infiniteQueryOptions(filters, {
    getNextPageParam: (last) => last.meta.nextCursor ?? undefined,
  });
  const list = useInfiniteQuery(options);
  const shown = (id: string) =>
    Boolean(list.data?.pages.some((page) => page.data.some((post) => post.id === id)));

  return (
    <Page
      title="Feed"
      actions={<Composer onPublished={(title) => setStatus(`Publicado: “${title}”.`)} />}
    >
      <StatusMessage>{status ?? deleted ?? welcome}</StatusMessage>
      <FeedFilters key={query.toString()} filters={filters} />
      {filtered ? null : (
        <NewPostsPill
          known={shown}
          onShow={() => {
            window.scrollTo(0, 0);
            void queryClient.resetQueries({ queryKey: options.queryKey });
          }}
        />
      )}
      <EndlessList
        id="posts-title"
        heading="Publicações"
        loading="Carregando publicações…"
        empty={
          filtered
            ? 'Nada encontrado com esses filtros.'
            : 'Nenhuma publicação ainda. Que tal escrever a primeira?'
        }
        query={list}
      >
        {(post) => <PostItem key={post.id} post={post} />}
      </EndlessList>
    </Page>
  );
}
