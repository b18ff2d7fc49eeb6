/*
 * What a returning student's first page needs, without React: boot.ts, the page's first script,
 * starts fetching it while the rest of the app downloads.
 */

/** The code of the pages a logged-in person usually opens the app on, by address. */
export const LANDING = {
  '/feed': () => import('./pages/feed/FeedPage'),
  '/partidas': () => import('./pages/matches/MatchesPage'),
  '/grupos': () => import('./pages/groups/GroupsPage'),
  '/notificacoes': () => import('./pages/notifications/NotificationsPage'),
};

/**
 * Starts loading the code of the page at `path` (one of LANDING) and the data layer at once: for
 * a returning student, in parallel with the session's refresh and with the app's own code
 * (boot.ts runs it first; the feed's first paint on a phone network).
 */
export function preloadLanding(path: string) {
  // `/` sends a logged-in person to the feed.
  const load = LANDING[(path === '/' ? '/feed' : path) as keyof typeof LANDING];
  if (!load) return;
  void load();
  void import('./session/DataLayer');
}
