import {
  useLayoutEffect,
  useEffect,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
} from 'react';
import { useLocation as useRouterLocation, useNavigate, type NavigateFunction } from 'react-router';

/*
 * The pages' view of the router (React Router, routes in src/routes.tsx): addresses as plain
 * strings with their query (`/partidas?pagina=2`), as the server answers index.html for any of
 * them (apps/server/src/http/web.ts). React Router in its declarative mode: the lightest for the
 * first load (about 15 kB gzip, against 28 for TanStack Router and 32 for React Router's data mode).
 */

let current: NavigateFunction | null = null;

/** Rendered once inside the router: lets `navigate` work outside React (after an action). */
export function NavigationBridge() {
  const routerNavigate = useNavigate();
  useLayoutEffect(() => {
    current = routerNavigate;
  }, [routerNavigate]);
  return null;
}

const here = () => window.location.pathname + window.location.search;

export function navigate(to: string, { replace = false } = {}) {
  if (to === here()) return;
  if (!current) throw new Error('navigate before the router was rendered');
  void current(to, { replace });
  window.scrollTo(0, 0);
}

/** The current path and query, re-rendering on every navigation. */
export function useLocation() {
  const { pathname, search } = useRouterLocation();
  return { path: pathname, query: new URLSearchParams(search), href: pathname + search };
}

/** The `?pagina=` of a list, 1 when absent or not a positive number. */
export const pageFrom = (query: URLSearchParams) =>
  Math.max(1, Number.parseInt(query.get('pagina') ?? '1', 10) || 1);

/** `matchPath('/feed/:id', '/feed/42')` → `{ id: '42' }`; null when the path does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const wanted = pattern.split('/').filter(Boolean);
  const actual = path.split('/').filter(Boolean);
  if (wanted.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of wanted.entries()) {
    const value = actual[i]!;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(value);
    else if (part !== value) return null;
  }
  return params;
}

/** A real link (works with a new tab, middle click, keyboard) that navigates in place. */
export function Link({
  to,
  onClick,
  ...props
}: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    ) {
      return;
    }
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={handle} {...props} />;
}

/** Navigates on mount (for redirects during render). */
export function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

/**
 * A one-time note carried by a query parameter (e.g. `?criada=1` after creating a match): read,
 * then dropped from the address so a reload does not show it again.
 */
export function useFlash(param: string, message: string): string | null {
  const { path, query } = useLocation();
  const [flash, setFlash] = useState<string | null>(null);
  const present = query.has(param);
  useEffect(() => {
    if (!present) return;
    setFlash(message);
    const rest = new URLSearchParams(window.location.search);
    rest.delete(param);
    const search = rest.toString();
    navigate(`${path}${search ? `?${search}` : ''}`, { replace: true });
  }, [present, param, message, path]);
  return flash;
}
