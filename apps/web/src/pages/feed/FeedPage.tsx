import { createPostInput } from '@campus/core/schemas';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { StatusMessage } from '../../components/Alert';
import { Page } from '../../components/Page';
import { PagedList } from '../../components/PagedList';
import { plural } from '../../lib/format';
import { LinkedText } from '../../components/LinkedText';
import { EventTime, RelativeTime } from '../../components/Times';
import { Link, navigate, useFlash, useLocation } from '../../lib/router';
import { useTRPC, type RouterOutputs } from '../../lib/trpc';
import { useSession, useSessionClient } from '../../session/SessionProvider';
import { Avatar } from '../../components/media/Avatar';
import { PostPhotos } from '../../components/media/PostPhotos';
import { FeedFilters, feedQueryFrom, feedSearch } from './FeedFilters';
import { PostActions } from './PostActions';
import { PostForm } from './PostForm';
import { checked } from '../../lib/validate';

type PostSummary = RouterOutputs['feed']['list']['data'][number];

/** Who a post is by: its group (✓ when verified) when posted in a group's name, and the author. */
export function Byline({
  post,
}: {
  post: Pick<PostSummary, 'author' | 'group' | 'groupId' | 'groupVerified'>;
}) {
  return (
    <>
      {post.group && post.groupId ? (
        <>
          <Link to={`/grupos/${post.groupId}`}>{post.group}</Link>
          {post.groupVerified ? <span aria-label="verificado"> ✓</span> : null} ·{' '}
        </>
      ) : null}
      por @{post.author}
    </>
  );
}

export function EventLine({
  post,
}: {
  post: Pick<PostSummary, 'type' | 'eventDate' | 'eventFinishDate' | 'location'>;
}) {
  if (post.type !== 'EVENT' || !post.eventDate) return null;
  return (
    <p className="event-line">
      <span className="badge">Evento</span> <EventTime iso={post.eventDate} />
      {post.eventFinishDate ? (
        <>
          {' até '}
          <EventTime iso={post.eventFinishDate} />
        </>
      ) : null}
      {post.location ? ` · ${post.location}` : ''}
    </p>
  );
}

function PostItem({ post }: { post: PostSummary }) {
  const excerpt =
    post.content && post.content.length > 280 ? `${post.content.slice(0, 280)}…` : post.content;
  return (
    <li>
      <article className="card post-item">
        <h3>
          <Link to={`/feed/${post.id}`}>{post.title}</Link>
          {post.hidden ? <span className="badge"> Oculto pela moderação</span> : null}
        </h3>
        <p className="meta">
          <Avatar url={post.authorAvatarUrl} name={post.author} size={24} /> <Byline post={post} />{' '}
          · <RelativeTime iso={post.createdAt} />
        </p>
        <EventLine post={post} />
        <PostPhotos media={post.media} />
        {excerpt ? (
          <p className="content">
            <LinkedText text={excerpt} />
          </p>
        ) : null}
        <p className="counts">
          {plural(post.likesCount, 'curtida', 'curtidas')} ·{' '}
          {plural(post.commentsCount, 'comentário', 'comentários')}
          {post.type === 'EVENT'
            ? ` · ${plural(post.attendancesCount, 'presença', 'presenças')}`
            : ''}
        </p>
        <PostActions post={post} />
      </article>
    </li>
  );
}

export function FeedPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const session = useSessionClient();
  const { query } = useLocation();
  const filters = feedQueryFrom(query);
  const filtered = Boolean(filters.q || filters.type || filters.upcoming);
  const [status, setStatus] = useState<string | null>(null);
  const welcome = useFlash('bemvindo', `Bem-vindo(a) ao Campus, ${user?.nome}!`);
  const deleted = useFlash('excluida', 'Publicação excluída.');

  const list = useQuery({
    ...trpc.feed.list.queryOptions(filters),
    placeholderData: keepPreviousData,
  });
  const create = useMutation(
    trpc.feed.create.mutationOptions({
      onSuccess: (post) => {
        setStatus(`Publicado: “${post.title}”.`);
        // Not awaited: the form empties with the announcement, not after the list's refetch
        // (someone typing the next post meanwhile would lose it).
        void queryClient.invalidateQueries({ queryKey: trpc.feed.list.pathKey() });
      },
    }),
  );

  return (
    <Page title="Feed">
      <StatusMessage>{status ?? deleted ?? welcome}</StatusMessage>
      <details className="card composer">
        <summary>Escrever um post ou evento</summary>
        <PostForm
          submitLabel="Publicar"
          onSubmit={async ({ photos = [], ...fields }) => {
            setStatus(null);
            const input = { ...fields, author: user!.nickname, authorId: user!.id };
            checked(createPostInput, input, 'en');
            // The photos first (in order), then the post that shows them.
            const uploaded = await Promise.all(
              photos.map((photo) => session.uploadPhoto(photo.file, photo.alt)),
            );
            const mediaIds = uploaded.map((photo) => photo.id);
            return create.mutateAsync(checked(createPostInput, { ...input, mediaIds }, 'en'));
          }}
        />
      </details>

      <FeedFilters key={query.toString()} filters={filters} />
      <PagedList
        id="posts-title"
        heading="Publicações"
        loading="Carregando publicações…"
        empty={
          filtered
            ? 'Nada encontrado com esses filtros.'
            : 'Nenhuma publicação ainda. Que tal escrever a primeira?'
        }
        summary={
          filtered && list.data ? (
            <p role="status">{plural(list.data.meta.totalCount, 'resultado', 'resultados')}.</p>
          ) : null
        }
        pagesLabel="Páginas do feed"
        query={list}
        page={filters.page}
        onPage={(next) => navigate(feedSearch({ ...filters, page: next }))}
      >
        {(post) => <PostItem key={post.id} post={post} />}
      </PagedList>
    </Page>
  );
}
