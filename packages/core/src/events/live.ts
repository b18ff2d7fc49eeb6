import type { EventBus, EventKind, EventOf } from './bus';

/** What a live subscription receives: an event for its key, or "events may have been missed". */
export type LiveItem<K extends EventKind> = (
  { type: 'event'; event: EventOf<K> } | { type: 'resync' }
) & {
  /** When it was received (`performance.now()`): a read started later sees the change. */
  at: number;
};

/** Past this many undelivered items a slow reader gets one resync instead of the backlog. */
const MAX_QUEUED = 500;

/**
 * Subscribes to `kind`/`key` on the bus now (so nothing published after this call is missed by a
 * caller that reads the current state next) and returns the items as an async iterable that
 * ends, and unsubscribes, when `signal` aborts or the consumer stops iterating.
 */
export async function follow<K extends EventKind>(
  bus: EventBus,
  kind: K,
  key: string,
  signal: AbortSignal,
): Promise<AsyncGenerator<LiveItem<K>, void, undefined>> {
  const queue: LiveItem<K>[] = [];
  let wake: (() => void) | undefined;
  const push = (item: LiveItem<K>) => {
    if (queue.length >= MAX_QUEUED) queue.splice(0, queue.length, { type: 'resync', at: item.at });
    else queue.push(item);
    wake?.();
  };
  const unsubscribe = await bus.subscribe(kind, key, {
    onEvent: (event) => push({ type: 'event', event, at: performance.now() }),
    onResync: () => push({ type: 'resync', at: performance.now() }),
  });
  const onAbort = () => wake?.();
  signal.addEventListener('abort', onAbort, { once: true });
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    signal.removeEventListener('abort', onAbort);
    unsubscribe();
    wake?.();
  };

  async function* items(): AsyncGenerator<LiveItem<K>, void, undefined> {
    try {
      while (!signal.aborted && !closed) {
        const next = queue.shift();
        if (next) {
          yield next;
          continue;
        }
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    } finally {
      close();
    }
  }
  const generator = items();
  // `return()` on a generator that never started skips its `finally`: unsubscribe here as well.
  const finish = generator.return.bind(generator);
  generator.return = (value) => {
    close();
    return finish(value);
  };
  return generator;
}

/**
 * One read shared by every stream of a key in this process: a stream that received an event at
 * `at` reuses a read of that key started at or after `at` (it sees the change) instead of
 * starting its own, so one change on a match watched by 1,000 streams costs one query here.
 */
export function sharedReads<T>(read: (key: string) => Promise<T>) {
  const latest = new Map<string, { startedAt: number; value: Promise<T> }>();
  return (key: string, at: number): Promise<T> => {
    const found = latest.get(key);
    if (found && found.startedAt >= at) return found.value;
    const entry = { startedAt: performance.now(), value: read(key) };
    latest.set(key, entry);
    const forget = () => {
      if (latest.get(key) === entry) latest.delete(key);
    };
    // Kept briefly for the streams still catching up on the same event.
    entry.value.then(
      () => setTimeout(forget, 1000).unref(),
      () => forget(),
    );
    return entry.value;
  };
}

/** The process's bus, which every live stream needs (a process built without one refuses them). */
export function requireBus(bus: EventBus | undefined): EventBus {
  if (!bus) throw new Error('live streams need the event bus');
  return bus;
}
