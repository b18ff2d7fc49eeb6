import { matchPath } from './router';

/*
 * Deep links through login and sign-up: a page that needs a session sends the visitor to
 * `/entrar?next=<the page>`, and the login, the sign-up forms and the links between them carry
 * `next` along. Only a path of this site is followed (no open redirect).
 */

/** Pages that make no sense to return to once logged in. */
const ENTRY_PAGES = /^\/(entrar|cadastro|esqueci-senha|redefinir-senha)(\/|$|\?)/;

/** `value` when it is a same-origin relative path (not `//host`, not `/\host`), else null. */
export function safeNext(value: string | null, origin = window.location.origin): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\'))
    return null;
  try {
    const url = new URL(value, origin);
    if (url.origin !== origin) return null;
    const path = url.pathname + url.search + url.hash;
    return ENTRY_PAGES.test(path) ? null : path;
  } catch {
    return null;
  }
}

/** Where to go after logging in or signing up: the page that asked for it, else `fallback`. */
export const nextPath = (query: URLSearchParams, fallback = '/feed') =>
  safeNext(query.get('next')) ?? fallback;

/** `path` with the query `extra`, and the return target when there is a valid one. */
export function withNext(path: string, next: string | null, extra: Record<string, string> = {}) {
  const safe = safeNext(next);
  const query = new URLSearchParams({ ...extra, ...(safe ? { next: safe } : {}) }).toString();
  return query ? `${path}?${query}` : path;
}

/** Why the visitor was sent to log in or sign up ("Entre para ver esta partida."). */
export function nextReason(next: string | null, verb: 'Entre' | 'Crie sua conta'): string | null {
  const safe = safeNext(next);
  if (!safe) return null;
  const path = safe.split(/[?#]/)[0]!;
  if (matchPath('/partidas/:id', path)) return `${verb} para ver esta partida.`;
  if (matchPath('/feed/:id', path)) return `${verb} para ver este post.`;
  if (matchPath('/grupos/:id', path)) return `${verb} para ver este grupo.`;
  return `${verb} para continuar de onde parou.`;
}
