/**
 * One token refresh at a time. Every call that failed with 401 asks `renew(tokenItUsed)`:
 * - while a refresh is under way, it waits for that one;
 * - when the access token already changed since the call was made, a refresh happened in between:
 *   the call just retries with the new token;
 * - otherwise this call starts the refresh.
 * `withLock` serialises refreshes across browser tabs (they share the refresh token, and
 * presenting an already-rotated refresh token revokes the whole session).
 */
import type { SessionData } from './store';

export type RenewOutcome = 'renewed' | 'refused' | 'failed';

/**
 * What a refresh got back: the new session, or the failure's HTTP status and reason (no status:
 * the server was not reached).
 */
export type RenewAnswer =
  { dados: SessionData } | { status: number | undefined; reason: string | undefined };

export interface RefreshCoordinatorOptions {
  currentAccessToken: () => string | null;
  /** Exchanges the stored refresh token; 'refused' when the server said no, 'failed' when unreachable. */
  refresh: () => Promise<RenewOutcome>;
  withLock?: <T>(task: () => Promise<T>) => Promise<T>;
}

export function createRefreshCoordinator({
  currentAccessToken,
  refresh,
  withLock = (task) => task(),
}: RefreshCoordinatorOptions) {
  let inFlight: Promise<RenewOutcome> | null = null;

  return {
    renew(usedToken: string | null): Promise<RenewOutcome> {
      if (inFlight) return inFlight;
      const current = currentAccessToken();
      if (current !== null && current !== usedToken) return Promise.resolve('renewed');
      const run = async (): Promise<RenewOutcome> => {
        try {
          return await withLock(refresh);
        } catch {
          return 'failed';
        } finally {
          inFlight = null;
        }
      };
      inFlight = run();
      return inFlight;
    },
    get refreshing() {
      return inFlight !== null;
    },
  };
}

export type RefreshCoordinator = ReturnType<typeof createRefreshCoordinator>;

/** The Web Locks API where the browser has it (every current one), else no cross-tab lock. */
export function browserLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  // `request` resolves with what the task resolves with.
  return locks ? (locks.request('campus-token-refresh', task) as unknown as Promise<T>) : task();
}
