import { createReportInput, updatePostInput } from '@campus/core/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorMessage, StatusMessage } from '../../components/Alert';
import { ConfirmButton } from '../../components/ConfirmButton';
import { Icon } from '../../components/Icon';
import { ShareButton } from '../../components/ShareButton';
import { openCalendarFile } from '../../lib/calendar';
import { Page, PendingPage } from '../../components/Page';
import { useAnnouncements } from '../../components/useAnnouncements';
import { fieldErrors, formMessage, sameNames } from '../../lib/errors';
import { plural } from '../../lib/format';
import { LinkedText } from '../../components/LinkedText';
import { RelativeTime } from '../../components/Times';
import { Link, navigate } from '../../lib/router';
import { useTRPC, useTRPCClient, type RouterOutputs } from '../../lib/trpc';
import { useLiveStream } from '../../session/useLiveStream';
import { useSession } from '../../session/SessionProvider';
import { Byline, EventLine } from './PostItem';
import { Avatar } from '../../components/media/Avatar';
import { PostPhotos } from '../../components/media/PostPhotos';
import { PostComments } from './PostComments';
import { PostForm } from './PostForm';
import { ReportReasonField } from './ReportReasonField';
import { checked } from '../../lib/validate';

type Post = RouterOutputs['feed']['get'];

function ReportForm({ post, onDone }: { post: Post; onDone: (message: string) => void }) {
  const trpc = useTRPC();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sent, setSent] = useState(false);
  const report = useMutation(trpc.feed.report.mutationOptions());
  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      await report.mutateAsync(checked(createReportInput, { id: post.id, reason }, 'en'));
      setSent(true);
      onDone('Denúncia enviada. Obrigado por avisar.');
    } catch (failure) {
      const fields = sameNames('reason');
      setError(fieldErrors(failure, fields).reason ?? formMessage(failure, fields));
    }
  }
  if (sent) return <p className="meta">Você denunciou esta publicação.</p>;
  return (
    <details className="report">
      <summary>Denunciar</summary>
      <form onSubmit={submit} noValidate className="stack">
        <ReportReasonField
          label="Motivo da denúncia"
          name="reason"
          value={reason}
          onChange={setReason}
          error={error}
        />
        <div className="row">
          <button type="submit" disabled={report.isPending}>
            Enviar denúncia
          </button>
        </div>
      </form>
    </details>
  );
}

export function PostPage({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const [editing, setEditing] = useState(false);
  const { status, setStatus, error, setError, act } = useAnnouncements();

  const post = useQuery(trpc.feed.get.queryOptions({ id }));
  // Counters follow the post live; a new comment reloads the post and its comment pages.
  const client = useTRPCClient();
  useLiveStream<
    | {
        kind: 'post';
        counters: Pick<Post, 'likesCount' | 'commentsCount' | 'attendancesCount'>;
        comment?: unknown;
      }
    | { kind: 'deleted' }
  >(
    (handlers) => client.streams.post.subscribe({ id }, handlers),
    (event) => {
      const key = trpc.feed.get.queryKey({ id });
      if (event.kind === 'post' && !event.comment) {
        queryClient.setQueryData(key, (old) => (old ? { ...old, ...event.counters } : old));
      } else {
        void queryClient.invalidateQueries({ queryKey: key });
        // The thread pages too: a new comment shows on the first page without a reload.
        void queryClient.invalidateQueries({ queryKey: trpc.feed.listComments.pathKey() });
      }
    },
    id,
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.feed.pathKey() });
  const options = { onSuccess: refresh };
  const like = useMutation(trpc.feed.like.mutationOptions(options));
  const unlike = useMutation(trpc.feed.unlike.mutationOptions(options));
  const attend = useMutation(trpc.feed.attend.mutationOptions(options));
  const unattend = useMutation(trpc.feed.unattend.mutationOptions(options));
  const update = useMutation(trpc.feed.update.mutationOptions(options));
  const remove = useMutation(trpc.feed.remove.mutationOptions());

  if (post.isPending || post.error) {
    return (
      <PendingPage
        title="Publicação"
        error={post.error}
        back={<Link to="/feed">Voltar ao feed</Link>}
      />
    );
  }

  const data = post.data;
  const liked = data.likes.some((l) => l.userId === user?.id);
  const attending = data.attendances.some((a) => a.userId === user?.id);
  const mayEdit = user && (user.id === data.authorId || user.perfil === 'ADMIN');
  const busy = like.isPending || unlike.isPending || attend.isPending || unattend.isPending;

  return (
    <Page
      title={data.title}
      actions={<ShareButton title={data.title} path={`/feed/${id}`} label={`“${data.title}”`} />}
    >
      <p>
        <Link to="/feed">← Voltar ao feed</Link>
      </p>
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage>{error}</ErrorMessage>
      <article className="card">
        <p className="meta">
          <Avatar url={data.authorAvatarUrl} name={data.author} size={32} /> <Byline post={data} />{' '}
          · <RelativeTime iso={data.createdAt} />
          {data.updatedAt !== data.createdAt ? ' · editado' : ''}
        </p>
        <EventLine post={data} />
        <PostPhotos media={data.media} sizes="(max-width: 48rem) 100vw, 48rem" />
        {data.content ? (
          <p className="content">
            <LinkedText text={data.content} />
          </p>
        ) : null}

        <div className="row actions">
          <button
            type="button"
            aria-pressed={liked}
            disabled={busy}
            onClick={() =>
              void (liked
                ? act(() => unlike.mutateAsync({ id }), 'Curtida removida.')
                : act(() => like.mutateAsync({ id }), 'Você curtiu esta publicação.'))
            }
          >
            {liked ? '♥ Curtido' : '♡ Curtir'} ({data.likesCount})
          </button>
          {data.type === 'EVENT' ? (
            <button
              type="button"
              aria-pressed={attending}
              disabled={busy}
              onClick={() =>
                void (attending
                  ? act(() => unattend.mutateAsync({ id }), 'Presença cancelada.')
                  : act(() => attend.mutateAsync({ id }), 'Presença confirmada.'))
              }
            >
              {attending ? '✓ ' : ''}Vou participar ({data.attendancesCount})
            </button>
          ) : null}
          {data.type === 'EVENT' ? (
            <button
              type="button"
              className="with-icon"
              onClick={() =>
                void act(async () => {
                  openCalendarFile(await client.calendar.post.query({ id }));
                }, 'Abrindo na sua agenda…')
              }
            >
              <Icon name="calendar" />
              Adicionar à agenda
            </button>
          ) : null}
        </div>
        {data.likes.length > 0 ? (
          <p className="meta">Curtido por {data.likes.map((l) => `@${l.userName}`).join(', ')}</p>
        ) : null}
        {data.type === 'EVENT' && data.attendances.length > 0 ? (
          <p className="meta">
            {plural(data.attendances.length, 'presença confirmada', 'presenças confirmadas')}:{' '}
            {data.attendances.map((a) => `@${a.userName}`).join(', ')}
          </p>
        ) : null}
        {user?.perfil === 'ADMIN' && data.reports.length > 0 ? (
          <p className="meta">
            {plural(data.reports.length, 'denúncia', 'denúncias')}:{' '}
            {data.reports.map((r) => r.reason).join('; ')}
          </p>
        ) : null}
        {user?.id !== data.authorId ? <ReportForm post={data} onDone={setStatus} /> : null}

        {mayEdit && !editing ? (
          <div className="row owner-actions">
            <button type="button" onClick={() => setEditing(true)}>
              Editar
            </button>
            <ConfirmButton
              label="Excluir"
              question="Excluir esta publicação?"
              confirmLabel="Sim, excluir"
              className="danger"
              onConfirm={() =>
                void remove.mutateAsync({ id }).then(
                  async () => {
                    await refresh();
                    navigate('/feed?excluida=1');
                  },
                  (failure: unknown) => setError(formMessage(failure)),
                )
              }
            />
          </div>
        ) : null}
        {editing ? (
          <section aria-labelledby="edit-title">
            <h2 id="edit-title">Editar publicação</h2>
            <PostForm
              post={data}
              submitLabel="Salvar alterações"
              onCancel={() => setEditing(false)}
              onSubmit={async (fields) => {
                // groupId only when it changes: an edit keeps the post's group without re-asking.
                const { groupId, ...rest } = fields;
                const changes = groupId === data.groupId ? rest : fields;
                await update.mutateAsync(checked(updatePostInput, { id, ...changes }, 'en'));
                setEditing(false);
                setStatus('Publicação atualizada.');
              }}
            />
          </section>
        ) : null}
      </article>
      <PostComments post={data} announce={setStatus} />
    </Page>
  );
}
