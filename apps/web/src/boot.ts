/*
 * The app's first code (main.tsx imports it before React). The page's first script has already
 * started a returning student's renewal, the feed's first page and the download of the page they
 * land on (session/early.ts); once renewed, that page's first data goes into the query cache
 * here (the feed's: the first script's answer, or asked for again), without waiting for the app
 * to render (session/DataLayer.tsx; the feed's first paint on a phone network: bench:mobile-lcp).
 */
import { restored, session, store } from './session/instance';

if (store.refreshToken()) {
  const { pathname, search } = window.location;
  void Promise.all([restored, import('./session/DataLayer')]).then(([, data]) =>
    store.get().user ? data.prefetchLanding(session, pathname, search) : undefined,
  );
}
