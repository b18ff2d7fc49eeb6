import type { RateLimitDecision } from '@campus/api';
import type { RateLimitStore } from './store';

export type Decision = RateLimitDecision;

export interface Limiter {
  /** Counts one hit of `client` (see `clientKey`) and says whether it is within the limit. */
  hit(client: string): Promise<Decision> | Decision;
  /** Pushes pending counts to the store (batched limiter); resolves when done. */
  flush(): Promise<void>;
}

function windowOf(windowSeconds: number, now = Date.now()) {
  const ms = windowSeconds * 1000;
  const index = Math.floor(now / ms);
  const endsAt = (index + 1) * ms;
  return { index, endsAt, resetSeconds: Math.max(1, Math.ceil((endsAt - now) / 1000)) };
}

const decide = (total: number, max: number, resetSeconds: number): Decision => ({
  allowed: total <= max,
  limit: max,
  remaining: Math.max(0, max - total),
  resetSeconds,
});

/**
 * Exact fixed-window limit: every hit is counted in the shared store before the request goes on.
 * For the few, slow endpoints that attackers target (login, refresh, registration).
 */
export function exactLimiter(
  store: RateLimitStore,
  name: string,
  max: number,
  windowSeconds: number,
): Limiter {
  return {
    async hit(address) {
      const window = windowOf(windowSeconds);
      const total = await store.increment(
        `${name}:${address}:${window.index}`,
        1,
        new Date(window.endsAt),
      );
      return decide(total, max, window.resetSeconds);
    },
    async flush() {},
  };
}

/**
 * A ceiling on all requests per address that costs no round trip per request: each process
 * counts locally and adds its counts to the shared store every `flushMs`, learning the total of
 * all processes in return. Between flushes the decision uses the last known total plus the local
 * count, so the ceiling holds across processes to within one flush interval.
 */
export function batchedLimiter(
  store: RateLimitStore,
  name: string,
  max: number,
  windowSeconds: number,
  onError: (error: unknown) => void,
  flushMs = 1000,
): Limiter & { stop(): void } {
  const counters = new Map<
    string,
    /** `known`: the store's total; `sending`: hits on their way to it; `pending`: not sent yet. */
    { window: number; endsAt: number; known: number; sending: number; pending: number }
  >();

  /** Writes on their way to the store, the interval's too: a flush waits for every one. */
  const writes = new Set<Promise<void>>();

  async function flush() {
    const now = Date.now();
    for (const [address, counter] of counters) {
      if (counter.endsAt <= now) {
        counters.delete(address);
        continue;
      }
      if (counter.pending === 0) continue;
      const by = counter.pending;
      counter.pending = 0;
      // Still counted while the store's answer is on its way: no request slips through the gap.
      counter.sending += by;
      const write = store
        .increment(`${name}:${address}:${counter.window}`, by, new Date(counter.endsAt))
        .then(
          (total) => {
            counter.sending -= by;
            counter.known = Math.max(counter.known + by, total);
          },
          (error: unknown) => {
            counter.sending -= by;
            counter.pending += by;
            onError(error);
          },
        )
        .finally(() => writes.delete(write));
      writes.add(write);
    }
    await Promise.all([...writes]);
  }
  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();

  return {
    hit(address) {
      const window = windowOf(windowSeconds);
      let counter = counters.get(address);
      if (!counter || counter.window !== window.index) {
        counter = { window: window.index, endsAt: window.endsAt, known: 0, sending: 0, pending: 0 };
        counters.set(address, counter);
      }
      counter.pending++;
      return decide(counter.known + counter.sending + counter.pending, max, window.resetSeconds);
    },
    flush,
    stop: () => clearInterval(timer),
  };
}
