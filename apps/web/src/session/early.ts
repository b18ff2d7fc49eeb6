/*
 * The page's first script, its own small entry listed before the app in index.html
 * (build/early-script.ts). For a returning student it renews the session before the app's code
 * has arrived, then reads the feed's first page (when landing on the feed), then starts
 * downloading the code of the page landed on. The app adopts both answers: the renewal as its
 * first refresh (session/client.ts, `restore`), the page as its first query's
 * (pages/feed/FeedPage.tsx, `prefetchFeed`). On a phone network that is the better part of a
 * second (bench:mobile-lcp).
 *
 * It imports nothing heavy: no tRPC client, no schemas. It speaks the REST contract
 * (`POST /autenticacao/atualizar-token`, docs/contract/accounts.md), and it renews under the same
 * cross-tab lock as every other refresh, writing the rotated token before it lets go of it.
 */
import { feedQueryFrom } from '../pages/feed/feedQuery';
import { boundedFetch } from './bounded-fetch';
import { preloadLandingCode } from './landing-chunks';
import { browserLock, type RenewAnswer } from './refresh';
import { localTokenStorage, type RouterOutputs, type SessionData } from './store';

const RENEW_PATH = '/autenticacao/atualizar-token';

export type FeedPageAnswer = RouterOutputs['feed']['list'];

/** Exchanges the stored refresh token (read inside the lock: another tab may have rotated it). */
async function renewStoredSession(): Promise<RenewAnswer> {
  const tokens = localTokenStorage();
  const refreshToken = tokens.read();
  if (!refreshToken) return { status: 401, reason: undefined };
  try {
    const response = await boundedFetch()(RENEW_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken }),
    });
    const body = (await response.json()) as { dados?: SessionData; reason?: string };
    if (!response.ok || !body.dados) return { status: response.status, reason: body.reason };
    tokens.write(body.dados.refreshToken);
    return { dados: body.dados };
  } catch {
    return { status: undefined, reason: undefined };
  }
}

/**
 * The feed's first page at `search` (`GET /post` takes the list's input as its query), read with
 * the renewed session's token; null when it could not be read (the page then asks again).
 */
async function readFeedPage(search: string, accessToken: string): Promise<FeedPageAnswer | null> {
  const query = new URLSearchParams(
    Object.entries(feedQueryFrom(new URLSearchParams(search))).map(([k, v]) => [k, String(v)]),
  );
  try {
    const response = await boundedFetch()(`/post?${query}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    return response.ok ? ((await response.json()) as FeedPageAnswer) : null;
  } catch {
    return null;
  }
}

const { pathname, search } = window.location;

/** The renewal of the session stored in this browser, started as the page opens; null: none. */
export const earlyRenewal =
  localTokenStorage().read() === null ? null : browserLock(renewStoredSession);

/*
 * Once renewed, the feed's first page is asked for, and then the code of the page landed on.
 * In that order: a browser opens six connections to a server at most, and a request waits for
 * those asked before it; the page's data is small, its code is not.
 */
let feedPage =
  earlyRenewal?.then((answer) => {
    if (!('dados' in answer)) return null;
    const page =
      pathname === '/' || pathname === '/feed'
        ? readFeedPage(search, answer.dados.accessToken)
        : null;
    preloadLandingCode(pathname);
    return page;
  }) ?? null;

/**
 * The feed's first page read right after the renewal, for the feed's first query at `at` (a
 * location's search), once; null when it was not read for that address.
 */
export function takeEarlyFeedPage(at: string): Promise<FeedPageAnswer | null> | null {
  const page = at === search ? feedPage : null;
  feedPage = null;
  return page;
}
