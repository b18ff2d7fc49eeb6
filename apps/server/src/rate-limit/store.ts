import type { Database } from '@campus/core/db';
import { schema } from '@campus/core/db';
import { lt, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';

/** Counters shared by every server process: adds `by` to `key` and returns the new total. */
export interface RateLimitStore {
  increment(key: string, by: number, expiresAt: Date): Promise<number>;
  /** Forgets windows that have ended. */
  sweep(): Promise<void>;
  close(): Promise<void>;
}

/** The default store: one upsert per increment on the application's database. */
export function postgresStore(db: Database): RateLimitStore {
  const { rateLimitHits } = schema;
  return {
    async increment(key, by, expiresAt) {
      const [row] = await db
        .insert(rateLimitHits)
        .values({ key, hits: by, expiresAt })
        .onConflictDoUpdate({
          target: rateLimitHits.key,
          set: { hits: sql`${rateLimitHits.hits} + ${by}` },
        })
        .returning({ hits: rateLimitHits.hits });
      return row!.hits;
    },
    async sweep() {
      await db.delete(rateLimitHits).where(lt(rateLimitHits.expiresAt, new Date()));
    },
    async close() {},
  };
}

/** With REDIS_URL: INCRBY plus an expiry, in one round trip. */
export function redisStore(url: string): RateLimitStore {
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
