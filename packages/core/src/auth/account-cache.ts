import type { Actor } from '../common/actor';
import type { EventBus } from '../events/bus';

/** What authentication reads of an account: the actor, and when its sessions were last ended. */
export interface AccountState {
  actor: Readonly<Actor>;
  sessionsRevokedAt: Date | null;
}

/** Accounts remembered per process; past this, the oldest entry is forgotten first. */
const MAX_ENTRIES = 100_000;
/** Waits before trying again to LISTEN when the first attempt failed. */
const WATCH_RETRY_MS = 2000;

/**
 * The per-process cache of the accounts that authenticate, so a request does not read its
 * caller's row. It is only trusted while this process listens to the `account` events (a trigger
 * on `users` publishes every change of status, perfil, nickname, ended sessions and deletions):
 * an event forgets its account on every process when the change commits; a lost listener
 * connection empties the cache and turns it off (every request reads the row, as without a
 * cache) until the LISTEN is back. Without a bus it never caches.
 *
 * A read in flight is shared (the promise is cached), and an event that arrives while it runs
 * forgets it, so nothing read before a commit outlives that commit's event.
 */
export function createAccountCache(
  read: (id: string) => Promise<AccountState | undefined>,
  bus: EventBus | undefined,
  onError: (error: unknown) => void = () => {},
) {
  const entries = new Map<string, Promise<AccountState | undefined>>();
  /** The LISTEN is in place: events will arrive, so entries can be kept. */
  let live = false;
  let stopWatching: (() => void) | undefined;
  let stopped = false;

  const forgetAll = () => entries.clear();
  function watch() {
    if (!bus || stopped) return;
    bus
      .watch('account', {
        onEvent: ({ key }) => entries.delete(key),
        onResync: () => {
          forgetAll();
          live = true;
        },
        onDrop: () => {
          live = false;
          forgetAll();
        },
      })
      .then((stop) => {
        stopWatching = stop;
        live = true;
      })
      .catch((error: unknown) => {
        onError(error);
        setTimeout(watch, WATCH_RETRY_MS).unref();
      });
  }
  watch();

  return {
    get(id: string): Promise<AccountState | undefined> {
      if (!live) return read(id);
      const found = entries.get(id);
      if (found) return found;
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      const reading = read(id);
      entries.set(id, reading);
      reading.catch(() => {
        if (entries.get(id) === reading) entries.delete(id);
      });
      return reading;
    },
    /** Entries held, and whether the cache is trusted now (tests, metrics). */
    state: () => ({ live, size: entries.size }),
    stop() {
      stopped = true;
      live = false;
      stopWatching?.();
      forgetAll();
    },
  };
}
export type AccountCache = ReturnType<typeof createAccountCache>;
