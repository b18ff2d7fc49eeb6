/*
 * The first code the page runs (main.tsx imports it before React): a returning student's session
 * starts renewing, the code of the page they land on starts downloading, and once renewed its
 * first data is asked for, each without waiting for the app to render (session/instance.ts,
 * landing.ts; the feed's first paint on a phone network: bench:mobile-lcp).
 */
import { preloadLanding } from './landing';
import { restored, session, store } from './session/instance';

if (store.refreshToken()) {
  const { pathname, search } = window.location;
  preloadLanding(pathname);
  void Promise.all([restored, import('./session/DataLayer')]).then(([, data]) =>
    store.get().user ? data.prefetchLanding(session, pathname, search) : undefined,
  );
}
