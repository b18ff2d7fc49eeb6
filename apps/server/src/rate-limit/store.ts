import type { RateLimitService } from '@campus/core';

/** Counters shared by every server process: adds `by` to `key` and returns the new total. */
export interface RateLimitStore {
  increment(key: string, by: number, expiresAt: Date): Promise<number>;
  /** Forgets windows that have ended. */
  sweep(): Promise<void>;
  close(): Promise<void>;
}

/** The default store: core's counters on the application's database (one upsert per increment). */
export function postgresStore(rateLimits: RateLimitService): RateLimitStore {
  return {
    increment: (key, by, expiresAt) => rateLimits.increment(key, by, expiresAt),
    sweep: () => rateLimits.sweep(),
    async close() {},
  };
}

/** The longest a request waits on Redis for a count (docs/operations.md, "Limits and their store"). */
export const REDIS_TIMEOUT_MS = 100;

/**
 * With REDIS_URL: INCRBY plus an expiry, in one round trip. The client library is loaded only
 * then: a server without Redis does not hold it in memory. A command fails rather than wait:
 * at once while disconnected (no offline queue, no retry), after `timeoutMs` when Redis hangs;
 * the client keeps reconnecting in the background.
 */
export async function redisStore(
  url: string,
  timeoutMs = REDIS_TIMEOUT_MS,
): Promise<RateLimitStore> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: false,
    connectTimeout: 1000,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // Failures reach the caller through its commands; the client's own error events are expected.
  redis.on('error', () => {});
  // Connected before the first count, unless Redis is away at boot (then the fallback counts).
  await new Promise<void>((resolve) => {
    const giveUp = setTimeout(resolve, 1000);
    redis.once('ready', () => (clearTimeout(giveUp), resolve()));
  });
  return {
    async increment(key, by, expiresAt) {
      const results = await redis
        .multi()
        .incrby(`ratelimit:${key}`, by)
        .pexpireat(`ratelimit:${key}`, expiresAt.getTime())
        .exec();
      const [error, total] = results?.[0] ?? [new Error('redis: empty reply')];
      if (error) throw error;
      return Number(total);
    },
    async sweep() {},
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/**
 * Redis first, PostgreSQL when it refuses, hangs (past `timeoutMs`) or errs: the limits still
 * hold while Redis is away. After a failure Redis is left alone for `retryAfterMs`, so requests
 * do not each pay the timeout. The counts of a window split between the stores during a switch:
 * a client may get up to twice its limit in that window.
 */
export function fallbackStore(
  primary: RateLimitStore,
  secondary: RateLimitStore,
  onError: (error: unknown) => void,
  { timeoutMs = REDIS_TIMEOUT_MS, retryAfterMs = 5000 } = {},
): RateLimitStore {
  let skipUntil = 0;
  return {
    async increment(key, by, expiresAt) {
      if (Date.now() >= skipUntil) {
        try {
          return await within(primary.increment(key, by, expiresAt), timeoutMs);
        } catch (error) {
          skipUntil = Date.now() + retryAfterMs;
          onError(error);
        }
      }
      return secondary.increment(key, by, expiresAt);
    },
    async sweep() {
      await Promise.allSettled([primary.sweep(), secondary.sweep()]);
    },
    async close() {
      await Promise.allSettled([primary.close(), secondary.close()]);
    },
  };
}

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`rate limit store: no answer in ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
