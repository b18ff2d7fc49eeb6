import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '../../lib/router';
import { useTRPC, useTRPCClient, type RouterOutputs } from '../../lib/trpc';
import { useSession } from '../../session/SessionProvider';
import { useLiveStream } from '../../session/useLiveStream';

type StreamEvent =
  | {
      kind: 'notification';
      notification: RouterOutputs['notifications']['list']['data'][number];
      unreadCount: number;
    }
  | { kind: 'unread'; unreadCount: number };

/**
 * The header's link to the inbox with the unread count, kept live by one notification stream per
 * tab; a new notification also refreshes the inbox list if it is shown.
 */
export function NotificationBell() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const unread = useQuery(trpc.notifications.unreadCount.queryOptions());
  useLiveStream<StreamEvent>(
    (handlers) => client.streams.notifications.subscribe(undefined, handlers),
    (event) => {
      queryClient.setQueryData(trpc.notifications.unreadCount.queryKey(), {
        count: event.unreadCount,
      });
      void queryClient.invalidateQueries({ queryKey: trpc.notifications.list.pathKey() });
    },
    user?.id ?? null,
  );
  const count = unread.data?.count ?? 0;
  return (
    <Link
      to="/notificacoes"
      className="bell"
      aria-label={count ? `Notificações, ${count} não lidas` : 'Notificações'}
    >
      {/* A space before the badge: what shows ("Notificações 3") is part of the name (WCAG 2.5.3). */}
      Notificações{' '}
      {count ? (
        <span className="badge" aria-hidden="true" data-testid="unread-count">
          {count > 99 ? '99+' : count}
        </span>
      ) : null}
    </Link>
  );
}
