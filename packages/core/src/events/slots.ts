import { and, count, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { LimitError } from '../errors';
import { streamLeases } from './table';

/** How long a lease lasts without renewal: a dead process's streams count no longer than this. */
const LEASE_SECONDS = 60;
/** Renewal of this process's open leases, well inside their lifetime. */
const RENEW_MS = 20_000;
/** Advisory lock namespace (first key) for "stream slots of one user". */
const SLOTS_LOCK = 0x73747265;

/** The refusal past the limit (429 `TOO_MANY_STREAMS`), whichever store counts. */
export const tooManyStreams = (max: number) =>
  new LimitError('streams-per-user', `At most ${max} open streams per user`, 'TOO_MANY_STREAMS');

/** Where the open streams are counted: the database by default, Redis when configured. */
export interface StreamSlots {
  /** Takes a slot for `userId` (429 past the limit); the returned function gives it back (once). */
  take(userId: string): Promise<() => void>;
  /** Streams this process holds open (for /metrics). */
  heldHere(): number;
}

/**
 * Open live streams per user across every server process, at most `max` each (one tab needs one
 * notification stream and one stream per page): past that, 429 `TOO_MANY_STREAMS`. Counted in
 * the database as leases (`stream_leases`); taking one locks the user's count for the length of
 * one transaction, so two processes cannot both take the last slot.
 */
export function createStreamSlots(db: Database, max: number): StreamSlots {
  const held = new Set<string>();
  let renewal: ReturnType<typeof setInterval> | undefined;
  const expiry = () => sql`now() + make_interval(secs => ${LEASE_SECONDS})`;

  const renew = async () => {
    if (held.size === 0) return;
    await db
      .update(streamLeases)
      .set({ expiresAt: expiry() })
      .where(inArray(streamLeases.id, [...held]));
  };
  const watch = () => {
    if (held.size > 0 && !renewal) {
      renewal = setInterval(() => void renew().catch(() => {}), RENEW_MS);
      renewal.unref();
    } else if (held.size === 0 && renewal) {
      clearInterval(renewal);
      renewal = undefined;
    }
  };

  async function lease(userId: string): Promise<string> {
    return db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SLOTS_LOCK}, hashtext(${userId}))`);
      await tx
        .delete(streamLeases)
        .where(and(eq(streamLeases.userId, userId), lte(streamLeases.expiresAt, sql`now()`)));
      const [open] = await tx
        .select({ n: count() })
        .from(streamLeases)
        .where(and(eq(streamLeases.userId, userId), gt(streamLeases.expiresAt, sql`now()`)));
      if (open!.n >= max) throw tooManyStreams(max);
      const [row] = await tx
        .insert(streamLeases)
        .values({ userId, expiresAt: expiry() })
        .returning({ id: streamLeases.id });
      return row!.id;
    });
  }

  return {
    /** Takes a slot for `userId`; the returned function gives it back (once). */
    async take(userId: string): Promise<() => void> {
      const id = await lease(userId);
      held.add(id);
      watch();
      return () => {
        if (!held.delete(id)) return;
        watch();
        // If this fails (the database is away), the lease expires by itself.
        void db
          .delete(streamLeases)
          .where(eq(streamLeases.id, id))
          .catch(() => {});
      };
    },
    /** Streams this process holds open (for /metrics). */
    heldHere: () => held.size,
  };
}
