import postgres from 'postgres';
import type { Listen } from './client';

interface Listener {
  onNotify: (payload: string) => void;
  onListen: () => void;
  onDrop: (() => void) | undefined;
}

const quoted = (channel: string) => `"${channel.replace(/"/g, '""')}"`;
/** Waits between attempts to LISTEN again after the connection was lost. */
const RETRY_MS = [100, 250, 500, 1000, 2000, 5000];

/**
 * LISTEN/NOTIFY on a dedicated PostgreSQL connection. postgres.js's own `listen` re-listens after
 * a drop but says nothing when the connection is lost (a subscriber cannot stop trusting what it
 * cached) and gives up for good when its first reconnection fails; this one calls `onDrop` as
 * soon as the connection closes, then retries until the LISTENs are back and calls `onListen`.
 * A connection that dies silently (no FIN) is noticed by TCP keepalive (postgres.js: 60 s).
 */
export function postgresListener(url: string, connectTimeoutS?: number) {
  const channels = new Map<string, { listeners: Set<Listener>; ready: Promise<unknown> }>();
  let closed = false;
  let generation = 0;

  // `onnotify` is an option postgres.js reads (its own `listen` uses it) but does not type.
  const onnotify = (channel: string, payload: string) => {
    for (const listener of channels.get(channel)?.listeners ?? []) listener.onNotify(payload);
  };
  const sql = postgres(url, {
    max: 1,
    max_lifetime: null, // never recycled (idle_timeout's default: never closed when idle)
    fetch_types: false,
    onnotice: () => {},
    ...(connectTimeoutS ? { connect_timeout: connectTimeoutS } : {}),
    ...({ onnotify } as object),
    onclose: () => {
      if (closed || channels.size === 0) return;
      const current = ++generation;
      for (const { listeners } of channels.values())
        for (const listener of listeners) listener.onDrop?.();
      void relisten(current);
    },
  });

  async function relisten(current: number) {
    for (let attempt = 0; !closed && current === generation; attempt++) {
      try {
        for (const channel of channels.keys()) await sql.unsafe(`listen ${quoted(channel)}`);
        if (current !== generation || closed) return;
        for (const { listeners } of channels.values())
          for (const listener of listeners) listener.onListen();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]));
      }
    }
  }

  const listen: Listen = async (channel, onNotify, onListen, onDrop) => {
    const listener: Listener = { onNotify, onListen, onDrop };
    let entry = channels.get(channel);
    if (!entry) {
      entry = { listeners: new Set(), ready: sql.unsafe(`listen ${quoted(channel)}`) };
      channels.set(channel, entry);
      entry.ready.catch(() => channels.delete(channel));
    }
    const { listeners, ready } = entry;
    listeners.add(listener);
    try {
      await ready;
    } catch (error) {
      listeners.delete(listener);
      throw error;
    }
    onListen();
    return async () => {
      listeners.delete(listener);
      if (listeners.size > 0 || channels.get(channel) !== entry) return;
      channels.delete(channel);
      await sql.unsafe(`unlisten ${quoted(channel)}`).catch(() => {});
    };
  };

  return {
    listen,
    close: async () => {
      closed = true;
      await sql.end({ timeout: 5 });
    },
  };
}
