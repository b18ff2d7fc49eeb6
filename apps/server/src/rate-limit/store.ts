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

/**
 * With REDIS_URL: INCRBY plus an expiry, in one round trip. The client library is loaded only
 * then: a server without Redis does not hold it in memory.
 */
export async function redisStore(url: string): Promise<RateLimitStore> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: false,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
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
      await redis.quit();
    },
  };
}
