import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage, StatusMessage } from '../../components/Alert';
import { EndlessList } from '../../components/EndlessList';
import { Page } from '../../components/Page';
import { RelativeTime } from '../../components/Times';
import { useAnnouncements } from '../../components/useAnnouncements';
import { Link } from '../../lib/router';
import { useTRPC, type RouterOutputs } from '../../lib/trpc';

type Notification = RouterOutputs['notifications']['list']['data'][number];

/** Where a notification leads: its post, its match or its group (requests, approvals, posts). */
export function targetOf({ data }: Pick<Notification, 'data'>): string | undefined {
  if (data.postId) return `/feed/${data.postId}`;
  if (data.matchId) return `/partidas/${data.matchId}`;
  if (data.groupId) return `/grupos/${data.groupId}`;
  return undefined;
}

/**
 * One notification: a link to what it is about, which marks it read as it is tapped; one that
 * leads nowhere has "Marcar como lida". Its time is relative, as everywhere in the app.
 */
function NotificationItem({
  notification: n,
  onRead,
  busy,
}: {
  notification: Notification;
  onRead: (id: string) => Promise<unknown>;
  busy: boolean;
}) {
  const target = targetOf(n);
  return (
    <li className={n.read ? 'card notification read' : 'card notification unread'}>
      {target ? (
        <Link
          to={target}
          className="notification__link"
          onClick={() => {
            if (!n.read) void onRead(n.id);
          }}
        >
          {n.read ? null : <span className="visually-hidden">Não lida: </span>}
          {n.message}
        </Link>
      ) : (
        <p className="notification__text">
          {n.read ? null : <span className="visually-hidden">Não lida: </span>}
          {n.message}
        </p>
      )}
      <p className="meta row wrap">
        <RelativeTime iso={n.createdAt} />
        {n.read || target ? null : (
          <button type="button" className="small" disabled={busy} onClick={() => void onRead(n.id)}>
            Marcar como lida
          </button>
        )}
      </p>
    </li>
  );
}

export function NotificationsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [onlyUnread, setOnlyUnread] = useState(false);
  const { status, error, act } = useAnnouncements();
  const list = useInfiniteQuery(
    trpc.notifications.list.infiniteQueryOptions(
      { limit: 20, ...(onlyUnread ? { unread: 'true' as const } : {}) },
      { getNextPageParam: (last) => last.meta.nextCursor ?? undefined },
    ),
  );
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.notifications.list.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.notifications.unreadCount.queryKey() }),
    ]);
  const markRead = useMutation(trpc.notifications.markRead.mutationOptions({ onSettled: refresh }));
  const readAll = useMutation(trpc.notifications.readAll.mutationOptions({ onSettled: refresh }));

  return (
    <Page
      title="Notificações"
      actions={
        <button
          type="button"
          className="small"
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
          onChange={(e) => setOnlyUnread(e.target.checked)}
        />
        Só as não lidas
      </label>
      <EndlessList
        id="notificacoes-lista"
        heading="Suas notificações"
        loading="Carregando notificações…"
        empty={onlyUnread ? 'Nenhuma notificação por ler.' : 'Nenhuma notificação ainda.'}
        query={list}
      >
        {(n) => (
          <NotificationItem
            key={n.id}
            notification={n}
            busy={markRead.isPending}
            onRead={(id) =>
              act(
                () => markRead.mutateAsync({ id }),
                () => 'Marcada como lida.',
              )
            }
          />
        )}
      </EndlessList>
    </Page>
  );
}
