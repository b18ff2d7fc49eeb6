import type { ReactNode } from 'react';
import { Icon, type IconName } from '../components/Icon';
import { Link, useLocation } from '../lib/router';

/** Whether `to` is the current section (its page or a page under it). */
export function useCurrent(to: string) {
  const { path } = useLocation();
  return path === to || path.startsWith(`${to}/`);
}

/**
 * One item of the bottom navigation: an icon over its label, the whole cell tappable (48 px
 * high at least). `picture` takes the icon's place (the account's avatar), `badge` sits on it.
 */
export function NavItem({
  to,
  icon,
  label,
  badge,
  picture,
  ariaLabel,
}: {
  to: string;
  icon: IconName;
  label: string;
  badge?: ReactNode;
  picture?: ReactNode;
  ariaLabel?: string;
}) {
  const current = useCurrent(to);
  return (
    <Link
      to={to}
      className="nav-item"
      aria-current={current ? 'page' : undefined}
      {...(ariaLabel ? { 'aria-label': ariaLabel } : {})}
    >
      <span className="nav-item__icon">{picture ?? <Icon name={icon} />}</span>
      <span className="nav-item__label">{label}</span>
      {/* After the label, so that what shows reads "Notificações 3", as the name does. */}
      {badge ? <> {badge}</> : null}
    </Link>
  );
}
