import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC, useTRPCClient, type RouterOutputs } from '../../lib/trpc';
import { useSession } from '../../session/SessionProvider';
import { useLiveStream } from '../../session/useLiveStream';
import { NavItem } from '../../shell/NavItem';

type StreamEvent =
  | {
      kind: 'notification';
      notification: RouterOutputs['notifications']['list']['data'][number];
      unreadCount: number;
    }
  | { kind: 'unread'; unreadCount: number };

/**
 * The bottom navigation's bell with the unread count, kept live by one notification stream per
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
  const shown = count > 99 ? '99+' : String(count);
  return (
    <NavItem
      to="/notificacoes"
      icon="bell"
      label="Notificações"
      // The visible label starts the name (WCAG 2.5.3); the count follows it.
      ariaLabel={count ? `Notificações, ${count} não lidas` : 'Notificações'}
      badge={
        count ? (
          <span className="nav-badge" aria-hidden="true" data-testid="unread-count">
            {shown}
          </span>
        ) : null
      }
    />
  );
}
