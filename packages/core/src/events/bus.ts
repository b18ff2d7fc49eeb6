import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor, Listen } from '../db/client';

/**
 * The event bus between server processes: PostgreSQL LISTEN/NOTIFY (PGlite's own in embedded
 * mode), one typed channel per kind. Domain code publishes with `publish(tx, …)` inside the
 * transaction of the change, so PostgreSQL delivers the event only if and when it commits; a
 * rolled-back change publishes nothing. Routers never publish.
 *
 * Payloads carry ids, not state (NOTIFY payloads are limited to 8,000 bytes): a subscriber reads
 * what it needs. Each process LISTENs once per kind and fans out in memory by key.
 */
export const eventSchemas = {
  /**
   * The inbox of user `key` changed: a notification was written (`seq`: its position in that
   * inbox), or, without `seq`, notifications were marked read.
   */
  notification: z.object({ key: z.uuid(), seq: z.number().int().optional() }),
  /** A match's spots, teams, status or fields changed (`deleted`: it is gone). */
  match: z.object({ key: z.uuid(), deleted: z.boolean().optional() }),
  /** A post's counters changed, a comment was added (`commentId`), or the post is gone. */
  post: z.object({
    key: z.uuid(),
    commentId: z.uuid().optional(),
    deleted: z.boolean().optional(),
  }),
  /**
   * A post was published (`key`: always FEED_KEY, the one feed everyone reads): its id and
   * author, which any reader of the feed sees anyway.
   */
  feed: z.object({ key: z.literal('feed'), postId: z.uuid(), authorId: z.uuid() }),
  /**
   * What authentication reads of account `key` changed (status, perfil, nickname, sessions
   * ended) or it was deleted. Published by a trigger on `users` (migration 0012), not by services.
   */
  account: z.object({ key: z.uuid() }),
};
export type EventKind = keyof typeof eventSchemas;
export type EventOf<K extends EventKind> = z.infer<(typeof eventSchemas)[K]>;

const channelOf = (kind: EventKind) => `campus_${kind}`;

/** Publishes an event; delivered to every process when the surrounding transaction commits. */
export async function publish<K extends EventKind>(
  ex: Executor,
  kind: K,
  event: EventOf<K>,
): Promise<void> {
  await ex.execute(sql`select pg_notify(${channelOf(kind)}, ${JSON.stringify(event)})`);
}

/** The `pg_notify(…)` of an event, for a statement that publishes as it changes something. */
export const publishExpression = <K extends EventKind>(kind: K, event: EventOf<K>) =>
  sql`pg_notify(${channelOf(kind)}, ${JSON.stringify(event)})`;

/** Several events in one statement (e.g. a notification to each player of a match). */
export async function publishMany<K extends EventKind>(
  ex: Executor,
  kind: K,
  events: EventOf<K>[],
): Promise<void> {
  if (events.length === 0) return;
  const payloads = JSON.stringify(events.map((event) => JSON.stringify(event)));
  await ex.execute(
    sql`select pg_notify(${channelOf(kind)}, value) from json_array_elements_text(${payloads}::json)`,
  );
}

export interface Subscriber<K extends EventKind> {
  /** An event for the subscribed key. */
  onEvent(event: EventOf<K>): void;
  /**
   * The listening connection was lost and is back: events may have been missed, so send the
   * current state again.
   */
  onResync(): void;
  /**
   * The listening connection was lost: events published from now until `onResync` will not
   * arrive. (Embedded PGlite never drops.)
   */
  onDrop?(): void;
}

export interface EventBus {
  /** Receives the events of `kind` for `key` until the returned function is called. */
  subscribe<K extends EventKind>(
    kind: K,
    key: string,
    subscriber: Subscriber<K>,
  ): Promise<() => void>;
  /**
   * Receives every event of `kind`, before the subscribers of its key (a cache that forgets a
   * key is thus up to date when they react), until the returned function is called.
   */
  watch<K extends EventKind>(kind: K, subscriber: Subscriber<K>): Promise<() => void>;
  /** Open subscriptions in this process, per kind (metrics, tests). */
  size(kind: EventKind): number;
  close(): Promise<void>;
}

interface Channel {
  keys: Map<string, Set<Subscriber<never>>>;
  /** Subscribers to every key. */
  all: Set<Subscriber<never>>;
  /** Resolves once the LISTEN is in place. */
  ready: Promise<() => Promise<void>>;
}

/**
 * The process's bus over the database's `listen` (`DatabaseHandle.listen`). The LISTEN of a
 * kind starts with its first subscriber and stays (one connection serves every channel).
 */
export function createEventBus(listen: Listen, onError: (error: unknown) => void = () => {}) {
  const channels = new Map<EventKind, Channel>();
  let closed = false;

  function channel(kind: EventKind): Channel {
    let found = channels.get(kind);
    if (found) return found;
    const keys = new Map<string, Set<Subscriber<never>>>();
    const all = new Set<Subscriber<never>>();
    const everyone = function* () {
      yield* all;
      for (const set of keys.values()) yield* set;
    };
    let listening = false;
    const ready = listen(
      channelOf(kind),
      (payload) => {
        let event: { key: string };
        try {
          event = eventSchemas[kind].parse(JSON.parse(payload));
        } catch (error) {
          onError(error);
          return;
        }
        for (const subscriber of all) deliver(() => subscriber.onEvent(event as never));
        for (const subscriber of keys.get(event.key) ?? [])
          deliver(() => subscriber.onEvent(event as never));
      },
      () => {
        // The first call is the initial LISTEN; any later one follows a reconnection.
        if (!listening) {
          listening = true;
          return;
        }
        for (const subscriber of everyone()) deliver(() => subscriber.onResync());
      },
      () => {
        for (const subscriber of everyone()) deliver(() => subscriber.onDrop?.());
      },
    );
    found = { keys, all, ready };
    channels.set(kind, found);
    ready.catch(() => channels.delete(kind));
    return found;
  }

  /** `unsubscribe`, once the channel listens; if it cannot, the subscription is undone. */
  async function whenListening(ready: Promise<unknown>, unsubscribe: () => void) {
    try {
      await ready;
    } catch (error) {
      unsubscribe();
      throw error;
    }
    return unsubscribe;
  }

  function deliver(call: () => void) {
    try {
      call();
    } catch (error) {
      onError(error);
    }
  }

  const bus: EventBus = {
    async subscribe(kind, key, subscriber) {
      if (closed) throw new Error('event bus closed');
      const { keys, ready } = channel(kind);
      let set = keys.get(key);
      if (!set) keys.set(key, (set = new Set()));
      set.add(subscriber as Subscriber<never>);
      const unsubscribe = () => {
        set.delete(subscriber as Subscriber<never>);
        if (set.size === 0 && keys.get(key) === set) keys.delete(key);
      };
      return whenListening(ready, unsubscribe);
    },
    async watch(kind, subscriber) {
      if (closed) throw new Error('event bus closed');
      const { all, ready } = channel(kind);
      all.add(subscriber as Subscriber<never>);
      const unsubscribe = () => void all.delete(subscriber as Subscriber<never>);
      return whenListening(ready, unsubscribe);
    },
    size(kind) {
      let n = 0;
      for (const set of channels.get(kind)?.keys.values() ?? []) n += set.size;
      return n;
    },
    async close() {
      closed = true;
      const all = [...channels.values()];
      channels.clear();
      await Promise.all(all.map((c) => c.ready.then((unlisten) => unlisten()).catch(() => {})));
    },
  };
  return bus;
}
