import {
  useEffect,
  useState,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type MouseEvent,
} from 'react';

/*
 * A small router over the History API: the app has a handful of pages, and the server answers
 * index.html for any of their paths (apps/server/src/http/web.ts).
 */

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

const snapshot = () => window.location.pathname + window.location.search;

export function navigate(to: string, { replace = false } = {}) {
  if (to === snapshot()) return;
  window.history[replace ? 'replaceState' : 'pushState'](null, '', to);
  window.scrollTo(0, 0);
  notify();
}

/** The current path and query, re-rendering on every navigation. */
export function useLocation() {
  const current = useSyncExternalStore(subscribe, snapshot);
  const url = new URL(current, window.location.origin);
  return { path: url.pathname, query: url.searchParams, href: current };
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
