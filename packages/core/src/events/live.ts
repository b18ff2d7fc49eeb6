import { notFound } from '../errors';
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

/**
 * The stream of one thing's state: subscribes to `kind`/`key` first (so no change is missed),
 * reads the current state (a 404 `missing` before the stream starts when there is none) and
 * yields it, then reads it again after each item of the bus and yields it; `deleted` ends the
 * stream once the thing is gone. `read(at)` is a shared read (`sharedReads`); `toEvent` makes the
 * event of a state (`item` is the bus item that caused it, none for the first).
 */
export async function followState<K extends EventKind, T, E>(
  bus: EventBus | undefined,
  target: { kind: K; key: string; missing: string },
  signal: AbortSignal,
  read: (at: number) => Promise<T | undefined>,
  toEvent: (state: T, item: LiveItem<K> | undefined) => E | Promise<E>,
): Promise<AsyncGenerator<E | { kind: 'deleted' }>> {
  if (!bus) throw new Error('live streams need the event bus');
  const items = await follow(bus, target.kind, target.key, signal);
  const first = await read(performance.now()).catch(async (error: unknown) => {
    await items.return();
    throw error;
  });
  if (!first) {
    await items.return();
    throw notFound(target.missing);
  }
  return (async function* () {
    try {
      yield await toEvent(first, undefined);
      for await (const item of items) {
        const state = await read(item.at);
        if (!state) {
          yield { kind: 'deleted' as const };
          return;
        }
        yield await toEvent(state, item);
      }
    } finally {
      await items.return();
    }
  })();
}
