import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@campus/api';

export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type SessionData = RouterOutputs['auth']['login']['dados'];
export type SessionUser = SessionData['usuario'];

/**
 * Where the tokens live. The access token stays in memory only (a script injected into the page
 * cannot read it from storage). The refresh token is kept in localStorage so that a reload or a
 * new tab keeps the session: the price is that a script running in the page could read it, which
 * the server's CSP (same-origin scripts only, no inline scripts) and rotation with reuse detection
 * limit. An HttpOnly cookie would hide it from scripts, but the API takes the refresh token in
 * the body and has no cookie endpoint.
 */
export interface TokenStorage {
  read(): string | null;
  write(token: string | null): void;
}

export const REFRESH_TOKEN_KEY = 'campus.refreshToken';

export function localTokenStorage(storage: Storage = window.localStorage): TokenStorage {
  return {
    read: () => storage.getItem(REFRESH_TOKEN_KEY),
    write: (token) =>
      token === null
        ? storage.removeItem(REFRESH_TOKEN_KEY)
        : storage.setItem(REFRESH_TOKEN_KEY, token),
  };
}

export function memoryTokenStorage(initial: string | null = null): TokenStorage {
  let value = initial;
  return { read: () => value, write: (token) => void (value = token) };
}

export interface SessionState {
  accessToken: string | null;
  user: SessionUser | null;
  /** Why the last session ended, shown on the login page (e.g. blocked by an administrator). */
  notice: string | null;
  /**
   * The person ended it (logged out, deleted the account): the login page then offers no way
   * back to the page they were on ("Entre para continuar de onde parou" would be wrong).
   */
  left: boolean;
}

/** The session as the app sees it, with subscribers (React reads it with useSyncExternalStore). */
export function createSessionStore(tokens: TokenStorage) {
  let state: SessionState = { accessToken: null, user: null, notice: null, left: false };
  const listeners = new Set<() => void>();
  const set = (next: SessionState) => {
    state = next;
    for (const listener of listeners) listener();
  };

  return {
    get: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    refreshToken: () => tokens.read(),
    signIn(session: Pick<SessionData, 'accessToken' | 'refreshToken' | 'usuario'>) {
      tokens.write(session.refreshToken);
      set({ accessToken: session.accessToken, user: session.usuario, notice: null, left: false });
    },
    /**
     * A session renewed by the page's first script (session/early.ts), which stored its refresh
     * token itself, inside the cross-tab lock: writing it again here could put back a token that
     * another tab has rotated since.
     */
    resume(session: Pick<SessionData, 'accessToken' | 'usuario'>) {
      set({ accessToken: session.accessToken, user: session.usuario, notice: null, left: false });
    },
    signOut(notice: string | null = null, { left = false } = {}) {
      tokens.write(null);
      if (state.user === null && state.accessToken === null && state.notice === notice) return;
      set({ accessToken: null, user: null, notice, left });
    },
    clearNotice() {
      if (state.notice !== null) set({ ...state, notice: null });
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
