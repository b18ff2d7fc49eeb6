import { lazy, Suspense } from 'react';
import { DataLayer } from '../session/data';
import { useSession } from '../session/SessionProvider';
import { NavItem } from './NavItem';

const NotificationBell = lazy(() =>
  import('../pages/notifications/NotificationBell').then((m) => ({ default: m.NotificationBell })),
);

/** The bell before its live count has loaded (same size: nothing moves when it arrives). */
const QuietBell = () => (
  <NavItem to="/notificacoes" icon="bell" label="Notificações" ariaLabel="Notificações" />
);

/**
 * The navigation of a logged-in person: one row fixed at the bottom of the screen, within a
 * thumb's reach on a phone: Feed, Partidas, Grupos, the bell with the unread count, the account.
 * `accountPicture` is where the account's avatar goes (the icon until there is one).
 */
export function BottomNav() {
  const { user } = useSession();
  return (
    <nav aria-label="Principal" className="bottom-nav">
      <NavItem to="/feed" icon="feed" label="Feed" />
      <NavItem to="/partidas" icon="matches" label="Partidas" />
      <NavItem to="/grupos" icon="groups" label="Grupos" />
      <Suspense fallback={<QuietBell />}>
        <DataLayer>
          <NotificationBell />
        </DataLayer>
      </Suspense>
      <NavItem
        to="/minha-conta"
        icon="account"
        label="Conta"
        ariaLabel={`Conta de @${user?.nickname ?? ''}`}
      />
    </nav>
  );
}
