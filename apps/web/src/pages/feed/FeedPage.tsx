import { type QueryClient, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { StatusMessage } from '../../components/Alert';
import { EndlessList } from '../../components/EndlessList';
import { Icon } from '../../components/Icon';
import { Page } from '../../components/Page';
import { Sheet } from '../../components/Sheet';
import { useFlash, useLocation } from '../../lib/router';
import { useTRPC } from '../../lib/trpc';
import type { FeedPageAnswer } from '../../session/early';
import { useSession } from '../../session/SessionProvider';
import { FeedFilters } from './FeedFilters';
import { feedQueryFrom, type FeedQuery } from './feedQuery';
import { NewPostsPill } from './NewPostsPill';
import { PostItem } from './PostItem';

const loadComposer = () => import('./ComposerForm');
const ComposerForm = lazy(loadComposer);

/** The composer, behind the header's "Publicar": a sheet with the post form. */
function Composer({ onPublished }: { onPublished: (title: string) => void }) {
  const [open, setOpen] = useState(false);
  // Its code once the feed is idle, so that the sheet opens at once when tapped.
  useEffect(() => {
    const timer = setTimeout(() => void loadComposer(), 2_000);
    return () => clearTimeout(timer);
  }, []);
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
      <Suspense fallback={<p role="status">Carregando…</p>}>
        <ComposerForm
          onPublished={(title) => {
            setOpen(false);
            onPublished(title);
          }}
        />
      </Suspense>
    </Sheet>
  );
}

/** The feed's list as the page reads it: GET /post by cursor with the address's filters. */
export const feedListOptions = (trpc: ReturnType<typeof useTRPC>, filters: FeedQuery) =>
  trpc.feed.list.infiniteQueryOptions(filters, {
    getNextPageParam: (last) => last.meta.nextCursor ?? undefined,
  });

/**
 * Starts reading the first page of the feed at `search` before the page renders (a returning
 * student's session renewed: session/DataLayer.tsx): the page's own query then finds it. An
 * `early` answer (the page's first script read it: session/early.ts) is that page, when it came.
 */
export function prefetchFeed(
  queryClient: QueryClient,
  trpc: ReturnType<typeof useTRPC>,
  search: string,
  early: Promise<FeedPageAnswer | null> | null,
) {
  const options = feedListOptions(trpc, feedQueryFrom(new URLSearchParams(search)));
  const { queryFn } = options;
  if (!early || !queryFn) return queryClient.prefetchInfiniteQuery(options);
  return queryClient.prefetchInfiniteQuery({
    ...options,
    queryFn: async (context) => (await early) ?? queryFn(context),
  });
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

  const options = feedListOptions(trpc, filters);
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
