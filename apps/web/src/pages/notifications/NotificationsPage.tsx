import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage, StatusMessage } from '../../components/Alert';
import { Page, PendingPage } from '../../components/Page';
import { Pagination } from '../../components/Pagination';
import { useAnnouncements } from '../../components/useAnnouncements';
import { formatDateTime } from '../../lib/format';
import { Link } from '../../lib/router';
import { useTRPC, type RouterOutputs } from '../../lib/trpc';

type Notification = RouterOutputs['notifications']['list']['data'][number];

/** Where a notification leads: its post or its match. */
function targetOf({ data }: Notification): string | undefined {
  if (data.postId) return `/feed/${data.postId}`;
  if (data.matchId) return `/partidas/${data.matchId}`;
  return undefined;
}

export function NotificationsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [onlyUnread, setOnlyUnread] = useState(false);
  const { status, error, act } = useAnnouncements();
  const list = useQuery({
    ...trpc.notifications.list.queryOptions({
      page,
      limit: 20,
      ...(onlyUnread ? { unread: 'true' as const } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.notifications.list.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.notifications.unreadCount.queryKey() }),
    ]);
  const markRead = useMutation(trpc.notifications.markRead.mutationOptions({ onSettled: refresh }));
  const readAll = useMutation(trpc.notifications.readAll.mutationOptions({ onSettled: refresh }));

  if (list.isPending || list.error) {
    return (
      <PendingPage
        title="Notificações"
        error={list.error}
        back={<Link to="/feed">Voltar ao feed</Link>}
      />
    );
  }
  const { data, meta } = list.data;

  return (
    <Page
      title="Notificações"
      actions={
        <button
          type="button"
          disabled={readAll.isPending}
          onClick={() =>
            void act(
              () => readAll.mutateAsync(),
              (r) => (r.updated ? `${r.updated} marcadas como lidas.` : 'Nada por ler.'),
            )
          }
        >
          Marcar todas como lidas
        </button>
      }
    >
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage>{error}</ErrorMessage>
      <label className="check">
        <input
          type="checkbox"
          role="switch"
          checked={onlyUnread}
          onChange={(e) => {
            setOnlyUnread(e.target.checked);
            setPage(1);
          }}
        />
        Só as não lidas
      </label>
      {data.length === 0 ? (
        <p>{onlyUnread ? 'Nenhuma notificação por ler.' : 'Nenhuma notificação ainda.'}</p>
      ) : (
        <ul className="notifications">
          {data.map((n) => {
            const target = targetOf(n);
            return (
              <li key={n.id} className={n.read ? 'card read' : 'card unread'}>
                <p>
                  {n.read ? null : <span className="visually-hidden">Não lida: </span>}
                  {target ? <Link to={target}>{n.message}</Link> : n.message}
                </p>
                <p className="meta">
                  <time dateTime={n.createdAt}>{formatDateTime(n.createdAt)}</time>
                  {n.read ? null : (
                    <>
                      {' · '}
                      <button
                        type="button"
                        className="link-button"
                        disabled={markRead.isPending}
                        onClick={() =>
                          void act(
                            () => markRead.mutateAsync({ id: n.id }),
                            () => 'Marcada como lida.',
                          )
                        }
                      >
                        Marcar como lida
                      </button>
                    </>
                  )}
                </p>
              </li>
            );
          })}
        </ul>
      )}
      <Pagination page={page} totalPages={meta.totalPages} onPage={setPage} label="Páginas" />
    </Page>
  );
}
