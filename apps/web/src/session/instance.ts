import { createSessionClient } from './client';
import { earlyRenewal } from './early';
import { createSessionStore, localTokenStorage, REFRESH_TOKEN_KEY } from './store';

/*
 * The tab's one session, made when the app's code first runs (boot.ts, before React). A stored
 * session is already renewing: the page's first script started it (session/early.ts).
 */

export const store = createSessionStore(localTokenStorage());
export const session = createSessionClient(store, { renewal: earlyRenewal });
/** Settles when a stored session is renewed, refused or out of reach (nothing stored: at once). */
export const restored = session.restore();

// Logging out in another tab removes the shared refresh token: end this tab's session too.
window.addEventListener('storage', (event) => {
  if (event.key === REFRESH_TOKEN_KEY && event.newValue === null) store.signOut(null);
});
