import { lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { rateLimitHits } from './table';

/**
 * Fixed-window counters on the application's database, shared by every server process (the
 * host's default rate-limit store; it uses Redis instead when configured).
 */
export function createRateLimitService(db: Database) {
  return {
    /** Adds `by` to `key`'s window (one upsert) and returns the window's new total. */
    async increment(key: string, by: number, expiresAt: Date): Promise<number> {
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

    /** Forgets windows that have ended. */
    async sweep(): Promise<void> {
      await db.delete(rateLimitHits).where(lt(rateLimitHits.expiresAt, new Date()));
    },
  };
}
export type RateLimitService = ReturnType<typeof createRateLimitService>;
