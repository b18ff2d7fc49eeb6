import type { Unsubscribable } from '@trpc/server/observable';
import { useEffect, useRef } from 'react';
import { useSession } from './SessionProvider';

interface Handlers<T> {
  onData: (data: T) => void;
  onComplete: () => void;
  onError: () => void;
}

/**
 * Keeps one live stream open while the component is shown: opened with a fresh access token,
 * opened again when the server ends it (the token expired) or it fails (after a pause), and
 * closed when the component goes. A tracked event (`{id, data}`) arrives as its `data`.
 */
export function useLiveStream<T>(
  subscribe: (handlers: Handlers<unknown>) => Unsubscribable,
  onData: (data: T) => void,
  key: string | null,
) {
  const { freshToken } = useSession();
  const latest = useRef(onData);
  latest.current = onData;
  useEffect(() => {
    if (key === null) return;
    let stopped = false;
    let subscription: Unsubscribable | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const again = (delayMs: number) => {
      subscription?.unsubscribe();
      if (!stopped) timer = setTimeout(() => void open(), delayMs);
    };
    const open = async () => {
      await freshToken();
      if (stopped) return;
      subscription = subscribe({
        onData: (value) => {
          const tracked =
            typeof value === 'object' && value !== null && 'id' in value && 'data' in value;
          latest.current((tracked ? (value as { data: T }).data : value) as T);
        },
        onComplete: () => again(500),
        onError: () => again(5000),
      });
    };
    void open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      subscription?.unsubscribe();
    };
    // `subscribe` is a new function on each render; `key` says when the stream is another one.
  }, [key, freshToken]);
}
